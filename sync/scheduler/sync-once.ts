// One sync, the only orchestration of it: `vorort sync`, `vorort sync --watch`, the desktop app
// and browser mode all run this. The courses with changes waiting are read again, the outbox is
// pushed (DESIGN rule 15), then the pull spends what is left of the request budget, in this
// thread (runSync) or wherever the caller's PullRunner runs it (the app's: a worker thread).
import { ApiError, type ApiClient } from '../api';
import type { Replica } from '../db/open';
import { pushOutbox, type PushSummary } from '../outbox/replay';
import { budgetFor, pullBudget } from '../pull/budget';
import { createRefresher, refreshBeforePush, type Refresher } from '../pull/refresh';
import { runSync, type PullRunner, type SyncSummary } from '../pull/engine';
import {
  DEFAULT_SYNC_OPTIONS,
  type SyncOptions,
  type SyncProfile,
  type SyncProgress,
} from '../pull/options';

export interface SyncOnceInput {
  api: ApiClient;
  replica: Replica;
  profile: SyncProfile;
  /** Everything at once, outside the budget (scripts, tests, the first sync of a fast local service). */
  full?: boolean;
  /** Send the outbox and do not pull. */
  pushOnly?: boolean;
  /** More of the pull's options (the request budget, the interval, ...). */
  options?: Partial<Omit<SyncOptions, 'profile' | 'full'>>;
  signal?: AbortSignal;
  /** The push's progress comes as the collection 'outbox', then the pull's collections. */
  onProgress?: (event: SyncProgress) => void;
  /** The client's pace (requests a minute), when it has one: the pull ends before it would overrun its slot. */
  paceRequestsPerMinute?: number;
  /** How long the push waits for retries that fall due within it (default: pushOutbox's 60 s). */
  pushMaxWaitMs?: number;
  /**
   * Requests of this client between the last sync and this one (the app's reachability probes):
   * they come off this sync's budget, at most a quarter of it (the rest of the pace is the syncs').
   */
  requestsSinceLastSync?: number;
  /** The on-demand refresher the screens use (its running refreshes are shared); default a new one. */
  refresher?: Refresher;
  /** Where the pull runs; default runSync in this thread with `api` and `replica`. */
  pull?: PullRunner;
}

export interface SyncOnceSummary extends SyncSummary {
  outbox: PushSummary;
}

/**
 * Pushes the outbox, then pulls within the budget the push left (no budget for a full sync).
 * `ok` is false when the pull was incomplete, the push parked an operation, or the service
 * refused the login during the push (the queue then waits for a new login). A push that found
 * the service out of reach throws an ApiError 'network' at once: a pull would find the same.
 */
export async function syncOnce(input: SyncOnceInput): Promise<SyncOnceSummary> {
  const startedAt = new Date();
  const pace = input.paceRequestsPerMinute ?? input.api.pace;
  // Unless given, the budget follows the interval (and the client's pace, where it has one).
  const requestBudget =
    input.options?.requestBudget ??
    budgetFor(input.options?.intervalSeconds ?? DEFAULT_SYNC_OPTIONS.intervalSeconds, pace);
  const signal = input.signal ? { signal: input.signal } : {};
  // The courses with changes waiting first, so the office's changes meet them as conflicts.
  const refreshed = input.pushOnly
    ? 0
    : await refreshBeforePush({
        api: input.api,
        refresher:
          input.refresher ??
          createRefresher({
            api: input.api,
            replica: input.replica,
            options: { ...input.options, profile: input.profile },
          }),
        sqlite: input.replica.sqlite,
        ...signal,
      });
  const outbox = await pushOutbox({
    api: input.api,
    sqlite: input.replica.sqlite,
    ...signal,
    ...(input.pushMaxWaitMs === undefined ? {} : { maxWaitMs: input.pushMaxWaitMs }),
    // At a throttled service's pace a long queue takes minutes: shown like a collection.
    onProgress: (event) => input.onProgress?.({ collection: 'outbox', ...event }),
  });
  outbox.requests += refreshed; // the push's own: counted and budgeted with it
  if (outbox.unreachable)
    throw new ApiError({ kind: 'network', method: 'GET', url: input.api.baseUrl });
  const full = input.full ?? false;
  const between = Math.min(input.requestsSinceLastSync ?? 0, Math.floor(requestBudget / 4));
  const pull: PullRunner =
    input.pull ?? ((run) => runSync({ api: input.api, replica: input.replica, ...run }));
  const pulled = input.pushOnly
    ? pushOnlySummary(input.profile, outbox, startedAt)
    : await pull({
        options: { ...input.options, requestBudget, profile: input.profile, full },
        ...(full ? {} : { budget: pullBudget({ requestBudget }, outbox.requests + between) }),
        ...(pace === undefined ? {} : { paceRequestsPerMinute: pace }),
        ...(input.onProgress ? { onProgress: input.onProgress } : {}),
        ...signal,
      });
  return {
    ...pulled,
    outbox,
    ok: pulled.ok && outbox.parked === 0 && !outbox.pausedForLogin,
  };
}

function pushOnlySummary(profile: SyncProfile, outbox: PushSummary, startedAt: Date): SyncSummary {
  const finishedAt = new Date();
  return {
    ok: true,
    profile,
    collections: {},
    quarantined: 0,
    unavailable: [],
    records: 0,
    requests: outbox.requests,
    seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    budget: { limit: 0, spent: 0, stoppedEarly: null, deferred: {} },
  };
}
