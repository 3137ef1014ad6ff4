// What the sync scheduler is given (see scheduler.ts): its clock and timers, the sync and probe it
// runs, and the delays between them.
import type { SchedulerState } from '../contract';
import type { SyncProgress } from '../pull/options';
import type { ReplicaCounts } from './counts';
import type { ScheduledSyncSummary } from './verdict';

export interface SchedulerTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: SchedulerTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A finished attempt: the summary, or what runOnce threw. */
export type SyncRunOutcome<S> = { summary: S } | { error: unknown };

export interface SyncSchedulerOptions<S extends ScheduledSyncSummary = ScheduledSyncSummary> {
  /**
   * One sync (push, then pull). Throws ApiError for network, time-out and login failures; stops
   * when `signal` fires (what it applied stays). `asked`: the user asked for it (sync now).
   */
  runOnce(
    signal: AbortSignal,
    onProgress: (event: SyncProgress) => void,
    asked: boolean,
  ): Promise<S>;
  /** A cheap reachability check (see probe.ts): the only thing tried while offline. */
  probe(signal: AbortSignal): Promise<boolean>;
  /** Outbox and conflict counts and the last successful sync, from the replica. */
  readCounts(): ReplicaCounts;
  /** Every change of the state (never the same state twice in a row). */
  onState?(state: SchedulerState): void;
  /** After every sync attempt, once its outcome is in the state (a CLI prints a line). */
  onRun?(outcome: SyncRunOutcome<S>, state: SchedulerState): void;
  timers?: SchedulerTimers;
  /** Between scheduled syncs. Default 5 min. */
  intervalMs?: number;
  /** A sync this long after the last of a burst of local writes. Default 3 s. */
  writeDebounceMs?: number;
  /** ... but no later than this after the first write of the burst. Default 30 s. */
  writeMaxDelayMs?: number;
  /** A sync this soon after the network came back. Default 2 s. */
  onlineDelayMs?: number;
  /** Offline: the first probe after this, each next one after twice as long (with jitter), at most probeMaxMs. */
  probeStartMs?: number;
  probeMaxMs?: number;
  /** A clock further off the service's than this (seconds) is the problem 'clock'. Default 300. */
  clockSkewLimitSeconds?: number;
  /**
   * Online, idle and visible (see visibilityChanged): a probe this long after the last answer, so a
   * service gone is said within seconds and not only at the next sync. Undefined: no such probes.
   */
  heartbeatMs?: number;
  /** For the jitter; default Math.random. */
  random?: () => number;
}
