// What a sync could not apply (DESIGN rule 14): records the service sent that could not be read,
// and per-item requests that failed for good. Both are kept in the replica's quarantine table with
// the reason, reported in the summary, and tried again on the next sync; a record that reads
// cleanly again, or that its complete scope no longer lists, leaves the quarantine.
import type { QuarantinedRecord } from '../api';
import type { TableName } from '../db/schema';
import type { PullContext } from './context';

/**
 * An incremental collection holds its watermark while it has a record in quarantine, so the next
 * sync asks for that record again; after this many attempts the watermark moves on and the
 * record waits for the collection's periodic full scan.
 */
export const WATERMARK_HOLD_ATTEMPTS = 5;

/** What one collection met in this sync. */
export interface ReadTally {
  /** Records quarantined (unreadable) in this sync. */
  quarantined: number;
  /** Items whose request failed for good in this sync (the loop went on). */
  failedItems: number;
  /** Attribute values the tolerant reader converted or dropped. */
  conversions: number;
  /** A quarantined record asks for the watermark to stay where it was. */
  holdWatermark: boolean;
}

export function tallyOf(ctx: PullContext, collection: string): ReadTally {
  let tally = ctx.tallies.get(collection);
  if (!tally) {
    tally = { quarantined: 0, failedItems: 0, conversions: 0, holdWatermark: false };
    ctx.tallies.set(collection, tally);
  }
  return tally;
}

/** An answer as the reader left it: what could be read, what could not, and how much was converted. */
export interface ReadAnswer {
  data: readonly { id: string }[];
  /** Resources that came along: an included record quarantined earlier leaves when it reads cleanly. */
  included?: readonly { type: string; id: string }[];
  quarantined: readonly QuarantinedRecord[];
  conversions: number;
}

/**
 * Files an answer's quarantined records under `collection` and `parent` ('' for a whole
 * collection), and releases the records it read cleanly. `complete`: the answer lists the whole
 * scope, so an entry of that scope that it no longer mentions is gone from the service too.
 */
export function takeAnswer(
  ctx: PullContext,
  collection: string,
  parent: string,
  answer: ReadAnswer,
  complete: boolean,
  /** The collection whose summary counts them, when another than `collection` (the hours' history windows). */
  tallyAs = collection,
): void {
  const tally = tallyOf(ctx, tallyAs);
  tally.conversions += answer.conversions;
  tally.quarantined += answer.quarantined.length;
  // The common case, a clean answer where nothing is in quarantine, costs no statement at all.
  if (answer.quarantined.length === 0 && !hasQuarantine(ctx, collection)) return;
  if (answer.quarantined.length > 0) ctx.quarantineHolders.add(collection);
  const { writer } = ctx;
  const now = new Date().toISOString();
  writer.transaction(() => {
    for (const record of answer.quarantined) {
      const attempts = writer
        .statement(
          `INSERT INTO quarantine (collection, type, id, parent, part, reason, raw, url, first_seen_at, last_seen_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (collection, type, id) DO UPDATE SET parent = excluded.parent,
             part = excluded.part, reason = excluded.reason, raw = excluded.raw, url = excluded.url,
             last_seen_at = excluded.last_seen_at, attempts = attempts + 1
           RETURNING attempts`,
        )
        .pluck()
        .get(
          collection,
          record.type,
          record.id,
          parent,
          record.where.startsWith('included') ? 'included' : 'data',
          record.reason,
          record.raw,
          record.url,
          now,
          now,
        ) as number;
      if (attempts < WATERMARK_HOLD_ATTEMPTS) tally.holdWatermark = true;
    }
    const unreadable = answer.quarantined.filter((r) => !r.where.startsWith('included'));
    if (complete)
      releaseUnlisted(
        ctx,
        collection,
        parent,
        [...answer.data, ...unreadable].map((r) => r.id),
      );
    else
      release(
        ctx,
        collection,
        answer.data.map((r) => r.id),
      );
    const remove = writer.statement(
      "DELETE FROM quarantine WHERE collection = ? AND part = 'included' AND type = ? AND id = ?",
    );
    for (const resource of answer.included ?? [])
      remove.run(collection, resource.type, resource.id);
  });
}

/**
 * After an answer (or a scan of several) that lists a whole scope: its records in quarantine
 * that it no longer lists are gone from the service, and leave the quarantine too.
 */
export function releaseUnlisted(
  ctx: PullContext,
  collection: string,
  parent: string,
  listed: Iterable<string>,
): void {
  if (!hasQuarantine(ctx, collection)) return;
  const keep = new Set(listed);
  const filed = ctx.writer
    .statement(
      `SELECT id FROM quarantine WHERE collection = ? AND parent = ? AND part = 'data'
       AND raw IS NOT NULL`,
    )
    .pluck()
    .all(collection, parent) as string[];
  release(
    ctx,
    collection,
    filed.filter((id) => !keep.has(id)),
  );
}

/** A per-item request that failed for good: recorded, and the item is tried again next sync. */
export function recordItemFailure(
  ctx: PullContext,
  collection: string,
  item: { type: string; id: string; parent?: string },
  error: unknown,
): void {
  tallyOf(ctx, collection).failedItems += 1;
  ctx.quarantineHolders.add(collection);
  const now = new Date().toISOString();
  const reason = error instanceof Error ? error.message : String(error);
  ctx.writer.transaction(() =>
    ctx.writer
      .statement(
        `INSERT INTO quarantine (collection, type, id, parent, part, reason, raw, url, first_seen_at, last_seen_at)
         VALUES (?, ?, ?, ?, 'data', ?, NULL, NULL, ?, ?)
         ON CONFLICT (collection, type, id) DO UPDATE SET reason = excluded.reason,
           last_seen_at = excluded.last_seen_at, attempts = attempts + 1`,
      )
      .run(collection, item.type, item.id, item.parent ?? '', reason, now, now),
  );
}

/** The item's request succeeded: a failure recorded for it earlier is over. */
export function clearItemFailure(ctx: PullContext, collection: string, id: string): void {
  if (!hasQuarantine(ctx, collection)) return;
  ctx.writer
    .statement('DELETE FROM quarantine WHERE collection = ? AND id = ? AND raw IS NULL')
    .run(collection, id);
}

/**
 * A quarantined record asked for again by its id could not be read this time either (still
 * unreadable, or the request failed): it stays in quarantine, counted as such, not as a failed
 * item, so one record that stays broken does not fail every later sync.
 */
export function stillQuarantined(
  ctx: PullContext,
  collection: string,
  id: string,
  error: unknown,
): void {
  tallyOf(ctx, collection).quarantined += 1;
  const reason = error instanceof Error ? error.message : String(error);
  ctx.writer
    .statement(
      `UPDATE quarantine SET reason = ?, last_seen_at = ?, attempts = attempts + 1
       WHERE collection = ? AND id = ? AND raw IS NOT NULL`,
    )
    .run(reason, new Date().toISOString(), collection, id);
}

/** The record is gone from the service (404): nothing left to retry. */
export function forgetQuarantined(ctx: PullContext, collection: string, id: string): void {
  ctx.writer
    .statement('DELETE FROM quarantine WHERE collection = ? AND id = ?')
    .run(collection, id);
}

/** Records of the answer's main data that read cleanly now (their type may be spelled otherwise). */
function release(ctx: PullContext, collection: string, ids: readonly string[]): void {
  const remove = ctx.writer.statement(
    "DELETE FROM quarantine WHERE collection = ? AND part = 'data' AND id = ?",
  );
  for (const id of ids) remove.run(collection, id);
}

/** Where the parents of a per-parent collection live (the `parent` of its entries). */
const PARENT_TABLES: Readonly<Record<string, TableName>> = {
  ueberpruefungen: 'users',
  ehrungen: 'users',
  ausbildungen: 'users',
  participations: 'courses',
  customfields: 'courses',
  client_participants: 'clients',
};

/** Where the items of a failed per-item request live, by the item's type. */
const ITEM_TABLES: Readonly<Record<string, TableName>> = {
  user: 'users',
  course: 'courses',
  client: 'clients',
};

/**
 * Entries whose parent or item has left the replica (a person deleted, a course out of the
 * window): nothing will ask for them again, so they leave the quarantine. Run once per sync.
 */
export function pruneOrphans(ctx: PullContext): void {
  if (ctx.quarantineHolders.size === 0) return;
  ctx.writer.transaction(() => {
    for (const [collection, table] of Object.entries(PARENT_TABLES))
      ctx.writer
        .statement(
          `DELETE FROM quarantine WHERE collection = ? AND parent <> ''
           AND parent NOT IN (SELECT id FROM ${table})`,
        )
        .run(collection);
    for (const [type, table] of Object.entries(ITEM_TABLES))
      ctx.writer
        .statement(
          `DELETE FROM quarantine WHERE raw IS NULL AND type = ? AND id NOT IN (SELECT id FROM ${table})`,
        )
        .run(type);
  });
}

/** Whether the collection may have entries in quarantine (known at the sync's start, kept up to date). */
function hasQuarantine(ctx: PullContext, collection: string): boolean {
  return ctx.quarantineHolders.has(collection);
}
