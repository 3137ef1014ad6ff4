// Pulls rebase on local changes (DESIGN rule 2): the pull writes the service's version as the
// base and the open operations go back on top, so a pull never overwrites a field with a local
// change. A field changed on both sides since the base, and a record deleted on the service
// while it has local changes, are conflicts: kept, listed and resolved by a person per field.
import type { Sqlite } from '../db/sqlite';
import type { ConflictEntry } from '../contract';
import { notAllowed, notFound } from '../core-error';
import type { LocalRecordHooks } from '../db/writer';
import {
  effectOf,
  foldChanges,
  openOperations,
  refreshRecord,
  type StoredBase,
} from './local-truth';
import { finish, mayHaveArrived, parseArgs, setState, verbOf } from './operations';
import { WRITABLE_TABLES, writableType } from './records';
import { sameValue } from './requests';
import { prepared } from '../db/statements';
import { outboxSubject } from './subject';

/** The whole record, for a record deleted on the service. */
const WHOLE_RECORD = '*';

/** The hooks the pull's writer calls for records with local changes. */
export function localRecordHooks(sqlite: Sqlite, now: () => string): LocalRecordHooks {
  return {
    tables: new Set(WRITABLE_TABLES.keys()),
    rebase(table, id, previousBase) {
      const entry = WRITABLE_TABLES.get(table);
      if (entry) rebaseRecord(sqlite, entry.type, id, previousBase, now());
    },
    removable(table, ids) {
      const entry = WRITABLE_TABLES.get(table);
      if (!entry || ids.length === 0) return [...ids];
      const state = prepared(sqlite, `SELECT local_state FROM ${table} WHERE id = ?`).pluck();
      return ids.filter((id) => {
        const local = state.get(id) as string | null | undefined;
        if (local === 'changed') recordDeletedOnService(sqlite, entry.type, id, now());
        // Created here and not sent yet, or changed here: not the service's to remove.
        return local !== 'created' && local !== 'changed';
      });
    },
  };
}

function rebaseRecord(
  sqlite: Sqlite,
  type: string,
  id: string,
  previousBase: string,
  now: string,
): void {
  const { table } = writableType(type);
  const current = prepared(sqlite, `SELECT base FROM ${table} WHERE id = ?`).pluck().get(id) as
    string | undefined;
  const ops = openOperations(sqlite, type, id);
  const changes = foldChanges(ops);
  if (current && changes && current !== previousBase) {
    const before = JSON.parse(previousBase) as StoredBase;
    const after = JSON.parse(current) as StoredBase;
    // What each open operation set: an earlier one may have reached the service with its answer
    // lost (outcome unknown), and the service holding our own value is no one else's change.
    // Only operations that were tried: one never sent cannot have put its value there.
    const ownValues = ops
      .filter(mayHaveArrived)
      .map((op) => effectOf(op.command, parseArgs(op)).attributes);
    for (const [field, mine] of Object.entries(changes.attributes)) {
      const theirs = after.attributes[field];
      // Unchanged there in this pull: an earlier conflict of the field, if any, stands.
      if (sameValue(before.attributes[field], theirs)) continue;
      if (
        sameValue(theirs, mine) ||
        ownValues.some((own) => field in own && sameValue(own[field], theirs))
      ) {
        dropConflict(sqlite, type, id, field);
        continue;
      }
      saveConflict(sqlite, {
        type,
        id,
        field,
        kind: 'changed',
        base: before.attributes[field],
        mine,
        theirs,
        now,
      });
    }
  }
  // On the service again: a conflict "deleted there" is over.
  dropConflict(sqlite, type, id, WHOLE_RECORD);
  refreshRecord(sqlite, type, id);
}

function dropConflict(sqlite: Sqlite, type: string, id: string, field: string) {
  prepared(
    sqlite,
    'DELETE FROM conflicts WHERE record_type = ? AND record_id = ? AND field = ?',
  ).run(type, id, field);
}

function recordDeletedOnService(sqlite: Sqlite, type: string, id: string, now: string): void {
  const changes = foldChanges(openOperations(sqlite, type, id));
  saveConflict(sqlite, {
    type,
    id,
    field: WHOLE_RECORD,
    kind: 'deleted',
    base: null,
    mine: changes?.attributes ?? null,
    theirs: null,
    now,
  });
}

function saveConflict(
  sqlite: Sqlite,
  c: {
    type: string;
    id: string;
    field: string;
    kind: 'changed' | 'deleted';
    base: unknown;
    mine: unknown;
    theirs: unknown;
    now: string;
  },
): void {
  prepared(
    sqlite,
    `INSERT INTO conflicts (record_type, record_id, field, kind, base, mine, theirs, detected_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (record_type, record_id, field) DO UPDATE SET kind = excluded.kind,
         mine = excluded.mine, theirs = excluded.theirs, detected_at = excluded.detected_at`,
  ).run(
    c.type,
    c.id,
    c.field,
    c.kind,
    JSON.stringify(c.base ?? null),
    JSON.stringify(c.mine ?? null),
    JSON.stringify(c.theirs ?? null),
    c.now,
  );
}

interface ConflictRow {
  id: number;
  record_type: string;
  record_id: string;
  field: string;
  kind: 'changed' | 'deleted';
  base: string | null;
  mine: string | null;
  theirs: string | null;
  detected_at: string;
}

export function listConflicts(sqlite: Sqlite): ConflictEntry[] {
  const rows = prepared(sqlite, 'SELECT * FROM conflicts ORDER BY id').all() as ConflictRow[];
  const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));
  return rows.map((row) => ({
    id: row.id,
    recordType: row.record_type,
    recordId: row.record_id,
    field: row.field,
    kind: row.kind,
    base: parse(row.base),
    mine: parse(row.mine),
    theirs: parse(row.theirs),
    detectedAt: row.detected_at,
    subject: outboxSubject(sqlite, row.record_type, row.record_id, {}),
  }));
}

/**
 * Takes one side. Mine: the local value stays queued and goes as a PATCH (a parked operation of
 * the record is tried again). Theirs: the local change of that field is dropped (an update left
 * with nothing is done); for a deleted record, all its local changes and the row go.
 */
export function resolveConflict(
  sqlite: Sqlite,
  id: number,
  take: 'mine' | 'theirs',
  now: string,
): { id: number; resolved: true; sent: boolean } {
  return sqlite.transaction(() => {
    const conflict = prepared(sqlite, 'SELECT * FROM conflicts WHERE id = ?').get(id) as
      ConflictRow | undefined;
    if (!conflict) throw notFound(`Kein Konflikt ${id}.`, `No conflict ${id}.`);
    const ops = openOperations(sqlite, conflict.record_type, conflict.record_id).filter(
      (op) => op.state !== 'in_flight',
    );
    if (conflict.kind === 'deleted' && take === 'mine') {
      throw notAllowed(
        'Der Datensatz ist im Dienst gelöscht; die eigenen Änderungen lassen sich nur als neuer Datensatz erhalten. Bitte neu anlegen oder „theirs“ wählen.',
        'The record was deleted on the service; local changes can only live on as a new record. Create it again, or take theirs.',
      );
    }
    if (conflict.kind === 'deleted') {
      for (const op of ops) finish(sqlite, op.id, now);
      const { table } = writableType(conflict.record_type);
      sqlite.prepare(`DELETE FROM ${table} WHERE id = ?`).run(conflict.record_id);
    } else if (take === 'theirs') {
      for (const op of ops) dropField(sqlite, op, conflict.field, now);
      refreshRecord(sqlite, conflict.record_type, conflict.record_id);
    } else {
      for (const op of ops) {
        if (op.state === 'parked') setState(sqlite, op.id, 'pending', now);
      }
    }
    prepared(sqlite, 'DELETE FROM conflicts WHERE id = ?').run(id);
    return { id, resolved: true as const, sent: take === 'mine' && ops.length > 0 };
  })();
}

function dropField(
  sqlite: Sqlite,
  op: ReturnType<typeof openOperations>[number],
  field: string,
  now: string,
): void {
  const args = parseArgs(op);
  if (!args.attributes || !(field in args.attributes)) return;
  delete args.attributes[field];
  const effect = effectOf(op.command, args);
  const empty =
    verbOf(op.command) === 'update' &&
    Object.keys(effect.attributes).length === 0 &&
    effect.qualifikationen.length === 0 &&
    Object.keys(args.relationships ?? {}).length === 0 &&
    !args.included?.length;
  if (empty) finish(sqlite, op.id, now);
  else
    prepared(sqlite, 'UPDATE outbox SET args = ?, updated_at = ? WHERE id = ?').run(
      JSON.stringify(args),
      now,
      op.id,
    );
}
