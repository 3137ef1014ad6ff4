// The background sync scheduler of the core (plain Node; the desktop host and browser mode start it
// and feed it OS events): when to sync, never two at once, and its state in words for a sync
// indicator (DESIGN rule 12). Everything it depends on is injected, so tests run it on a simulated clock.
import type { SchedulerProblem, SchedulerState } from '../contract';
import type { ReplicaCounts } from './counts';
import { judgeError, judgeSummary, OFFLINE, type ScheduledSyncSummary } from './verdict';

export {
  REAL_TIMERS,
  type SchedulerTimers,
  type SyncRunOutcome,
  type SyncSchedulerOptions,
} from './options';
import {
  REAL_TIMERS,
  type SchedulerTimers,
  type SyncRunOutcome,
  type SyncSchedulerOptions,
} from './options';

type Follow = 'any' | 'forced' | null;

export class SyncScheduler<S extends ScheduledSyncSummary = ScheduledSyncSummary> {
  private readonly timers: SchedulerTimers;
  private readonly intervalMs: number;
  private readonly writeDebounceMs: number;
  private readonly writeMaxDelayMs: number;
  private readonly onlineDelayMs: number;
  private readonly probeStartMs: number;
  private readonly probeMaxMs: number;
  private readonly random: () => number;

  private phase: SchedulerState['phase'] = 'idle';
  private progress: SchedulerState['progress'] = null;
  private problem: SchedulerProblem | null = null;
  private counts: ReplicaCounts = {
    pending: 0,
    parked: 0,
    conflicts: 0,
    lastSuccessfulSyncAt: null,
  };
  /** The last sync this scheduler saw succeed (the replica's record may lag or be absent). */
  private lastSuccess: string | null = null;
  private lastEmitted = '';

  private started = false;
  private stopped = false;
  /** The OS said the network is gone (before start, or while a sync ran). */
  private knownOffline = false;
  /** The one timer for the next sync or probe. */
  private timer: { handle: unknown; kind: 'sync' | 'probe'; at: number } | null = null;
  /** The debounced sync after local writes; `first` is the burst's first write. */
  private debounce: { handle: unknown; at: number; first: number } | null = null;
  private running: Promise<void> | null = null;
  private probing: { promise: Promise<void>; since: number } | null = null;
  /** Aborts the running sync or probe. */
  private controller: AbortController | null = null;
  /** Triggers during a sync: one more sync afterwards; 'forced' ones (sync now, a new login) even after a refusal. */
  private followUp: Follow = null;
  /** The user asked for a sync that has not started yet (sync now). */
  private asked = false;
  /** The nominal delay of the next probe (doubles per probe while offline). */
  private probeDelayMs: number;
  /** A window shows the app: the heartbeat probes run (see SyncSchedulerOptions.heartbeatMs). */
  private visible = false;
  /** The next heartbeat probe, or the one running (its controller). */
  private beat: { handle: unknown } | { controller: AbortController } | null = null;

  constructor(private readonly options: SyncSchedulerOptions<S>) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.intervalMs = options.intervalMs ?? 5 * 60_000;
    this.writeDebounceMs = options.writeDebounceMs ?? 3_000;
    this.writeMaxDelayMs = options.writeMaxDelayMs ?? 30_000;
    this.onlineDelayMs = options.onlineDelayMs ?? 2_000;
    this.probeStartMs = options.probeStartMs ?? 5_000;
    this.probeMaxMs = options.probeMaxMs ?? 5 * 60_000;
    this.random = options.random ?? Math.random;
    this.probeDelayMs = this.probeStartMs;
  }

  /** The current state (what the last `onState` said, or will say). */
  get state(): SchedulerState {
    const planned = [this.timer?.at, this.debounce?.at, this.probing?.since].filter(
      (at): at is number => at !== undefined,
    );
    return {
      phase: this.phase,
      progress: this.progress,
      problem: this.problem,
      lastSuccessfulSyncAt: latest(this.counts.lastSuccessfulSyncAt, this.lastSuccess),
      nextAttemptAt:
        this.phase === 'syncing' || planned.length === 0
          ? null
          : new Date(Math.min(...planned)).toISOString(),
      pending: this.counts.pending,
      parked: this.counts.parked,
      conflicts: this.counts.conflicts,
    };
  }

  /** A sync at once (the caller shows the local data first), then one every interval. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.refreshCounts();
    if (this.knownOffline) this.goOffline(OFFLINE);
    else this.syncAtOnce('any');
  }

  /**
   * Whether a window shows the app. While one does, and the service answered last time, a probe
   * every heartbeatMs (never while a sync or another probe runs): a service gone is offline
   * within seconds. Hidden, only the syncs and the offline probes find out.
   */
  visibilityChanged(visible: boolean): void {
    this.visible = visible;
    if (visible) this.armHeartbeat();
    else this.stopHeartbeat();
  }

  /** A local write was committed: a sync once the writes pause for writeDebounceMs. */
  localWrite(): void {
    if (!this.active()) return;
    this.refreshCounts();
    if (this.phase === 'login-needed') return this.emit();
    if (this.phase === 'offline') {
      // Rule 12: a new write re-arms the retries; a probe soon, the backoff from its start.
      if (!this.probing && !this.running && this.later(this.writeDebounceMs)) {
        this.probeDelayMs = this.probeStartMs;
        this.schedule('probe', this.writeDebounceMs);
      }
      return this.emit();
    }
    const now = this.timers.now();
    const first = this.debounce?.first ?? now;
    if (this.debounce) this.timers.clearTimeout(this.debounce.handle);
    const delay = Math.max(0, Math.min(this.writeDebounceMs, first + this.writeMaxDelayMs - now));
    this.debounce = {
      first,
      at: now + delay,
      handle: this.timers.setTimeout(() => {
        this.debounce = null;
        if (this.phase === 'offline' || this.phase === 'login-needed') return this.emit();
        this.syncAtOnce('any');
      }, delay),
    };
    this.emit();
  }

  /** The OS reports the network: back (a sync soon) or gone (offline, only probes). */
  networkChanged(online: boolean): void {
    const wasOffline = this.knownOffline;
    this.knownOffline = !online;
    if (!this.active()) return;
    if (!online) {
      if (this.phase === 'login-needed') return;
      // A request in flight over a vanished network would hang until its time-out.
      if (this.running) this.controller?.abort();
      else if (this.phase !== 'offline') this.goOffline(OFFLINE);
      return;
    }
    if (this.phase === 'login-needed' || this.running) return;
    // Only a way back from offline is news: a repeated "online" costs no sync.
    if (this.phase !== 'offline' && !wasOffline) return;
    if (this.later(this.onlineDelayMs)) this.schedule('sync', this.onlineDelayMs);
  }

  /** The user asked for a sync: at once (offline: a probe at once, and the sync if it answers). */
  syncNow(): void {
    if (!this.active()) return;
    this.asked = true;
    if (this.phase === 'offline' && !this.running) return this.probeAtOnce();
    this.syncAtOnce('forced');
  }

  /** A new login: leave login-needed and sync. */
  loginChanged(): void {
    if (!this.active()) return;
    if (this.phase === 'login-needed') {
      this.phase = 'idle';
      this.problem = null;
    }
    if (this.phase === 'offline' && !this.running) return this.probeAtOnce();
    this.syncAtOnce('forced');
  }

  /** Resolves when no sync or probe is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running || this.probing) await (this.running ?? this.probing?.promise);
  }

  /** Clears the timers, aborts a running sync (what it applied stays) and resolves once it has returned. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopHeartbeat();
    this.clearTimer();
    this.clearDebounce();
    this.controller?.abort();
    await this.idle();
  }

  private active(): boolean {
    return this.started && !this.stopped;
  }

  /** Whether nothing is planned within `ms` from now. */
  private later(ms: number): boolean {
    return !this.timer || this.timer.at > this.timers.now() + ms;
  }

  private syncAtOnce(follow: Exclude<Follow, null>): void {
    if (this.running) {
      if (this.followUp !== 'forced') this.followUp = follow;
      return;
    }
    // Offline and probing: the probe's answer decides (a reachable service is synced at once).
    if (this.probing) return;
    this.launch();
  }

  private launch(): void {
    // Writes committed before this sync starts are pushed by it; a heartbeat's answer is moot.
    this.stopHeartbeat();
    this.clearTimer();
    this.clearDebounce();
    this.running = (async () => {
      const next = await this.run();
      this.running = null;
      next();
      // The service answered and nothing follows at once: the heartbeat (when visible) resumes.
      this.armHeartbeat();
    })();
  }

  /** One attempt; answers what to do next (a follow-up sync, or nothing: the timers are set). */
  private async run(): Promise<() => void> {
    const controller = new AbortController();
    this.controller = controller;
    this.phase = 'syncing';
    this.progress = null;
    this.emit();
    let outcome: SyncRunOutcome<S>;
    const asked = this.asked;
    this.asked = false;
    try {
      const summary = await this.options.runOnce(
        controller.signal,
        (event) => {
          if (this.stopped || this.controller !== controller) return;
          this.progress = {
            collection: event.collection,
            done: event.done,
            ...(event.total === undefined ? {} : { total: event.total }),
          };
          this.emit();
        },
        asked,
      );
      outcome = { summary };
    } catch (error) {
      outcome = { error };
    }
    this.controller = null;
    this.progress = null;
    if (this.stopped) return noop;
    this.refreshCounts();
    const verdict =
      'summary' in outcome
        ? judgeSummary(outcome.summary, this.options.clockSkewLimitSeconds ?? 300)
        : judgeError(outcome.error);
    const follow = this.followUp;
    this.followUp = null;
    let next = noop;
    switch (verdict.phase) {
      case 'idle':
        if ('summary' in outcome && outcome.summary.ok)
          this.lastSuccess =
            outcome.summary.finishedAt ?? new Date(this.timers.now()).toISOString();
        this.settle('idle', verdict.problem);
        if (follow) next = () => this.launch();
        else this.schedule('sync', this.intervalMs);
        break;
      case 'error':
        this.settle('error', verdict.problem);
        if (follow === 'forced') next = () => this.launch();
        else this.schedule('sync', Math.max(this.intervalMs, verdict.retryAfterMs ?? 0));
        break;
      case 'login-needed':
        // No periodic syncs until a new login (or the user's "sync now").
        this.settle('login-needed', verdict.problem);
        if (follow === 'forced') next = () => this.launch();
        break;
      case 'offline':
        this.goOffline(verdict.problem);
        break;
      case 'cancelled':
        // Only networkChanged(false) aborts a sync of a scheduler that is not stopped.
        if (this.knownOffline) this.goOffline(OFFLINE);
        else {
          this.phase = 'idle';
          if (follow) next = () => this.launch();
          else this.schedule('sync', this.intervalMs);
        }
        break;
    }
    this.emit();
    this.options.onRun?.(outcome, this.state);
    return next;
  }

  /** The service answered (even if with an error): the backoff of the probes starts over. */
  private settle(phase: SchedulerState['phase'], problem: SchedulerProblem | null): void {
    this.phase = phase;
    this.problem = problem;
    this.knownOffline = false;
    this.probeDelayMs = this.probeStartMs;
  }

  /** Offline: no syncs, a probe after the current backoff (which then doubles). */
  private goOffline(problem: SchedulerProblem): void {
    this.stopHeartbeat();
    this.phase = 'offline';
    this.problem = problem;
    this.clearDebounce();
    const jittered = this.probeDelayMs * (0.75 + 0.5 * this.random());
    this.schedule('probe', Math.min(this.probeMaxMs, Math.round(jittered)));
    this.probeDelayMs = Math.min(this.probeMaxMs, this.probeDelayMs * 2);
  }

  private probeAtOnce(): void {
    if (this.probing) return;
    this.clearTimer();
    this.probeDelayMs = this.probeStartMs;
    this.runProbe();
  }

  private runProbe(): void {
    this.timer = null;
    if (this.probing || this.running || this.stopped) return;
    const controller = new AbortController();
    this.controller = controller;
    const since = this.timers.now();
    const promise = (async () => {
      let ok = false;
      try {
        ok = await this.options.probe(controller.signal);
      } catch {
        ok = false;
      }
      this.controller = null;
      this.probing = null;
      if (this.stopped || this.phase !== 'offline') return;
      // Reachable again: a sync at once, no one needs to ask.
      if (ok) this.launch();
      else {
        this.goOffline(this.problem ?? OFFLINE);
        this.emit();
      }
    })();
    this.probing = { promise, since };
    this.emit();
  }

  /** Phases in which the service answered last: a heartbeat may find it gone. */
  private heartbeatDue(): boolean {
    return (
      this.active() &&
      this.visible &&
      this.options.heartbeatMs !== undefined &&
      !this.running &&
      !this.probing &&
      (this.phase === 'idle' || (this.phase === 'error' && this.problem?.kind === 'network'))
    );
  }

  private armHeartbeat(): void {
    if (this.beat || !this.heartbeatDue()) return;
    const handle = this.timers.setTimeout(() => {
      if (this.beat && 'handle' in this.beat && this.beat.handle === handle) {
        this.beat = null;
        this.runHeartbeat();
      }
    }, this.options.heartbeatMs ?? 0);
    this.beat = { handle };
  }

  private runHeartbeat(): void {
    if (!this.heartbeatDue()) return;
    const controller = new AbortController();
    const beat = { controller };
    this.beat = beat;
    void (async () => {
      let ok = false;
      try {
        ok = await this.options.probe(controller.signal);
      } catch {
        ok = false;
      }
      // A sync began meanwhile, the window was hidden, or the scheduler stopped: the answer is moot.
      if (this.beat !== beat) return;
      this.beat = null;
      if (controller.signal.aborted || !this.heartbeatDue()) return;
      if (ok) return this.armHeartbeat();
      this.goOffline(OFFLINE);
      this.emit();
    })();
  }

  private stopHeartbeat(): void {
    const beat = this.beat;
    this.beat = null;
    if (!beat) return;
    if ('handle' in beat) this.timers.clearTimeout(beat.handle);
    else beat.controller.abort();
  }

  private schedule(kind: 'sync' | 'probe', delayMs: number): void {
    this.clearTimer();
    const handle = this.timers.setTimeout(() => {
      if (this.timer?.handle !== handle) return;
      this.timer = null;
      if (kind === 'probe') this.runProbe();
      else this.syncAtOnce('any');
    }, delayMs);
    this.timer = { handle, kind, at: this.timers.now() + delayMs };
    this.emit();
  }

  private clearTimer(): void {
    if (this.timer) this.timers.clearTimeout(this.timer.handle);
    this.timer = null;
  }

  private clearDebounce(): void {
    if (this.debounce) this.timers.clearTimeout(this.debounce.handle);
    this.debounce = null;
  }

  private refreshCounts(): void {
    try {
      this.counts = this.options.readCounts();
    } catch {
      // The replica is busy or closing: the last counts stand until the next read.
    }
  }

  private emit(): void {
    if (this.stopped) return;
    const state = this.state;
    const key = JSON.stringify(state);
    if (key === this.lastEmitted) return;
    this.lastEmitted = key;
    try {
      this.options.onState?.(state);
    } catch {
      // A listener's failure is its own; the scheduler goes on.
    }
  }
}

const noop = () => {};

function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}
