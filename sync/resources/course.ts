// A course (`course`): read in the sync's window with its dates, writable offline (created with
// its dates and trainers). Its first and last day come from its dates, not its own resource.
import type { RecordColumns, LocalState } from '../db/schema';
import {
  attributesOf,
  baseOf,
  number,
  relatedId,
  text,
  type Row,
  type ServiceResource,
} from './columns';
import {
  shiftDay,
  storedText,
  textOf,
  type ReplicaReader,
  type WritableResource,
  type WriteArgs,
} from './resource';

export interface CoursesTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  title: string | null;
  course_number: string | null;
  status: string | null;
  course_type_id: string | null;
  client_id: string | null;
  location_id: string | null;
  first_date: string | null;
  last_date: string | null;
  max_participants: number | null;
  number_of_participants: number | null;
}

/** A course row; its first and last date come from the included course_date resources. */
function row(
  r: ServiceResource,
  dates: readonly ServiceResource[],
  syncedAt: string,
): Row<CoursesTable> {
  const a = attributesOf(r);
  const starts = dates
    .map((d) => text(attributesOf(d).from))
    .filter((v): v is string => v !== null)
    .sort();
  const ends = dates
    .map((d) => text(attributesOf(d).to) ?? text(attributesOf(d).from))
    .filter((v): v is string => v !== null)
    .sort();
  return {
    id: r.id,
    title: text(a.title),
    course_number: text(a.course_number),
    status: text(a.status),
    course_type_id: relatedId(r, 'course_type'),
    client_id: relatedId(r, 'client'),
    location_id: relatedId(r, 'location'),
    first_date: starts[0] ?? null,
    last_date: ends[ends.length - 1] ?? null,
    max_participants: number(a.max_participants),
    number_of_participants: number(a.number_of_participants),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

/** The course's dates as the replica has them (a local course's dates come from its own row set). */
function storedDates(read: ReplicaReader, courseId: string): ServiceResource[] {
  const rows = read.rows(
    'SELECT id, date_from, date_to FROM course_dates WHERE course_id = ?',
    courseId,
  );
  return rows.map((stored) => ({
    type: 'course_date',
    id: String(stored.id),
    attributes: { from: stored.date_from, to: stored.date_to },
  }));
}

/** A course's title as the replica has it. */
export const courseTitle = (read: ReplicaReader, id: unknown) =>
  typeof id === 'string'
    ? textOf(read.row('SELECT title FROM courses WHERE id = ?', id)?.title)
    : null;

/** The first day of the dates a course create sends. */
function firstDate(args: WriteArgs): string | undefined {
  const dates = (args.included ?? [])
    .filter((item) => item.type === 'course_date')
    .map((item) => String(item.attributes?.from ?? '').slice(0, 10))
    .filter(Boolean)
    .sort();
  return dates[0];
}

export const course = {
  type: 'course',
  table: 'courses',
  keys: ['id'],
  referencedBy: [{ table: 'course_trainers', column: 'course_id' }],
  references: { location_id: 'address', course_type_id: 'course_type', client_id: 'client' },
  row,
  label: { de: 'Kurs', en: 'course' },
  localRow: (r, stored, read) => row(r, storedDates(read, r.id), storedText(stored, 'synced_at')),
  subject(read, recordId, args) {
    const stored = read.row('SELECT title, course_number FROM courses WHERE id = ?', recordId);
    const label = textOf(stored?.title) ?? textOf(args.attributes?.title);
    return label ? { kind: 'course', label, context: textOf(stored?.course_number) } : null;
  },
  lookupCreated({ api, args, options }) {
    const first = firstDate(args);
    if (!first) return { cannotTell: 'a course without dates cannot be found by its dates' };
    return api.listCourses({ from: shiftDay(first, -1), until: shiftDay(first, 2), ...options });
  },
} satisfies WritableResource & { row: unknown };
