// The writable resource types of the service and how each is kept in the replica: its table, the
// columns elsewhere that hold its ids (where a temporary id is replaced), and the row of a
// resource. The one place these facts live for the outbox; the pull's mappers do the mapping.
import type { Sqlite } from '../db/sqlite';
import {
  ausbildungRow,
  benachrichtigungRow,
  courseRow,
  customfieldRow,
  helferstundenRow,
  kalenderRow,
  anlassRow,
  participationRow,
  userRow,
  type ServiceResource,
} from '../db/rows';
import type { RowValues } from '../db/writer';
import { prepared } from './statements';

export type WritableTable =
  | 'users'
  | 'ausbildungen'
  | 'kalender'
  | 'helferstunden'
  | 'helferstunden_anlaesse'
  | 'benachrichtigungen'
  | 'courses'
  | 'participations'
  | 'customfields';

export interface WritableType {
  type: string;
  table: WritableTable;
  /** Columns of other tables that name records of this type (a temporary id is replaced there). */
  referencedBy: readonly { table: string; column: string }[];
  /**
   * The replica row of a resource (the service's version with local changes on top). `stored`
   * is the row as it is, for what the resource itself may not name (its course, its person).
   */
  toRow(
    resource: ServiceResource,
    stored: Record<string, unknown> | undefined,
    sqlite: Sqlite,
  ): RowValues;
}

const parent = (stored: Record<string, unknown> | undefined, column: string) =>
  typeof stored?.[column] === 'string' ? (stored[column] as string) : '';
const syncedAt = (stored: Record<string, unknown> | undefined) =>
  typeof stored?.synced_at === 'string' ? stored.synced_at : '';

/** The course's dates as the replica has them (a local course's dates come from its own row set). */
function courseDates(sqlite: Sqlite, courseId: string): ServiceResource[] {
  const rows = prepared(
    sqlite,
    'SELECT id, date_from, date_to FROM course_dates WHERE course_id = ?',
  ).all(courseId) as { id: string; date_from: string | null; date_to: string | null }[];
  return rows.map((row) => ({
    type: 'course_date',
    id: row.id,
    attributes: { from: row.date_from, to: row.date_to },
  }));
}

const list: WritableType[] = [
  {
    type: 'user',
    table: 'users',
    referencedBy: [
      { table: 'ausbildungen', column: 'user_id' },
      { table: 'ueberpruefungen', column: 'user_id' },
      { table: 'ehrungen', column: 'user_id' },
      { table: 'qualifikationen', column: 'user_id' },
      { table: 'helferstunden', column: 'user_id' },
      { table: 'kalender', column: 'user_id' },
      { table: 'participations', column: 'user_id' },
      { table: 'course_trainers', column: 'user_id' },
    ],
    toRow: (r, stored) => userRow(r, syncedAt(stored)),
  },
  {
    type: 'ausbildung',
    table: 'ausbildungen',
    referencedBy: [],
    toRow: (r, stored) => ausbildungRow(r, parent(stored, 'user_id'), syncedAt(stored)),
  },
  {
    type: 'kalender',
    table: 'kalender',
    referencedBy: [],
    toRow: (r, stored) => kalenderRow(r, syncedAt(stored)),
  },
  {
    type: 'helferstunden',
    table: 'helferstunden',
    referencedBy: [],
    toRow: (r, stored) => helferstundenRow(r, syncedAt(stored)),
  },
  {
    type: 'helferstunden_anlass',
    table: 'helferstunden_anlaesse',
    referencedBy: [{ table: 'helferstunden', column: 'anlass_id' }],
    toRow: (r, stored) => anlassRow(r, syncedAt(stored)),
  },
  {
    type: 'benachrichtigung',
    table: 'benachrichtigungen',
    referencedBy: [],
    toRow: (r, stored) => benachrichtigungRow(r, syncedAt(stored)),
  },
  {
    type: 'course',
    table: 'courses',
    referencedBy: [
      { table: 'participations', column: 'course_id' },
      { table: 'customfields', column: 'course_id' },
      { table: 'course_dates', column: 'course_id' },
      { table: 'course_trainers', column: 'course_id' },
    ],
    toRow: (r, stored, sqlite) => courseRow(r, courseDates(sqlite, r.id), syncedAt(stored)),
  },
  {
    type: 'participation',
    table: 'participations',
    referencedBy: [],
    toRow: (r, stored) => participationRow(r, parent(stored, 'course_id'), syncedAt(stored)),
  },
  {
    type: 'customfield',
    table: 'customfields',
    referencedBy: [],
    toRow: (r, stored) => customfieldRow(r, parent(stored, 'course_id'), syncedAt(stored)),
  },
];

export const WRITABLE_TYPES: ReadonlyMap<string, WritableType> = new Map(
  list.map((entry) => [entry.type, entry]),
);
export const WRITABLE_TABLES: ReadonlyMap<string, WritableType> = new Map(
  list.map((entry) => [entry.table, entry]),
);

export function writableType(type: string): WritableType {
  const entry = WRITABLE_TYPES.get(type);
  if (!entry) throw new Error(`${type} is not a writable resource type`);
  return entry;
}

/** Temporary ids (the contract's `isLocalId` checks one) where they stand in a JSON text. */
export const TEMPORARY_IDS_IN_TEXT =
  /local-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
