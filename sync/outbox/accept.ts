// What follows when the service took an operation: it is done, the answer becomes the record's
// base, a temporary id is replaced; a delete's row goes, a cancellation shows in the base.
import type { Sqlite } from '../db/sqlite';
import { isLocalId } from '../contract';
import type { ServiceResource } from '../resources';
import { adoptAnswer, replaceTemporaryId } from './adopt';
import { refreshRecord, type StoredBase } from './local-truth';
import { finish, parseArgs, verbOf, type OutboxRow } from './operations';
import { writableType } from './records';
import { prepared } from '../db/statements';

/** The service took the operation: done, its answer as the base, a temporary id replaced. */
export function accept(
  sqlite: Sqlite,
  op: OutboxRow,
  data: ServiceResource | ServiceResource[] | null,
  included: readonly ServiceResource[],
  now: string,
): void {
  finish(sqlite, op.id, now);
  const resource = data && !Array.isArray(data) ? data : null;
  const verb = verbOf(op.command);
  if (verb === 'delete') {
    refreshRecord(sqlite, op.record_type, op.record_id);
    const { table } = writableType(op.record_type);
    const still = prepared(sqlite, `SELECT local_state FROM ${table} WHERE id = ?`)
      .pluck()
      .get(op.record_id) as string | null | undefined;
    if (still === null) prepared(sqlite, `DELETE FROM ${table} WHERE id = ?`).run(op.record_id);
    return;
  }
  // The service answers a cancellation (or 409: cancelled before), not the participation: its
  // status is cancelled now, so the base says so until the course's list comes again.
  if (op.command === 'participation.cancel') cancelledInBase(sqlite, op.record_type, op.record_id);
  if (!resource || resource.type === 'cancellation') {
    refreshRecord(sqlite, op.record_type, op.record_id);
    return;
  }
  const args = parseArgs(op);
  const template = args.courseId ? { course_id: args.courseId } : {};
  if (isLocalId(op.record_id) && resource.id !== op.record_id) {
    replaceTemporaryId(sqlite, op.record_type, op.record_id, resource.id, now);
  }
  adoptAnswer(sqlite, resource, included, op.record_type, now, template);
}

function cancelledInBase(sqlite: Sqlite, type: string, id: string): void {
  const { table } = writableType(type);
  const text = prepared(sqlite, `SELECT base FROM ${table} WHERE id = ?`).pluck().get(id) as
    string | null | undefined;
  if (!text) return;
  const base = JSON.parse(text) as StoredBase;
  base.attributes = { ...base.attributes, status: 'cancelled' };
  prepared(sqlite, `UPDATE ${table} SET base = ? WHERE id = ?`).run(JSON.stringify(base), id);
}
