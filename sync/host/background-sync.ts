// The app session's sync wiring: the background scheduler (DESIGN rule 12) fed what the OS and the
// windows say (network, sleep, a window showing the app), each of its syncs one syncOnce with the
// pull in a worker thread (so this event loop stays free), and after a sync the events every
// window hears: the data changed, the sync finished, notifications not seen before.
import type { ApiClient } from '../api';
import type { AccountInfo, SchedulerState } from '../contract';
import { CoreFailure } from '../core-error';
import type { SyncProgress } from '../pull/options';
import type { Refresher } from '../pull/refresh';
import { pullInWorker } from '../pull/worker';
import {
  reachable,
  replicaCounts,
  syncOnce,
  SyncScheduler,
  type SyncOnceSummary,
} from '../scheduler';
import { oauthBaseOf } from './login';
import type { SessionContext } from './session-context';
import type { HostTokens } from './tokens';

/** A window's "visible" (app.visible) holds this long unless renewed (a closed tab says nothing). */
export const VISIBLE_LEASE_MS = 60_000;

/**
 * The heartbeat's interval: every 5 s at most, and at a pace (requests a minute) no more than a
 * quarter of it, so the syncs keep three quarters (each probe since the last sync also comes off
 * the next sync's budget: see syncInBackground).
 */
export function heartbeatFor(pace: number | undefined): number {
  return pace === undefined ? 5_000 : Math.max(5_000, Math.ceil((4 * 60_000) / pace));
}

/** What a sync needs of the signed-in account (read at each sync: a new login replaces it). */
export interface SignedInClient {
  account: AccountInfo;
  api: ApiClient;
  tokens: HostTokens;
  refresher: Refresher;
}

export type BackgroundSync = ReturnType<typeof createBackgroundSync>;

export function createBackgroundSync(
  ctx: SessionContext,
  deps: {
    client(): SignedInClient | null;
    /** The unread notifications in the replica (the data query's answer). */
    unreadNotifications(): Promise<{ id: string; titel: string }[]>;
    /** After each sync (the profile may be chosen anew from what it met). */
    afterSync(summary: SyncOnceSummary): void;
  },
) {
  let scheduler: SyncScheduler<SyncOnceSummary> | null = null;
  /** What the OS said last: the network is there, the computer is awake. */
  let osOnline = true;
  let asleep = false;
  /** The scheduler hears "offline" while either says no (a sleeping computer has no network). */
  const reachableNow = () => osOnline && !asleep;
  const feedNetwork = (before: boolean) => {
    const now = reachableNow();
    if (now !== before) scheduler?.networkChanged(now);
  };
  /** A window shows the app (app.visible, renewed within VISIBLE_LEASE_MS). */
  let visible = false;
  let visibleLease: NodeJS.Timeout | null = null;
  /** Reachability probes since the last sync began: they come off its budget. */
  let probesSinceSync = 0;
  let seenNotifications = new Set<string>();

  function start(account: AccountInfo): void {
    const intervalMs = ctx.options.syncIntervalMs ?? 5 * 60_000;
    const started = new SyncScheduler<SyncOnceSummary>({
      intervalMs,
      heartbeatMs: ctx.options.heartbeatMs ?? heartbeatFor(deps.client()?.api.pace),
      runOnce: (signal, progress, asked) => syncInBackground(intervalMs, signal, progress, asked),
      // A token-less HEAD of the base URL, counted for the next sync's budget.
      probe: (signal) => {
        probesSinceSync += 1;
        return reachable(account.baseUrl, { signal, timeoutMs: 5_000 });
      },
      readCounts: () => replicaCounts(ctx.replica().sqlite),
      onState: (state) => {
        ctx.emit({ type: 'sync.state', state });
        // The push writes in this thread: the queue's screens follow it as it goes.
        ctx.tellChanges();
      },
      onRun: (outcome) => {
        // A sync that failed midway may have applied some of its answers: everything again.
        if (!('summary' in outcome)) return ctx.tellAllChanged();
        const summary = outcome.summary;
        ctx.tellChanges(summary.tables);
        ctx.emit({
          type: 'sync.finished',
          ok: summary.ok,
          records: summary.records,
          requests: summary.requests + summary.outbox.requests,
          seconds: summary.seconds,
        });
        void announceNotifications();
      },
    });
    scheduler = started;
    if (!reachableNow()) started.networkChanged(false);
    if (visible) started.visibilityChanged(true);
    started.start();
  }

  /**
   * One sync (sync/scheduler's syncOnce): the push in this thread, the pull in a worker. When the
   * profile is another now (chosen from what the sync met, or by the person meanwhile), at once
   * another with it: what the first one met is moot.
   */
  async function syncInBackground(
    intervalMs: number,
    signal: AbortSignal,
    progress: (event: SyncProgress) => void,
    asked: boolean,
  ): Promise<SyncOnceSummary> {
    // The probes since the last sync were requests of this client too: they come off this budget.
    const probes = probesSinceSync;
    probesSinceSync = 0;
    const first = await syncWithSettings(intervalMs, signal, progress, probes, asked);
    deps.afterSync(first);
    if (first.profile === ctx.syncSettings().profile) return first;
    ctx.tellChanges(first.tables);
    return syncWithSettings(intervalMs, signal, progress, 0, asked);
  }

  async function syncWithSettings(
    intervalMs: number,
    signal: AbortSignal,
    progress: (event: SyncProgress) => void,
    probes: number,
    asked: boolean,
  ): Promise<SyncOnceSummary> {
    const client = deps.client();
    if (!client) throw new Error('not signed in');
    const { profile, ...window } = ctx.syncSettings();
    return syncOnce({
      api: client.api,
      replica: ctx.replica(),
      profile,
      options: { ...window, intervalSeconds: intervalMs / 1000, asked },
      signal,
      pushMaxWaitMs: 10_000,
      requestsSinceLastSync: probes,
      refresher: client.refresher,
      // The pull runs in a worker thread: parsing a large answer never blocks this event loop.
      pull: pullInWorker({
        replicaFile: ctx.files.replica,
        tokens: client.tokens,
        client: {
          baseUrl: client.account.baseUrl,
          oauthUrl: oauthBaseOf(client.account.authUrl),
        },
        ...(ctx.options.workerUrl ? { workerUrl: ctx.options.workerUrl } : {}),
      }),
      onProgress: (event) => {
        progress(event);
        // The pull's progress is an event of its own as well (the push's shows in the state).
        if (event.collection !== 'outbox') ctx.emit({ type: 'sync.progress', ...event });
      },
    });
  }

  function allNotificationIds(): string[] {
    return ctx
      .replica()
      .sqlite.prepare('SELECT id FROM benachrichtigungen')
      .pluck()
      .all() as string[];
  }

  /** Unread notifications not seen before, after each sync. */
  async function announceNotifications(): Promise<void> {
    const fresh = (await deps.unreadNotifications().catch(() => [])).filter(
      (item) => !seenNotifications.has(item.id),
    );
    // The first sync of a replica brings the whole inbox: that is no news.
    const firstFill = seenNotifications.size === 0;
    for (const id of safely(() => allNotificationIds(), [])) seenNotifications.add(id);
    if (fresh.length > 0 && !firstFill) ctx.emit({ type: 'notifications.new', items: fresh });
  }

  function setVisible(next: boolean): void {
    if (visibleLease) clearTimeout(visibleLease);
    visibleLease = null;
    if (next) {
      visibleLease = setTimeout(() => setVisible(false), VISIBLE_LEASE_MS);
      visibleLease.unref();
    }
    if (next === visible) return;
    visible = next;
    scheduler?.visibilityChanged(next);
  }

  return {
    /** The scheduler's state; null while signed out. */
    state: (): SchedulerState | null => scheduler?.state ?? null,
    /** A login: the scheduler starts, or (already running) leaves login-needed and syncs. */
    signedIn(account: AccountInfo): void {
      if (scheduler) scheduler.loginChanged();
      else start(account);
    },
    async stop(): Promise<void> {
      const running = scheduler;
      scheduler = null;
      if (running) await running.stop();
    },
    localWrite: () => scheduler?.localWrite(),
    syncNow(): SchedulerState {
      if (!scheduler)
        throw new CoreFailure('not_signed_in', {
          de: 'Nicht angemeldet: zum Synchronisieren bitte anmelden.',
          en: 'Not signed in: please sign in to sync.',
        });
      scheduler.syncNow();
      return scheduler.state;
    },
    /** The OS and the last sync say the service can be reached. */
    online: () => reachableNow() && scheduler?.state.phase !== 'offline',
    visible: () => visible,
    setVisible,
    networkChanged(online: boolean): void {
      const before = reachableNow();
      osOnline = online;
      feedNetwork(before);
    },
    suspended(): void {
      const before = reachableNow();
      asleep = true;
      feedNetwork(before);
    },
    /** The service (the demo's, taken offline) answers or not, whatever the OS says of the network. */
    serviceReachable(online: boolean): void {
      scheduler?.networkChanged(online && reachableNow());
    },
    resumed(): void {
      const before = reachableNow();
      asleep = false;
      feedNetwork(before);
    },
    /** The replica's notifications are no news (at start); a new replica's first sync neither. */
    rememberNotifications(): void {
      seenNotifications = new Set(safely(() => allNotificationIds(), []));
    },
  };
}

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
