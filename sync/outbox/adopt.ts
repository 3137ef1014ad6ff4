// What the service answered to a write becomes the record's base; a record created offline takes
// the id the service gave it, in one transaction everywhere (DESIGN rule 4): its row, the columns
// that name it, the queued operations' paths and bodies, the conflicts, and the id map that
// translates the temporary id for anyone still holding it.
import type { Sqlite } from '../db/sqlite';
import {
  address,
  baseOf,
  company,
  courseDate,
  qualifikationRows,
  type ServiceResource,
} from '../resources';
import { prepared } from '../db/statements';
import { upsertRow, upsertRows } from '../db/upsert';
import { refreshRecord } from './local-truth';
import { writableType } from './records';

/** Gives the record created as `localId` its service id everywhere. */
export function replaceTemporaryId(
  sqlite: Sqlite,
  type: string,
  localId: string,
  serviceId: string,
  now: string,
): void {
  const entry = writableType(type);
  // Children name the new id before the parent row has it: checked at commit instead.
  prepared(sqlite, 'PRAGMA defer_foreign_keys = ON').run();
  if (type === 'course')
    prepared(sqlite, 'DELETE FROM course_dates WHERE course_id = ?').run(localId);
  const pulledMeanwhile = prepared(sqlite, `SELECT 1 FROM ${entry.table} WHERE id = ?`).get(
    serviceId,
  );
  for (const { table, column } of entry.referencedBy) {
    prepared(sqlite, `UPDATE ${table} SET ${column} = ? WHERE ${column} = ?`).run(
      serviceId,
      localId,
    );
  }
  if (pulledMeanwhile) {
    prepared(sqlite, `DELETE FROM ${entry.table} WHERE id = ?`).run(localId);
  } else {
    prepared(sqlite, `UPDATE ${entry.table} SET id = ? WHERE id = ?`).run(serviceId, localId);
  }
  prepared(sqlite, 'UPDATE outbox SET record_id = ? WHERE record_type = ? AND record_id = ?').run(
    serviceId,
    type,
    localId,
  );
  // Temporary ids are UUIDs: quoted, they cannot occur in a body by accident. The first two
  // terms are those of the index of open operations that name one (migration 12).
  prepared(
    sqlite,
    `UPDATE outbox INDEXED BY outbox_open_temporary SET args = replace(args, ?, ?)
       WHERE state <> 'done' AND instr(args, '"local-') > 0 AND instr(args, ?) > 0`,
  ).run(`"${localId}"`, `"${serviceId}"`, `"${localId}"`);
  prepared(
    sqlite,
    'UPDATE conflicts SET record_id = ? WHERE record_type = ? AND record_id = ?',
  ).run(serviceId, type, localId);
  upsertRow(sqlite, 'id_map', ['local_id'], {
    local_id: localId,
    record_type: type,
    service_id: serviceId,
    mapped_at: now,
  });
}

/**
 * The service's answer to a write as the record's new base, and what it included (a course's
 * dates and place, a participation's new company); then the record's open changes on top.
 */
export function adoptAnswer(
  sqlite: Sqlite,
  resource: ServiceResource,
  included: readonly ServiceResource[],
  type: string,
  now: string,
  template: Record<string, unknown> = {},
): void {
  const entry = writableType(type);
  const stored = prepared(sqlite, `SELECT * FROM ${entry.table} WHERE id = ?`).get(resource.id) as
    Record<string, unknown> | undefined;
  for (const item of included) {
    if (item.type === 'course_date')
      upsertRow(sqlite, 'course_dates', ['id'], courseDate.row(item, resource.id, now));
    else if (item.type === 'address')
      upsertRow(sqlite, 'addresses', ['id'], address.row(item, now));
    else if (item.type === 'company')
      upsertRow(sqlite, 'companies', ['id'], company.row(item, now));
  }
  const context = { ...template, ...stored, synced_at: now };
  upsertRow(sqlite, entry.table, ['id'], {
    ...entry.toRow(resource, context, sqlite),
    base: baseOf(resource),
    synced_at: now,
    pending: null,
    local_state: null,
  });
  // The usual case: nothing else queued for the record, and the row above is its local truth.
  const moreQueued = prepared(
    sqlite,
    "SELECT 1 FROM outbox WHERE record_type = ? AND record_id = ? AND state <> 'done' LIMIT 1",
  ).get(type, resource.id);
  if (moreQueued) refreshRecord(sqlite, type, resource.id);
  else if (type === 'user') userAnswerRows(sqlite, resource);
}

/**
 * What refreshRecord would write besides the row for a person with nothing queued, taken from the
 * answer itself instead of reading the row back and writing it a second time: the qualifications'
 * rows, and no conflict left once the person's last operation is through.
 */
function userAnswerRows(sqlite: Sqlite, resource: ServiceResource): void {
  prepared(sqlite, 'DELETE FROM conflicts WHERE record_type = ? AND record_id = ?').run(
    'user',
    resource.id,
  );
  prepared(sqlite, 'DELETE FROM qualifikationen WHERE user_id = ?').run(resource.id);
  upsertRows(sqlite, 'qualifikationen', ['user_id', 'idx'], qualifikationRows(resource), 'local');
}
