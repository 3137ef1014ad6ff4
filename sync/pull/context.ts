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
import type { ReplicaWriter, RowValues } from '../db/writer';
import type { SyncOptions, SyncProgress } from './options';
import { readState, writeState, type CollectionState } from './state';

export interface CollectionResult {
  records: number;
  deleted: number;
  requests: number;
  seconds: number;
  /** Why nothing was synced: 'unlicensed' (423), 'forbidden' (403). */
  skipped?: string;
  error?: string;
}

export interface PullContext {
  api: ApiClient;
  replica: Replica;
  writer: ReplicaWriter;
  options: SyncOptions;
  signal?: AbortSignal;
  /** Local time of this sync, stored per row as synced_at (never used as a watermark). */
  syncedAt: string;
  /** The signed-in user's id, known after the own record is pulled. */
  selfId: string | null;
  progress(event: SyncProgress): void;
  results: Map<string, CollectionResult>;
  /** "table:id" → base of related records already written in this sync (companies and UVTs recur per course). */
  writtenRelated: Map<string, string>;
  /** Per collection: parent id → digest of the answer applied last (see appliedDigests). */
  appliedDigests: Map<string, ReadonlyMap<string, string>>;
}

/** What a strategy reports; `watermark` undefined leaves it unchanged, null clears it. */
export interface StrategyOutcome {
  records: number;
  deleted: number;
  watermark?: string | null;
  fullScan: boolean;
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

/**
 * For collections without a watermark (fetched whole per parent): is this run one of the
 * periodic full ones, where nothing is skipped as unchanged?
 */
export function isPeriodicFullRun(ctx: PullContext, state: CollectionState): boolean {
  return (
    ctx.options.full ||
    state.last_full_scan_at === null ||
    state.syncs_since_full_scan + 1 >= ctx.options.fullScanEvery
  );
}

/** Should this run of the collection be a full id scan (deletions)? */
export function isFullScan(ctx: PullContext, state: CollectionState): boolean {
  return (
    ctx.options.full ||
    state.watermark === null ||
    state.syncs_since_full_scan + 1 >= ctx.options.fullScanEvery
  );
}

/** The watermark for data read at the service's time `serverDate`: that time minus the overlap. */
export function watermarkAt(ctx: PullContext, serverDate: Date | null): string | undefined {
  if (!serverDate) return undefined; // never from the local clock: keep the old one, the next sync repeats
  return new Date(serverDate.getTime() - ctx.options.overlapSeconds * 1000).toISOString();
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
  const now = new Date().toISOString();
  const seconds = () => Number(((performance.now() - started) / 1000).toFixed(3));
  let result: CollectionResult;
  try {
    const outcome = await collectionRequests.run(requests, () => strategy(state));
    writeState(ctx.replica.sqlite, {
      ...state,
      watermark: outcome.watermark === undefined ? state.watermark : outcome.watermark,
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
    };
  } catch (error) {
    const skipped =
      error instanceof ApiError && (error.kind === 'unlicensed' || error.kind === 'forbidden')
        ? error.kind
        : undefined;
    writeState(ctx.replica.sqlite, {
      ...state,
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
    if (skipped) result.skipped = skipped;
    else result.error = (error as Error).message;
  }
  ctx.results.set(collection, result);
  return result;
}

/** No login or no network: every further collection would fail the same way. */
function stopsTheSync(error: unknown): boolean {
  return (
    error instanceof ApiError && ['auth', 'cancelled', 'network', 'timeout'].includes(error.kind)
  );
}
