// Small collections are fetched whole and replaced: what the service no longer lists is removed.
// "Listed" is the union of both passes of a paged answer (collectPages, sync/api/core.ts), so a
// deletion between two pages on the service never removes an unrelated record here.
import {
  collectPages,
  type Collected,
  type Page,
  type QuarantinedRecord,
  type RequestOptions,
} from '../../api';
import { referencedIds } from '../../db/references';
import type { ServiceResource } from '../../resources';
import type { TableName } from '../../db/schema';
import { prepared } from '../../db/statements';
import { upsertRow } from '../../db/upsert';
import type { RowValues } from '../../db/writer';
import { runCollection, upsertChunked, type PullContext } from '../context';
import { takeAnswer } from '../quarantine';

export interface WholeCollection {
  collection: string;
  table: TableName;
  fetch: (signal?: AbortSignal) => AsyncGenerator<Page<ServiceResource>>;
  toRow: (resource: ServiceResource, syncedAt: string) => RowValues & { id: string; base: string };
  /** Other resources that come in `included` and go to their own tables. */
  included?: Partial<
    Record<string, { table: TableName; toRow: (r: ServiceResource, syncedAt: string) => RowValues }>
  >;
  /** Limits the replacement to part of the table (e.g. one client's participants). */
  scope?: { where: string; params: unknown[] };
}

/** An answer to replace a table's rows with: what was read, and what was listed but could not be read. */
export interface Answer {
  data: readonly ServiceResource[];
  included: readonly ServiceResource[];
  quarantined: readonly QuarantinedRecord[];
  conversions: number;
}

export function pullWhole(ctx: PullContext, spec: WholeCollection) {
  return runCollection(ctx, spec.collection, async () => {
    const answer = await collectPages(spec.fetch(ctx.signal));
    takeAnswer(ctx, spec.collection, '', answer, true);
    const deleted = await replaceRows(ctx, spec, answer, listedSize(ctx, spec.collection, answer));
    return { records: answer.data.length, deleted, fullScan: true };
  });
}

/**
 * A list that counts itself (`meta.size`: the notifications) keeps the service's count beside its
 * rows (replica_meta `size:<collection>`), in their transaction; an answer without one removes
 * it. Undefined (no write at all) for the lists that never counted themselves.
 */
function listedSize(
  ctx: PullContext,
  collection: string,
  answer: Pick<Collected<unknown>, 'meta'>,
): (() => void) | undefined {
  const key = `size:${collection}`;
  const size = answer.meta?.size;
  const sqlite = ctx.replica.sqlite;
  if (typeof size === 'number')
    return () => upsertRow(sqlite, 'replica_meta', ['key'], { key, value: String(size) });
  const kept = prepared(sqlite, 'SELECT 1 FROM replica_meta WHERE key = ?').get(key);
  return kept
    ? () => prepared(sqlite, 'DELETE FROM replica_meta WHERE key = ?').run(key)
    : undefined;
}

/**
 * Makes the table (within scope) hold exactly `data`: reads what is there once, writes only the
 * records whose base differs and deletes those the service no longer lists; the included
 * resources go to their own tables. A small answer (one chunk, as for one course's participants)
 * is applied in one transaction, a large one in chunks.
 */
export async function replaceRows(
  ctx: PullContext,
  spec: Pick<WholeCollection, 'collection' | 'table' | 'toRow' | 'included' | 'scope'>,
  answer: Pick<Answer, 'data' | 'included' | 'quarantined'>,
  /** Runs in the transaction that completes the replacement (e.g. to record the answer's digest). */
  onComplete?: () => void,
): Promise<number> {
  const { data, included } = answer;
  const includedRows = Object.entries(spec.included ?? {}).flatMap(([type, target]) =>
    target
      ? [
          {
            table: target.table,
            rows: included
              .filter((r) => r.type === type)
              .map((r) => target.toRow(r, ctx.syncedAt))
              .filter((row) => firstWriteInThisSync(ctx, target.table, row)),
          },
        ]
      : [],
  );
  const existing = existingBases(ctx, spec.table, spec.scope);
  const rows = data
    .map((r) => spec.toRow(r, ctx.syncedAt))
    .filter((row) => existing.get(String(row.id)) !== row.base);
  // Listed but unreadable records are still there: their rows stay as they were (rule 14). Rows
  // that other rows point at stay too: a list may omit what it does not offer any more (the UVTs
  // outside the favourites), and a dangling reference would lose data on every screen.
  const listed = new Set([...data.map((r) => r.id), ...answer.quarantined.map((r) => r.id)]);
  const candidates = [...existing.keys()].filter((id) => !listed.has(id));
  const referenced = candidates.length ? referencedIds(ctx.replica.sqlite, spec.table) : undefined;
  const gone = candidates.filter((id) => !referenced?.has(id));
  const complete = () => {
    // Within the scope only: an id may recur under another parent (a client's participants).
    const deleted = spec.scope
      ? deleteInScope(ctx, spec.table, spec.scope, gone)
      : ctx.writer.deleteWhereIn(spec.table, 'id', gone);
    onComplete?.();
    return deleted;
  };
  const relatedCount = includedRows.reduce((sum, related) => sum + related.rows.length, 0);
  if (rows.length + relatedCount + gone.length === 0 && !onComplete) return 0;
  if (rows.length + relatedCount <= ctx.options.chunkSize) {
    return ctx.writer.transaction(() => {
      for (const { table, rows: related } of includedRows) ctx.writer.upsert(table, related);
      ctx.writer.upsert(spec.table, rows);
      return complete();
    });
  }
  for (const { table, rows: related } of includedRows) {
    await upsertChunked(ctx, spec.collection, table, related);
  }
  await upsertChunked(ctx, spec.collection, spec.table, rows);
  return ctx.writer.transaction(complete);
}

function deleteInScope(
  ctx: PullContext,
  table: TableName,
  scope: { where: string; params: unknown[] },
  ids: readonly string[],
): number {
  // The ids come from the scope: through the writer, which spares records with local changes.
  void scope;
  return ctx.writer.deleteWhereIn(table, 'id', ids);
}

/** False for a related record already written with the same base earlier in this sync. */
function firstWriteInThisSync(ctx: PullContext, table: TableName, row: RowValues): boolean {
  const key = `${table}:${String(row.id)}`;
  if (ctx.writtenRelated.get(key) === row.base) return false;
  ctx.writtenRelated.set(key, String(row.base));
  return true;
}

/** id → base of the table's rows within scope. */
function existingBases(
  ctx: PullContext,
  table: TableName,
  scope?: { where: string; params: unknown[] },
): Map<string, string> {
  const sql = `SELECT id, base FROM ${table}${scope ? ` WHERE ${scope.where}` : ''}`;
  const rows = ctx.writer
    .statement(sql)
    .raw()
    .all(...(scope?.params ?? [])) as [string, string][];
  return new Map(rows);
}

/** What a per-parent fetch passes on to the list request. */
export type DigestOptions = Pick<RequestOptions, 'withDigest' | 'knownDigest'>;

export interface ParentScope {
  /** The column that names the parent, e.g. course_id. */
  column: string;
  id: string;
}

/**
 * One parent's children (a course's participants, a person's honours), replaced from the service's
 * answer. With `useDigests`, an answer byte-identical to the last one applied is not checked or
 * applied again, as long as the replica still holds all the rows it gave; full scans pass
 * `useDigests: false`, so anything amiss heals there.
 */
export async function replaceChildren(
  ctx: PullContext,
  spec: Pick<WholeCollection, 'collection' | 'table' | 'toRow' | 'included'> & {
    parent: ParentScope;
    useDigests: boolean;
  },
  fetch: (digest: DigestOptions) => AsyncGenerator<Page<ServiceResource>>,
): Promise<{ records: number; deleted: number }> {
  const key = `${spec.collection}:${spec.parent.id}`;
  const scope = { where: `${spec.parent.column} = ?`, params: [spec.parent.id] };
  const known = spec.useDigests
    ? appliedDigests(
        ctx,
        spec.collection,
        spec.table,
        `${spec.parent.column} = applied.parent`,
      ).get(spec.parent.id)
    : undefined;
  const answer = await collectPages(
    fetch(known === undefined ? { withDigest: true } : { withDigest: true, knownDigest: known }),
  );
  if (answer.unchanged) return { records: 0, deleted: 0 };
  takeAnswer(ctx, spec.collection, spec.parent.id, answer, true);
  const { digest } = answer;
  // An answer with an unreadable record is never skipped as known: the record is tried again.
  // The digest of an earlier answer goes too, or those bytes coming back (the record repaired as
  // it was) would be skipped as unchanged and its quarantine entry never released.
  const remember =
    answer.quarantined.length > 0
      ? () => ctx.writer.statement('DELETE FROM answer_digests WHERE key = ?').run(key)
      : digest !== undefined && digest !== known
        ? () => recordDigest(ctx, key, digest, answer.data.length)
        : undefined;
  const deleted = await replaceRows(ctx, { ...spec, scope }, answer, remember);
  return { records: answer.data.length, deleted };
}

/** Remembers the digest of the answer just applied under `key` and the number of rows it gave. */
export function recordDigest(ctx: PullContext, key: string, digest: string, records: number) {
  ctx.writer.upsert('answer_digests', [{ key, digest, records }]);
}

/**
 * Parent id → digest of the answer last applied for it in `collection` (digests are recorded
 * under `collection:parent`), for the parents whose rows are all still in `table`. Read in one
 * query the first time a sync asks: a query per parent costs more than its request saves.
 * `parentMatch` selects a parent's rows, naming the parent `applied.parent`.
 */
export function appliedDigests(
  ctx: PullContext,
  collection: string,
  table: TableName,
  parentMatch: string,
): ReadonlyMap<string, string> {
  let digests = ctx.appliedDigests.get(collection);
  if (!digests) {
    const rows = ctx.writer
      .statement(
        `SELECT parent, digest FROM (
           SELECT substr(key, ${collection.length + 2}) AS parent, digest, records
           FROM answer_digests WHERE key > ? AND key < ?
         ) AS applied
         WHERE records = (SELECT count(*) FROM ${table} WHERE ${parentMatch})`,
      )
      .raw()
      .all(`${collection}:`, `${collection};`) as [string, string][];
    digests = new Map(rows);
    ctx.appliedDigests.set(collection, digests);
  }
  return digests;
}

/** A single document (the own organisation, the user-info, the own hour settings). */
export function pullSingleton(
  ctx: PullContext,
  collection: string,
  fetch: (
    signal?: AbortSignal,
  ) => Promise<{ type: string; id: string; base: string; included?: readonly ServiceResource[] }>,
) {
  return runCollection(ctx, collection, async () => {
    const doc = await fetch(ctx.signal);
    ctx.writer.transaction(() =>
      ctx.writer.upsert('singletons', [
        {
          key: collection,
          type: doc.type,
          id: doc.id,
          included: doc.included ? JSON.stringify(doc.included) : null,
          base: doc.base,
          synced_at: ctx.syncedAt,
        },
      ]),
    );
    return { records: 1, deleted: 0, fullScan: true };
  });
}
