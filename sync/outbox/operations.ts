// The outbox table: one row per queued write, its state kept in the database so that a crash at
// any moment leaves a queue the next run continues correctly (DESIGN rules 3, 5, 7). Coalescing
// happens here, when a write joins the queue behind another of the same record.
import type { Sqlite } from '../db/sqlite';
import type { Selectable } from 'kysely';
import type { OutboxState } from '../contract';
import type { OutboxTable } from '../db/schema';
import type { IncludedItem, WriteArgs } from '../resources';
import { prepared } from '../db/statements';

/** An outbox row as read (the table's type is sync/db/schema.ts's, the states the contract's). */
export type OutboxRow = Omit<Selectable<OutboxTable>, 'state'> & { state: OutboxState };

/** A write's arguments: declared with the resources, whose hooks read them. */
export type { IncludedItem, WriteArgs };

/** Why an operation is parked or retried, as shown to people. */
export interface OperationError {
  status: number | null;
  code?: string;
  message: { de: string; en: string };
}

/** next_attempt_at of an operation that waits for a person, not for a time. */
export const NEVER = '9999-12-31T00:00:00.000Z';

export const verbOf = (command: string) => command.slice(command.indexOf('.') + 1);
export const parseArgs = (op: Pick<OutboxRow, 'args'>) => JSON.parse(op.args) as WriteArgs;

/** Verbs whose pending operation a later update of the same record is folded into (rule 5). */
const ABSORBS_UPDATES = new Set(['create', 'update', 'upsert']);
/**
 * Whether a request of the operation has left (marked in flight): whatever its answer said, the
 * service may hold what it carried (a lost answer, a 502 after the commit, a PUT retried by the
 * client), while the base does not show it yet.
 */
export const mayHaveArrived = (op: Pick<OutboxRow, 'attempts'>) => op.attempts > 0;

export interface Enqueued {
  /** The outbox entry that carries the write; null when it cancelled out (create + delete). */
  operation: number | null;
  state: OutboxState | 'nothing to send';
}

/**
 * Queues one write of a record, folding it into the record's last unsent operation where the
 * service would see the same result: update after create/update/upsert merges, delete after
 * create removes both, delete after update replaces it. Call inside the write's transaction.
 * An operation that may have arrived is never changed: its PATCH would be measured against a
 * base without its values (an update back to the base's value would send nothing), and its
 * create may exist on the service already. The new write queues behind it.
 */
export function enqueue(
  sqlite: Sqlite,
  write: { command: string; type: string; recordId: string; args: WriteArgs; now: string },
): Enqueued {
  const verb = verbOf(write.command);
  const last = prepared(
    sqlite,
    "SELECT * FROM outbox WHERE record_type = ? AND record_id = ? AND state <> 'done' ORDER BY id DESC LIMIT 1",
  ).get(write.type, write.recordId) as OutboxRow | undefined;
  if (last?.state === 'pending' && !mayHaveArrived(last)) {
    const lastVerb = verbOf(last.command);
    if (verb === 'update' && ABSORBS_UPDATES.has(lastVerb)) {
      const merged = mergeArgs(parseArgs(last), write.args);
      prepared(sqlite, 'UPDATE outbox SET args = ?, updated_at = ? WHERE id = ?').run(
        JSON.stringify(merged),
        write.now,
        last.id,
      );
      return { operation: last.id, state: last.state };
    }
    if (verb === 'delete' && lastVerb === 'create') {
      finish(sqlite, last.id, write.now);
      return { operation: null, state: 'nothing to send' };
    }
    if (verb === 'delete' && lastVerb === 'update') finish(sqlite, last.id, write.now);
  }
  const inserted = prepared(
    sqlite,
    `INSERT INTO outbox (command, record_type, record_id, args, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(
    write.command,
    write.type,
    write.recordId,
    JSON.stringify(write.args),
    write.now,
    write.now,
  );
  return { operation: Number(inserted.lastInsertRowid), state: 'pending' };
}

/** A later change folded into an earlier one: later values win, qualification edits add up. */
export function mergeArgs(earlier: WriteArgs, later: WriteArgs): WriteArgs {
  const { qualifikationen: earlierEdits, ...earlierAttributes } = earlier.attributes ?? {};
  const { qualifikationen: laterEdits, ...laterAttributes } = later.attributes ?? {};
  const edits = [
    ...(Array.isArray(earlierEdits) ? earlierEdits : []),
    ...(Array.isArray(laterEdits) ? laterEdits : []),
  ];
  const merged: WriteArgs = {
    ...earlier,
    attributes: {
      ...earlierAttributes,
      ...laterAttributes,
      ...(edits.length ? { qualifikationen: edits } : {}),
    },
  };
  if (earlier.relationships || later.relationships)
    merged.relationships = { ...earlier.relationships, ...later.relationships };
  if (later.included?.length) {
    const ids = new Set(later.included.map((item) => `${item.type}:${item.id}`));
    merged.included = [
      ...(earlier.included ?? []).filter((item) => !ids.has(`${item.type}:${item.id}`)),
      ...later.included,
    ];
  }
  return merged;
}

export function getOperation(sqlite: Sqlite, id: number): OutboxRow | undefined {
  return prepared(sqlite, 'SELECT * FROM outbox WHERE id = ?').get(id) as OutboxRow | undefined;
}

/** Done: sent and accepted, or cancelled out without a request. */
export function finish(sqlite: Sqlite, id: number, now: string): void {
  prepared(
    sqlite,
    "UPDATE outbox SET state = 'done', done_at = ?, updated_at = ?, next_attempt_at = NULL, error = NULL WHERE id = ?",
  ).run(now, now, id);
}

export function setState(
  sqlite: Sqlite,
  id: number,
  state: Exclude<OutboxState, 'done'>,
  now: string,
  extra: { nextAttemptAt?: string | null; error?: OperationError | null } = {},
): void {
  prepared(
    sqlite,
    'UPDATE outbox SET state = ?, updated_at = ?, next_attempt_at = ?, error = ? WHERE id = ?',
  ).run(
    state,
    now,
    extra.nextAttemptAt ?? null,
    extra.error ? JSON.stringify(extra.error) : null,
    id,
  );
}

/** The open operations by state: what status screens and the push's summary count. */
export function openCountsByState(
  sqlite: Sqlite,
): Partial<Record<Exclude<OutboxState, 'done'>, number>> {
  const rows = prepared(
    sqlite,
    "SELECT state, count(*) AS n FROM outbox WHERE state <> 'done' GROUP BY state",
  ).all() as { state: Exclude<OutboxState, 'done'>; n: number }[];
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}

/** Marked before the request leaves (rule 7): a crash from here on leaves "outcome unknown". */
export function markInFlight(
  sqlite: Sqlite,
  op: OutboxRow,
  now: string,
  sent: { fingerprint: string | null; clientId: string | null },
): void {
  prepared(
    sqlite,
    `UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, sent_at = ?, updated_at = ?,
       fingerprint = coalesce(fingerprint, ?), client_id = ?, next_attempt_at = NULL WHERE id = ?`,
  ).run(now, now, sent.fingerprint, sent.clientId, op.id);
}

/** Operations a dead process left in flight: nobody knows whether the service got them. */
export function recoverInFlight(sqlite: Sqlite, now: string): number {
  return prepared(
    sqlite,
    "UPDATE outbox SET state = 'unknown', updated_at = ? WHERE state = 'in_flight'",
  ).run(now).changes;
}
