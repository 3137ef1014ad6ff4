// What every pull strategy works with, and the two mechanisms they share: applying rows in
// bounded chunks (yielding between transactions) and the per-collection run with its bookkeeping.
import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import type { ApiClient } from '../api';
import { ApiError } from '../api';
import type { Replica } from '../db/open';
import type { TableName } from '../db/schema';
import { ReplicaWriter, type RowValues } from '../db/writer';
import { localRecordHooks } from '../outbox/conflicts';
import type { RequestBudget } from './budget';
import type { SyncOptions, SyncProgress } from './options';
import { clearItemFailure, recordItemFailure, tallyOf, type ReadTally } from './quarantine';
import { readState, writeState, type CollectionState } from './state';

export interface CollectionResult {
  records: number;
  deleted: number;
  requests: number;
  seconds: number;
  /** Why nothing was synced: 'unlicensed' (423), 'forbidden' (403). */
  skipped?: 'unlicensed' | 'forbidden';
  /** The service's words for a skipped collection. */
  skippedBecause?: string;
  error?: string;
  /** Records the service sent that could not be read: skipped, kept in quarantine, tried again next sync. */
  quarantined?: number;
  /** Items (a person, a course) whose request failed for good in this sync; tried again next sync. */
  failedItems?: number;
  /** Attribute values the tolerant reader converted from another JSON type or dropped. */
  conversions?: number;
  /** Work that spans several syncs and is not finished yet, e.g. checks of 500 of 1,000 people. */
  remaining?: { done: number; total: number; what: string };
}

export interface PullContext {
  api: ApiClient;
  replica: Replica;
  writer: ReplicaWriter;
  options: SyncOptions;
  signal?: AbortSignal;
  /** Local time of this sync, stored per row as synced_at (never used as a watermark). */
  syncedAt: string;
  /** The start of this sync on options.now's clock (confirmations and rotations use that clock). */
  startedAt: Date;
  /** The signed-in user's id, known after the own record is pulled. */
  selfId: string | null;
  progress(event: SyncProgress): void;
  results: Map<string, CollectionResult>;
  /** "table:id" → base of related records already written in this sync (companies and UVTs recur per course). */
  writtenRelated: Map<string, string>;
  /** Per collection: parent id → digest of the answer applied last (see appliedDigests). */
  appliedDigests: Map<string, ReadonlyMap<string, string>>;
  /** Per collection: what the reader set aside or converted, and items that failed (sync/pull/quarantine). */
  tallies: Map<string, ReadTally>;
  /** Collections that may have entries in the quarantine table: the others skip its bookkeeping. */
  quarantineHolders: Set<string>;
  /** What this sync may still send (DESIGN rule 15). */
  budget: RequestBudget;
}

/** A context for one sync (or one on-demand refresh). */
export function createPullContext(input: {
  api: ApiClient;
  replica: Replica;
  options: SyncOptions;
  signal?: AbortSignal;
  syncedAt: string;
  progress?: (event: SyncProgress) => void;
  budget: RequestBudget;
}): PullContext {
  const { sqlite } = input.replica;
  return {
    api: input.api,
    replica: input.replica,
    writer: new ReplicaWriter(
      sqlite,
      localRecordHooks(sqlite, () => new Date().toISOString()),
    ),
    options: input.options,
    ...(input.signal ? { signal: input.signal } : {}),
    syncedAt: input.syncedAt,
    startedAt: input.options.now(),
    selfId: null,
    progress: input.progress ?? (() => {}),
    results: new Map(),
    writtenRelated: new Map(),
    appliedDigests: new Map(),
    tallies: new Map(),
    quarantineHolders: new Set(
      sqlite.prepare('SELECT DISTINCT collection FROM quarantine').pluck().all() as string[],
    ),
    budget: input.budget,
  };
}

/** What a strategy reports; `watermark` undefined leaves it unchanged, null clears it. */
export interface StrategyOutcome {
  records: number;
  deleted: number;
  watermark?: string | null;
  fullScan: boolean;
  /** See CollectionResult.remaining. */
  remaining?: CollectionResult['remaining'];
}

/**
 * Applies rows in chunks of options.chunkSize, one short transaction each, yielding in between.
 * `collection` null: rows that come along with others (an answer's included records) report no progress.
 */
export async function applyInChunks<T>(
  ctx: PullContext,
  collection: string | null,
  items: readonly T[],
  write: (chunk: readonly T[]) => void,
  progressBase = 0,
  total?: number,
): Promise<void> {
  const size = Math.max(1, ctx.options.chunkSize);
  for (let start = 0; start < items.length; start += size) {
    const chunk = items.slice(start, start + size);
    ctx.writer.transaction(() => write(chunk));
    if (collection) {
      ctx.progress({
        collection,
        done: progressBase + start + chunk.length,
        ...(total === undefined ? {} : { total }),
      });
    }
    await yieldToEventLoop();
  }
}

/**
 * Items worked on at once in per-parent collections (one or two requests each). Twice the client's
 * requests in flight, so that while one answer is applied the next requests already wait for a
 * free slot: the client, not this loop, bounds what reaches the service.
 */
export const PER_ITEM_CONCURRENCY = 8;

/**
 * Runs `work` for every item, at most `concurrency` at a time. After a failure no further item
 * starts; those under way are waited for (no request of this collection may still be running when
 * the next one starts), then the first failure is thrown.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const limit = pLimit(concurrency);
  // After a failure no further item starts: the collection fails anyway, and after an auth or
  // network failure every further request would only fail (and be retried) the same way.
  let failed = false;
  const outcomes = await Promise.allSettled(
    items.map((item) =>
      limit(async () => {
        if (failed) return;
        try {
          await work(item);
        } catch (error) {
          failed = true;
          throw error;
        }
      }),
    ),
  );
  const failure = outcomes.find(
    (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
  );
  if (failure) throw failure.reason;
}

/**
 * Runs `work` for every item of a per-item collection (a person's checks, a course's participants),
 * at most PER_ITEM_CONCURRENCY at a time. One item's failure costs only that item: it is recorded
 * in the quarantine (and tried again next sync) and the loop goes on. What would fail every item
 * the same way stops the loop: no login, no network, cancellation, a missing right or licence.
 */
export function forEachItem<T>(
  ctx: PullContext,
  collection: string,
  items: readonly T[],
  identify: (item: T) => { type: string; id: string; parent?: string },
  work: (item: T) => Promise<void>,
): Promise<void> {
  return forEachLimited(items, PER_ITEM_CONCURRENCY, async (item) => {
    const { id } = identify(item);
    try {
      await work(item);
    } catch (error) {
      if (endsTheItemLoop(ctx, error)) throw error;
      recordItemFailure(ctx, collection, identify(item), error);
      return;
    }
    clearItemFailure(ctx, collection, id);
  });
}

/**
 * Whether a failure of one item's request stops the loop over items: what would fail every item
 * the same way (no login, no network, cancellation, a missing right or licence). Anything else
 * costs only that item.
 */
export function endsTheItemLoop(ctx: PullContext, error: unknown): boolean {
  return stopsTheSync(error) || isSkip(error) || ctx.signal?.aborted === true;
}

/**
 * Yields `fetch(item, signal)` for every item in order, with up to `ahead` fetches running in
 * advance, so the network works on the next answers while this one is applied. Memory stays
 * bounded by `ahead`. When the consumer stops early (an error, a break), the fetches ahead are
 * aborted through `signal` and awaited: none of them goes on after the collection has ended.
 */
export async function* prefetched<T, R>(
  items: readonly T[],
  ahead: number,
  signal: AbortSignal | undefined,
  fetch: (item: T, signal: AbortSignal) => Promise<R>,
): AsyncGenerator<R> {
  const stop = new AbortController();
  const fetchSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const pending: Promise<R>[] = [];
  let next = 0;
  const refill = () => {
    while (pending.length < ahead && next < items.length) {
      const promise = fetch(items[next++] as T, fetchSignal);
      promise.catch(() => {}); // observed when its turn comes; not an unhandled rejection meanwhile
      pending.push(promise);
    }
  };
  try {
    refill();
    while (pending.length) {
      const result = await (pending.shift() as Promise<R>);
      refill();
      yield result;
    }
  } finally {
    if (pending.length) {
      stop.abort();
      await Promise.allSettled(pending);
    }
  }
}

/** True for the service's 404: the record is gone (DESIGN rule 9: a 404 on one record removes it). */
export function isGone(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'not_found';
}

/** Upserts rows to a table in chunks. */
export function upsertChunked(
  ctx: PullContext,
  collection: string,
  table: TableName,
  rows: readonly RowValues[],
  total?: number,
) {
  return applyInChunks(
    ctx,
    collection,
    rows,
    (chunk) => ctx.writer.upsert(table, chunk),
    0,
    total ?? rows.length,
  );
}

/** Ids in `table` (optionally within a scope) that the service no longer lists. */
export function missingIds(
  ctx: PullContext,
  table: TableName,
  seen: ReadonlySet<string>,
  scope?: { where: string; params: unknown[] },
): string[] {
  const sql = `SELECT id FROM ${table}${scope ? ` WHERE ${scope.where}` : ''}`;
  const rows = ctx.writer
    .statement(sql)
    .pluck()
    .all(...(scope?.params ?? [])) as string[];
  return rows.filter((id) => !seen.has(id));
}

/**
 * A scan that would delete almost everything is far more likely a broken answer than a real
 * mass deletion: refuse it (DESIGN rule 9) rather than wipe the replica.
 */
export function guardMassDeletion(collection: string, existing: number, gone: number): void {
  if (existing >= 20 && gone >= existing * 0.9) {
    throw new Error(
      `The service listed only ${existing - gone} of ${existing} records of ${collection}; refusing to delete ${gone} from the replica. ` +
        'If this is right, sync again with --full after checking the service.',
    );
  }
}

/** The watermark for data read at the service's time `serverDate`: that time minus the overlap. */
export function watermarkAt(ctx: PullContext, serverDate: Date | null): string | undefined {
  if (!serverDate) return undefined; // never from the local clock: keep the old one, the next sync repeats
  return new Date(serverDate.getTime() - ctx.options.overlapSeconds * 1000).toISOString();
}

/** Who sent a request: a sync or a refresh (they may share one client). */
const requestOwner = new AsyncLocalStorage<object>();

/** Runs `work`, calling `onRequest` for the requests sent inside it only. */
export async function countingOwnRequests<T>(
  api: ApiClient,
  onRequest: () => void,
  work: () => Promise<T>,
): Promise<T> {
  const owner = {};
  const stop = api.observeRequests(() => {
    if (requestOwner.getStore() === owner) onRequest();
  });
  try {
    return await requestOwner.run(owner, work);
  } finally {
    stop();
  }
}

/** The requests of the collection whose strategy is running (collections run side by side). */
const collectionRequests = new AsyncLocalStorage<{ count: number }>();

/** Counts a request to the collection in whose async context it was sent. */
export function countCollectionRequest(): void {
  const counter = collectionRequests.getStore();
  if (counter) counter.count += 1;
}

/**
 * Runs one collection's strategy with its bookkeeping: request counting, watermark and full-scan
 * rhythm written only on success, 423/403 recorded as "skipped", any other failure recorded as
 * the collection's last error (auth and network failures abort the whole sync).
 */
export async function runCollection(
  ctx: PullContext,
  collection: string,
  strategy: (state: CollectionState) => Promise<StrategyOutcome>,
): Promise<CollectionResult> {
  const state = readState(ctx.replica.sqlite, collection);
  const requests = { count: 0 };
  const started = performance.now();
  const now = ctx.options.now().toISOString();
  const seconds = () => Number(((performance.now() - started) / 1000).toFixed(3));
  let result: CollectionResult;
  try {
    const outcome = await collectionRequests.run(requests, () => strategy(state));
    const tally = tallyOf(ctx, collection);
    // A record in quarantine is asked for again next time: the watermark stays (bounded, see quarantine.ts).
    const watermark =
      outcome.watermark === undefined || tally.holdWatermark ? state.watermark : outcome.watermark;
    writeState(ctx.replica.sqlite, {
      ...readState(ctx.replica.sqlite, collection),
      watermark,
      last_success_at: now,
      last_full_scan_at: outcome.fullScan ? now : state.last_full_scan_at,
      syncs_since_full_scan: outcome.fullScan ? 0 : state.syncs_since_full_scan + 1,
      unavailable: null,
      last_error: null,
    });
    result = {
      records: outcome.records,
      deleted: outcome.deleted,
      requests: requests.count,
      seconds: seconds(),
      ...(tally.quarantined ? { quarantined: tally.quarantined } : {}),
      ...(tally.failedItems ? { failedItems: tally.failedItems } : {}),
      ...(tally.conversions ? { conversions: tally.conversions } : {}),
      ...(outcome.remaining ? { remaining: outcome.remaining } : {}),
    };
  } catch (error) {
    const skipped = isSkip(error) ? error.kind : undefined;
    writeState(ctx.replica.sqlite, {
      ...readState(ctx.replica.sqlite, collection),
      unavailable: skipped ?? state.unavailable,
      last_error: skipped ? null : (error as Error).message,
    });
    if (!skipped && (stopsTheSync(error) || ctx.signal?.aborted)) throw error;
    result = {
      records: 0,
      deleted: 0,
      requests: requests.count,
      seconds: seconds(),
    };
    if (skipped) {
      result.skipped = skipped;
      result.skippedBecause = (error as ApiError).message;
    } else result.error = (error as Error).message;
  }
  ctx.results.set(collection, result);
  return result;
}

/** 403 or 423: the account may not read this area, or the organisation has not licensed it. */
export function isSkip(error: unknown): error is ApiError & { kind: 'forbidden' | 'unlicensed' } {
  return error instanceof ApiError && (error.kind === 'unlicensed' || error.kind === 'forbidden');
}

/** No login or no network: every further collection would fail the same way. */
function stopsTheSync(error: unknown): boolean {
  return (
    error instanceof ApiError && ['auth', 'cancelled', 'network', 'timeout'].includes(error.kind)
  );
}
