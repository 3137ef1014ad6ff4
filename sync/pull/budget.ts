// The request budget of one sync (DESIGN rule 15): the outbox spends first, then the pull by
// priority. Work reserves its requests before it starts; what a piece of work sends beyond its
// reservation (a paged answer) is charged too. A sync also stops taking work when the client's
// pace would make it run past its slot (the time until the next scheduled sync).
import type { SyncOptions } from './options';

export interface BudgetReport {
  /** Requests the pull could spend; null without a budget (a full sync). */
  limit: number | null;
  /** Requests the pull sent. */
  spent: number;
  /** Why work was left for later syncs: the budget ran out, or the pace would have overrun the slot. */
  stoppedEarly: 'budget' | 'slot' | null;
  /** Items left for later syncs, per rotation (e.g. { course: 3 }). */
  deferred: Record<string, number>;
}

export interface RequestBudgetOptions {
  /** Requests the pull may send; null: no limit. */
  limit: number | null;
  /** The client's pace (requests a minute), when it has one. */
  paceRequestsPerMinute?: number;
  /** The sync's slot; no limit when absent. */
  slotMs?: number;
  /** Real time (the slot is wall-clock time, whatever clock the rotation uses). */
  clock?: () => number;
}

export class RequestBudget {
  private reserved = 0;
  private sent = 0;
  private stopped: BudgetReport['stoppedEarly'] = null;
  private readonly deferred = new Map<string, number>();
  private readonly started: number;
  private readonly clock: () => number;

  constructor(private readonly options: RequestBudgetOptions) {
    this.clock = options.clock ?? Date.now;
    this.started = this.clock();
  }

  /** Counts a request that was sent (the API client's observer). */
  observe(): void {
    this.sent += 1;
  }

  /** Requests still free: the limit less what was reserved or, where more, sent. */
  remaining(): number {
    if (this.options.limit === null) return Infinity;
    return Math.max(0, this.options.limit - Math.max(this.reserved, this.sent));
  }

  /**
   * Reserves `cost` requests for one piece of work. False when the budget cannot carry it or the
   * pace would run past the slot: the work is left for a later sync (counted under `what`).
   */
  take(cost: number, what: string): boolean {
    const refusal = this.refusal(cost);
    if (refusal) {
      this.stopped ??= refusal;
      this.defer(what);
      return false;
    }
    this.reserved = Math.max(this.reserved, this.sent) + cost;
    return true;
  }

  /** Work left for later without asking (counted in the report). */
  defer(what: string, items = 1): void {
    if (items > 0) this.deferred.set(what, (this.deferred.get(what) ?? 0) + items);
  }

  /**
   * Whether more was sent than the budget allows (retries, 429s and paged answers cost more than
   * was reserved): planned work that has not started yet then waits for the next sync.
   */
  overspent(): boolean {
    return this.options.limit !== null && this.sent >= this.options.limit;
  }

  report(): BudgetReport {
    return {
      limit: this.options.limit,
      spent: this.sent,
      stoppedEarly: this.stopped,
      deferred: Object.fromEntries(this.deferred),
    };
  }

  private refusal(cost: number): BudgetReport['stoppedEarly'] {
    if (cost > this.remaining()) return 'budget';
    const { slotMs, paceRequestsPerMinute } = this.options;
    if (slotMs === undefined) return null;
    const elapsed = this.clock() - this.started;
    // At the client's pace, the requests not yet sent take this long still.
    const unsent = Math.max(0, this.reserved - this.sent) + cost;
    const queued = paceRequestsPerMinute ? (unsent * 60_000) / paceRequestsPerMinute : 0;
    return elapsed + queued > slotMs ? 'slot' : null;
  }
}

/**
 * The budget of a sync every `intervalSeconds` at `pace` requests a minute (the real service's
 * 30 when the client keeps none): the default 150 is 30 a minute over 5 minutes.
 */
export function budgetFor(intervalSeconds: number, pace = DEFAULT_BUDGET_PACE): number {
  return Math.max(1, Math.round((pace * intervalSeconds) / 60));
}

/** The pace the default budget assumes: the real service's public clients keep to it. */
const DEFAULT_BUDGET_PACE = 30;

/** What the pull may spend after the push of the outbox (which always goes first and is never cut). */
export function pullBudget(
  options: Pick<SyncOptions, 'requestBudget'>,
  pushRequests: number,
): number {
  return Math.max(0, options.requestBudget - pushRequests);
}
