// Local truth (DESIGN rule 2): a record's row is the service's last version (its base) with the
// changes of its open outbox operations on top. The changes are always folded from the outbox,
// never kept apart, so whatever happens to an operation (sent, coalesced, edited, discarded) the
// row follows by calling refreshRecord.
import type { Sqlite } from '../db/sqlite';
import { applyQualificationEdits, qualifikationRows, type ServiceResource } from '../resources';
import { prepared } from '../db/statements';
import { upsertRow, upsertRows, type RowValues } from '../db/upsert';
import { writableType } from './records';
import { parseArgs, verbOf, type OutboxRow, type WriteArgs } from './operations';
import { sameValue } from './requests';

/** What the open operations of one record change, folded in order. */
export interface LocalChanges {
  created: boolean;
  deleted: boolean;
  attributes: Record<string, unknown>;
  relationships: Record<string, unknown>;
  /** Qualification edits (user): applied to the base's list, sent as they are. */
  qualifikationen: Record<string, unknown>[];
}

export interface StoredBase {
  attributes: Record<string, unknown>;
  relationships: Record<string, unknown>;
}

export const EMPTY_BASE = JSON.stringify({ attributes: {}, relationships: {} });

/** The local effect of one operation's arguments. */
export function effectOf(
  command: string,
  args: WriteArgs,
): Pick<LocalChanges, 'attributes' | 'relationships' | 'qualifikationen'> {
  const { qualifikationen, ...attributes } = args.attributes ?? {};
  const relationships: Record<string, unknown> = { ...(args.relationships ?? {}) };
  if (command === 'participation.create' || command === 'customfield.create') {
    relationships.course = { data: { type: 'course', id: args.courseId } };
  }
  // A PUT by member number names the person by it; one it creates gets it from the path.
  if (command === 'user.upsert' && args.identifierName === 'mitgliednr')
    attributes.mitgliednr ??= args.identifierValue;
  if (command === 'participation.cancel') {
    return { attributes: { status: 'cancelled' }, relationships: {}, qualifikationen: [] };
  }
  return {
    attributes,
    relationships,
    qualifikationen: Array.isArray(qualifikationen)
      ? (qualifikationen as Record<string, unknown>[])
      : [],
  };
}

export function foldChanges(ops: readonly OutboxRow[]): LocalChanges | null {
  if (ops.length === 0) return null;
  const changes: LocalChanges = {
    created: false,
    deleted: false,
    attributes: {},
    relationships: {},
    qualifikationen: [],
  };
  for (const op of ops) {
    const verb = verbOf(op.command);
    if (verb === 'delete') {
      changes.deleted = true;
      continue;
    }
    if (verb === 'create' || verb === 'upsert') changes.created = true;
    const effect = effectOf(op.command, parseArgs(op));
    Object.assign(changes.attributes, effect.attributes);
    Object.assign(changes.relationships, effect.relationships);
    changes.qualifikationen.push(...effect.qualifikationen);
  }
  return changes;
}

export function mergedResource(
  type: string,
  id: string,
  base: StoredBase,
  changes: LocalChanges | null,
): ServiceResource {
  if (!changes)
    return {
      type,
      id,
      attributes: base.attributes,
      relationships: base.relationships as ServiceResource['relationships'],
    };
  const attributes = { ...base.attributes, ...changes.attributes };
  if (changes.qualifikationen.length > 0) {
    attributes.qualifikationen = applyQualificationEdits(
      base.attributes.qualifikationen,
      changes.qualifikationen,
    );
  }
  return {
    type,
    id,
    attributes,
    relationships: {
      ...base.relationships,
      ...changes.relationships,
    } as ServiceResource['relationships'],
  };
}

export function openOperations(sqlite: Sqlite, type: string, id: string): OutboxRow[] {
  return prepared(
    sqlite,
    "SELECT * FROM outbox WHERE record_type = ? AND record_id = ? AND state <> 'done' ORDER BY id",
  ).all(type, id) as OutboxRow[];
}

/**
 * Rewrites the record's row from its base and its open operations: the query columns, `pending`
 * and `local_state`. A record created locally whose operations are all gone (discarded, or
 * created and deleted before it was sent) is removed. `template` gives a new row its parent
 * columns (a participation's course).
 */
export function refreshRecord(
  sqlite: Sqlite,
  type: string,
  id: string,
  template: Record<string, unknown> = {},
): void {
  const entry = writableType(type);
  const stored = prepared(sqlite, `SELECT * FROM ${entry.table} WHERE id = ?`).get(id) as
    Record<string, unknown> | undefined;
  const changes = foldChanges(openOperations(sqlite, type, id));
  settleConflicts(sqlite, type, id, changes);
  const neverSent = !stored || stored.synced_at === '';
  if (neverSent && !changes?.created) {
    if (stored) prepared(sqlite, `DELETE FROM ${entry.table} WHERE id = ?`).run(id);
    return;
  }
  const baseText = typeof stored?.base === 'string' ? stored.base : EMPTY_BASE;
  const base = JSON.parse(baseText) as StoredBase;
  const resource = mergedResource(type, id, base, changes);
  const context = { ...template, ...stored, synced_at: stored?.synced_at ?? '' };
  const row: RowValues = {
    ...entry.toRow(resource, context, sqlite),
    base: baseText,
    synced_at: String(context.synced_at),
    pending: changes ? JSON.stringify(changes) : null,
    local_state: !changes ? null : changes.deleted ? 'deleted' : neverSent ? 'created' : 'changed',
  };
  upsertRow(sqlite, entry.table, ['id'], row);
  if (type === 'user') {
    prepared(sqlite, 'DELETE FROM qualifikationen WHERE user_id = ?').run(id);
    upsertRows(sqlite, 'qualifikationen', ['user_id', 'idx'], qualifikationRows(resource), 'local');
  }
}

/**
 * Keeps a record's conflicts true to its open operations: none left (sent, discarded), or none
 * changing the field any more, and the conflict is gone; a newer local value of the field is the
 * conflict's "mine"; the same value as the service's ends it. A stale conflict would hold back,
 * or on "theirs" drop, a later change of the record.
 */
function settleConflicts(
  sqlite: Sqlite,
  type: string,
  id: string,
  changes: LocalChanges | null,
): void {
  const conflicts = prepared(
    sqlite,
    "SELECT id, field, theirs FROM conflicts WHERE record_type = ? AND record_id = ? AND kind = 'changed'",
  ).all(type, id) as { id: number; field: string; theirs: string | null }[];
  if (!changes) {
    prepared(sqlite, 'DELETE FROM conflicts WHERE record_type = ? AND record_id = ?').run(type, id);
    return;
  }
  for (const conflict of conflicts) {
    const mine = changes.attributes[conflict.field];
    const theirs = conflict.theirs === null ? null : (JSON.parse(conflict.theirs) as unknown);
    if (!(conflict.field in changes.attributes) || sameValue(mine, theirs))
      prepared(sqlite, 'DELETE FROM conflicts WHERE id = ?').run(conflict.id);
    else
      prepared(sqlite, 'UPDATE conflicts SET mine = ? WHERE id = ?').run(
        JSON.stringify(mine ?? null),
        conflict.id,
      );
  }
}
