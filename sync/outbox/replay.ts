// Replays the outbox against the service (DESIGN rules 3, 6, 7, 12): in order per record, unrelated
// records independent, an operation on a record created offline after its parent has its id.
// Each operation is marked in flight in the database before its request leaves; the answer and
// the state that follows are written in one transaction. The operations sent side by side share
// those transactions (a group commit): with four in flight, one commit marks the requests that
// leave together and one writes the answers that came in together. Retries wait in the database with their
// time, re-armed by the loop's own timer while it runs and by the next push otherwise.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sqlite } from '../db/sqlite';
import type { ApiClient } from '../api';
import { openCountsByState, recoverInFlight } from './operations';
import { nextDue, waitingCount } from './ready';
import { claimNext, replayClaimed, type Claim, type Outcome } from './replay-one';
import { groupCommit } from '../db/group-commit';
import { prepared } from '../db/statements';

export { inConflict, nextDue, waitingFor } from './ready';

export interface PushOptions {
  api: ApiClient;
  sqlite: Sqlite;
  signal?: AbortSignal;
  now?: () => Date;
  /** How long this push waits for retries that fall due (rule 12); later ones wait for the next push. Default 60 s. */
  maxWaitMs?: number;
  onProgress?: (event: { done: number; total: number }) => void;
  /** Operations of unrelated records sent side by side. Default 4 (the API client's default in flight). */
  concurrency?: number;
  random?: () => number;
}

export interface PushSummary {
  /** Requests sent for operations (lookups of unknown outcomes included). */
  requests: number;
  /** Operations the service accepted (or that needed no request) in this push. */
  done: number;
  parked: number;
  unknown: number;
  retrying: number;
  /** Operations still waiting for a record created offline. */
  waiting: number;
  /** The service refused the token even after a refresh: the queue waits for a login. */
  pausedForLogin: boolean;
  /**
   * The service could not be reached: the push stopped at once rather than wait for retries due
   * within it (the scheduler turns offline and tries again when the network is back).
   */
  unreachable: boolean;
}

export async function pushOutbox(options: PushOptions): Promise<PushSummary> {
  const { api, sqlite, signal } = options;
  const clock = () => options.now?.() ?? new Date();
  const iso = () => clock().toISOString();
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const deadline = clock().getTime() + maxWaitMs;
  const summary: PushSummary = {
    requests: 0,
    done: 0,
    parked: 0,
    unknown: 0,
    retrying: 0,
    waiting: 0,
    pausedForLogin: false,
    unreachable: false,
  };
  recoverInFlight(sqlite, iso());
  prepared(sqlite, "DELETE FROM replica_meta WHERE key = 'outbox_paused'").run();
  const total = () =>
    prepared(sqlite, "SELECT count(*) FROM outbox WHERE state <> 'done'").pluck().get() as number;
  const startTotal = total();
  const counted = api.observeRequests(() => {
    summary.requests += 1;
  });
  // Operations of unrelated records go side by side (rule 3), at most `concurrency` at a time;
  // the API client's own limits (in flight, rate) still hold for all of them together.
  const claimed = new Set<number>();
  const commit = groupCommit(sqlite);
  let paused = false;
  let unreachable = false;
  let broken = false;
  let wake = () => {};
  let progressed = new Promise<void>((resolve) => (wake = resolve));
  const announce = () => {
    const woken = wake;
    progressed = new Promise<void>((resolve) => (wake = resolve));
    woken();
  };
  /** Claims the next operation that may go (in a transaction of the group commit). */
  const take = () => {
    const next = claimNext(sqlite, iso(), claimed);
    if (next) claimed.add(next.op.id);
    return next;
  };
  const lane = async (): Promise<void> => {
    // The operation claimed in the transaction that wrote the last answer: marked in flight, so it
    // goes even when another lane has stopped the push meanwhile (as one in flight then would).
    let upcoming: Promise<Claim | null> | null = null;
    for (;;) {
      if (!upcoming && (signal?.aborted || paused || unreachable || broken)) return;
      let claim: Claim | null;
      try {
        claim = await (upcoming ?? commit(take));
      } catch (error) {
        // Not committed (the database refused the transaction): the push stops.
        broken = true;
        announce();
        throw error;
      }
      upcoming = null;
      if (!claim) {
        // What the others finish may free more (a parent's id, the next operation of a record).
        if (claimed.size > 0) {
          await progressed;
          continue;
        }
        const due = nextDue(sqlite);
        if (due === null) return;
        const waitMs = Math.max(0, Date.parse(due) - clock().getTime());
        if (clock().getTime() + waitMs > deadline) return;
        await sleep(Math.min(waitMs, 1000), undefined, signal ? { signal } : {}).catch(() => {});
        continue;
      }
      let outcome: Outcome;
      try {
        outcome = await replayClaimed(options, claim, commit, (written) => {
          // One commit writes this answer and marks the lane's next request, not one each.
          upcoming = commit(() =>
            written() && !(signal?.aborted || paused || unreachable || broken) ? take() : null,
          );
          // Awaited at the top of the loop; a failure before then is not an unhandled one.
          upcoming.catch(() => {});
        });
      } finally {
        claimed.delete(claim.op.id);
        announce();
      }
      if (outcome === 'unreachable') {
        unreachable = true;
        summary.unreachable = true;
        return;
      }
      if (outcome === 'paused') {
        paused = true;
        summary.pausedForLogin = true;
        return;
      }
      options.onProgress?.({ done: startTotal - total(), total: startTotal });
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, lane));
  } finally {
    counted();
  }
  const counts = openCountsByState(sqlite);
  summary.parked = counts.parked ?? 0;
  summary.unknown = counts.unknown ?? 0;
  summary.retrying = counts.retrying ?? 0;
  summary.waiting = waitingCount(sqlite);
  summary.done = Math.max(0, startTotal - total());
  return summary;
}
