// One sync as `vorort sync`, `vorort sync --watch` and the background scheduler run it: the outbox
// is pushed first (DESIGN rule 15), then the pull spends what is left of the request budget.
import type { ApiClient } from '../api';
import type { Replica } from '../db/open';
import { pushOutbox, type PushSummary } from '../outbox/replay';
import { budgetFor, pullBudget } from '../pull/budget';
import { createRefresher, refreshBeforePush } from '../pull/refresh';
import { runSync, type SyncSummary } from '../pull/engine';
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
}

export interface SyncOnceSummary extends SyncSummary {
  outbox: PushSummary;
  /**
   * This computer's clock less the service's, in seconds, when the sync could tell (a hook: the
   * scheduler reports a skew beyond 5 minutes as the problem 'clock').
   */
  clockSkewSeconds?: number;
}

/**
 * Pushes the outbox, then pulls within the budget the push left (no budget for a full sync).
 * `ok` is false when the pull was incomplete, the push parked an operation, or the service
 * refused the login during the push (the queue then waits for a new login).
 */
export async function syncOnce(input: SyncOnceInput): Promise<SyncOnceSummary> {
  const startedAt = new Date();
  const pace = input.paceRequestsPerMinute ?? input.api.pace;
  // Unless given, the budget follows the interval (and the client's pace, where it has one).
  const options = {
    ...DEFAULT_SYNC_OPTIONS,
    ...input.options,
    requestBudget:
      input.options?.requestBudget ??
      budgetFor(input.options?.intervalSeconds ?? DEFAULT_SYNC_OPTIONS.intervalSeconds, pace),
  };
  // The courses with changes waiting first, so the office's changes meet them as conflicts.
  const refreshed = input.pushOnly
    ? 0
    : await refreshBeforePush({
        api: input.api,
        refresher: createRefresher({
          api: input.api,
          replica: input.replica,
          options: { ...input.options, profile: input.profile },
        }),
        sqlite: input.replica.sqlite,
        ...(input.signal ? { signal: input.signal } : {}),
      });
  const outbox = await pushOutbox({
    api: input.api,
    sqlite: input.replica.sqlite,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.pushMaxWaitMs === undefined ? {} : { maxWaitMs: input.pushMaxWaitMs }),
    // At a throttled service's pace a long queue takes minutes: shown like a collection.
    onProgress: (event) => input.onProgress?.({ collection: 'outbox', ...event }),
  });
  outbox.requests += refreshed; // the push's own: counted and budgeted with it
  const full = input.full ?? false;
  // This computer's clock less the service's, from the pull's answers (HTTP dates are whole seconds).
  let clockSkewSeconds: number | undefined;
  const stopObserving = input.api.observeRequests((event) => {
    if (!event.serverDate) return;
    const local = Date.now() - event.ms / 2;
    clockSkewSeconds = Math.round((local - event.serverDate.getTime()) / 1000);
  });
  let pull: SyncSummary;
  try {
    pull = input.pushOnly
      ? pushOnlySummary(input.profile, outbox, startedAt)
      : await runSync({
          api: input.api,
          replica: input.replica,
          options: { ...options, profile: input.profile, full },
          ...(full ? {} : { budget: pullBudget(options, outbox.requests) }),
          ...(pace === undefined ? {} : { paceRequestsPerMinute: pace }),
          ...(input.onProgress ? { onProgress: input.onProgress } : {}),
          ...(input.signal ? { signal: input.signal } : {}),
        });
  } finally {
    stopObserving();
  }
  return {
    ...pull,
    outbox,
    ok: pull.ok && outbox.parked === 0 && !outbox.pausedForLogin,
    ...(clockSkewSeconds !== undefined && Math.abs(clockSkewSeconds) > 2
      ? { clockSkewSeconds }
      : {}),
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
