// Which queued operations may go now (DESIGN rules 2, 3, 6): in order per record, not before a
// record created offline has its service id, not while the record's conflict waits for a person;
// and when the next one waiting for its retry time falls due.
import type { Sqlite } from '../db/sqlite';
import { isLocalId } from '../contract';
import { NEVER, verbOf, type OutboxRow } from './operations';
import { TEMPORARY_IDS_IN_TEXT } from './records';
import { prepared } from '../db/statements';

/**
 * The first operation of each record that may go now, oldest first. The scan starts at the oldest
 * operation in a state that may go (found in the index of open ones): done operations stay in the
 * table, and walking past all of them for every request made a push slower the longer the
 * outbox's history. That start is looked up per state: the index is ordered by state, then id, so
 * one lowest id over all open states read every open entry (a quarter of a millisecond per request
 * with 1,000 queued), one per state reads one entry each.
 */
export function nextReady(
  sqlite: Sqlite,
  now: string,
  claimed: ReadonlySet<number>,
): OutboxRow | undefined {
  const candidates = prepared(
    sqlite,
    `SELECT * FROM outbox o WHERE state IN ('pending', 'retrying', 'unknown')
         AND o.id >= (SELECT min(id) FROM (
           SELECT min(id) AS id FROM outbox INDEXED BY outbox_open
             WHERE state <> 'done' AND state = 'pending'
           UNION ALL SELECT min(id) FROM outbox INDEXED BY outbox_open
             WHERE state <> 'done' AND state = 'retrying'
           UNION ALL SELECT min(id) FROM outbox INDEXED BY outbox_open
             WHERE state <> 'done' AND state = 'unknown'))
         AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
         AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.record_type = o.record_type
           AND p.record_id = o.record_id AND p.state <> 'done' AND p.id < o.id)
         AND NOT EXISTS (SELECT 1 FROM conflicts c WHERE c.record_type = o.record_type
           AND c.record_id = o.record_id)
       ORDER BY id`,
  ).iterate(now) as IterableIterator<OutboxRow>;
  for (const op of candidates) {
    if (!claimed.has(op.id) && waitingFor(op) === null) return op;
  }
  return undefined;
}

/**
 * Whether the record has a conflict not yet resolved: its operations wait for the person's
 * decision (DESIGN rule 2), as sending them would decide it for "mine".
 */
export function inConflict(sqlite: Sqlite, type: string, id: string): boolean {
  return (
    prepared(sqlite, 'SELECT 1 FROM conflicts WHERE record_type = ? AND record_id = ? LIMIT 1').get(
      type,
      id,
    ) !== undefined
  );
}

/** A temporary id the operation needs the service id of first, or null. */
export function waitingFor(op: Pick<OutboxRow, 'args' | 'record_id' | 'command'>): string | null {
  const own = verbOf(op.command) === 'create' || verbOf(op.command) === 'upsert';
  for (const id of op.args.match(TEMPORARY_IDS_IN_TEXT) ?? []) {
    if (id !== op.record_id || !own) return id;
  }
  if (!own && isLocalId(op.record_id)) return op.record_id;
  return null;
}

export function waitingCount(sqlite: Sqlite): number {
  const open = prepared(
    sqlite,
    "SELECT args, record_id, command FROM outbox WHERE state IN ('pending', 'retrying')",
  ).all() as Pick<OutboxRow, 'args' | 'record_id' | 'command'>[];
  return open.filter((op) => waitingFor(op) !== null).length;
}

/**
 * When the next operation waiting for its retry time is due; null when none waits for a time.
 * One held by a conflict waits for a person, not for a time.
 */
export function nextDue(sqlite: Sqlite): string | null {
  return (
    (prepared(
      sqlite,
      `SELECT min(next_attempt_at) FROM outbox o WHERE state IN ('retrying', 'unknown')
         AND next_attempt_at IS NOT NULL AND next_attempt_at < ?
         AND NOT EXISTS (SELECT 1 FROM conflicts c WHERE c.record_type = o.record_type
           AND c.record_id = o.record_id)`,
    )
      .pluck()
      .get(NEVER) as string | null) ?? null
  );
}
