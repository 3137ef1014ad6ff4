// The outbox's own commands: list what is not done yet, retry, edit or discard an operation.
// Editing validates like a new command; discarding restores the record's base in the replica.
// Each entry says what record it concerns in words (its subject, read from the replica).
import type { Sqlite } from '../db/sqlite';
import { prepared } from '../db/statements';
import { commands, type OutboxEntry, type OutboxState, type WriteCommandName } from '../contract';
import { notAllowed, notFound, refusedArguments } from '../core-error';
import { refreshRecord } from './local-truth';
import {
  getOperation,
  NEVER,
  type OperationError,
  type OutboxRow,
  type WriteArgs,
} from './operations';
import { inConflict, waitingFor } from './replay';
import { outboxSubject } from './subject';

export function toEntry(sqlite: Sqlite, op: OutboxRow): OutboxEntry {
  const error = op.error ? (JSON.parse(op.error) as OperationError) : null;
  const args = JSON.parse(op.args) as WriteArgs;
  return {
    id: op.id,
    command: op.command,
    recordType: op.record_type,
    recordId: op.record_id,
    state: op.state,
    attempts: op.attempts,
    nextAttemptAt: op.next_attempt_at,
    error: error ? { status: error.status, message: error.message } : null,
    createdAt: op.created_at,
    arguments: args,
    waitingFor: waitingFor(op),
    inConflict: inConflict(sqlite, op.record_type, op.record_id),
    subject: outboxSubject(sqlite, op.record_type, op.record_id, args),
  };
}

export function listOutbox(sqlite: Sqlite, states?: readonly OutboxState[]): OutboxEntry[] {
  const rows = (
    states?.length
      ? sqlite
          .prepare(
            `SELECT * FROM outbox WHERE state IN (${states.map(() => '?').join(',')}) ORDER BY id`,
          )
          .all(...states)
      : prepared(sqlite, "SELECT * FROM outbox WHERE state <> 'done' ORDER BY id").all()
  ) as OutboxRow[];
  return rows.map((op) => toEntry(sqlite, op));
}

function openOperation(sqlite: Sqlite, id: number): OutboxRow {
  const op = getOperation(sqlite, id);
  if (!op || op.state === 'done')
    throw notFound(
      `Kein offener Vorgang ${id} in der Warteschlange.`,
      `No open operation ${id} in the outbox.`,
    );
  if (op.state === 'in_flight')
    throw notAllowed(
      `Vorgang ${id} wird gerade gesendet; bitte warten.`,
      `Operation ${id} is being sent right now; wait for its answer.`,
    );
  return op;
}

/**
 * Due now instead of at its retry time. An unknown outcome is looked for again; one that cannot
 * be looked for (its error says so) is the person's call that it did not arrive: sent again.
 */
export function retryOperation(sqlite: Sqlite, id: number, now: string): OutboxEntry {
  const op = openOperation(sqlite, id);
  const cannotBeChecked = op.state === 'unknown' && op.next_attempt_at === NEVER;
  const state = op.state === 'unknown' && !cannotBeChecked ? 'unknown' : 'pending';
  prepared(
    sqlite,
    'UPDATE outbox SET state = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?',
  ).run(state, now, op.id);
  return toEntry(sqlite, getOperation(sqlite, id)!);
}

/** New arguments for a parked (or not yet sent) operation, checked like a new command. */
export function editOperation(sqlite: Sqlite, id: number, args: unknown, now: string): OutboxEntry {
  return sqlite.transaction(() => {
    const op = openOperation(sqlite, id);
    if (op.state === 'unknown')
      throw notAllowed(
        `Ob Vorgang ${id} angekommen ist, ist noch offen; ändern lässt er sich erst danach.`,
        `Whether operation ${id} arrived is not known yet; it can be edited once that is settled.`,
      );
    const schema = commands[op.command as WriteCommandName];
    const parsed = schema.safeParse(args);
    if (!parsed.success) throw refusedArguments(op.command, schema, args, parsed.error);
    const previous = JSON.parse(op.args) as { id?: unknown; courseId?: unknown; userId?: unknown };
    const next = parsed.data as { id?: unknown; courseId?: unknown; userId?: unknown };
    if (
      previous.id !== next.id ||
      previous.courseId !== next.courseId ||
      previous.userId !== next.userId
    )
      throw notAllowed(
        'Eine Änderung darf den Datensatz nicht wechseln (id, courseId, userId bleiben).',
        'An edit cannot move the operation to another record (id, courseId and userId stay).',
      );
    prepared(
      sqlite,
      "UPDATE outbox SET args = ?, state = 'pending', error = NULL, next_attempt_at = NULL, updated_at = ? WHERE id = ?",
    ).run(JSON.stringify(parsed.data), now, op.id);
    refreshRecord(sqlite, op.record_type, op.record_id);
    return toEntry(sqlite, getOperation(sqlite, id)!);
  })();
}

/**
 * Drops the operation (and those that wait for the record it would create), then shows the
 * record as the service has it again: its base, or nothing for a record created here.
 */
export function discardOperation(sqlite: Sqlite, id: number): { id: number; state: 'discarded' } {
  return sqlite.transaction(() => {
    const op = openOperation(sqlite, id);
    const affected: OutboxRow[] = [op];
    if (op.command.endsWith('.create')) {
      affected.push(
        ...(prepared(
          sqlite,
          "SELECT * FROM outbox WHERE state <> 'done' AND id <> ? AND instr(args, ?) > 0",
        ).all(op.id, `"${op.record_id}"`) as OutboxRow[]),
        ...(prepared(
          sqlite,
          "SELECT * FROM outbox WHERE state <> 'done' AND id <> ? AND record_type = ? AND record_id = ?",
        ).all(op.id, op.record_type, op.record_id) as OutboxRow[]),
      );
    }
    const remove = prepared(sqlite, 'DELETE FROM outbox WHERE id = ?');
    for (const each of affected) remove.run(each.id);
    for (const each of affected) refreshRecord(sqlite, each.record_type, each.record_id);
    return { id, state: 'discarded' as const };
  })();
}
