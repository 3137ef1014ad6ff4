// A course's participant (`participation`), read per course; writable offline (registered,
// marked present, cancelled).
import type { RecordColumns, LocalState } from '../db/schema';
import { childRowOf, column } from './columns';
import { courseTitle } from './course';
import { fullName, storedText, type WritableResource } from './resource';

export interface ParticipationsTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  course_id: string;
  first_name: string | null;
  last_name: string | null;
  status: string | null;
  attended: number | null;
  company_id: string | null;
  uvt_id: string | null;
  client_id: string | null;
  user_id: string | null;
}

const row = childRowOf<ParticipationsTable>({
  course_id: column.parent('course'),
  first_name: column.text('first_name'),
  last_name: column.text('last_name'),
  status: column.text('status'),
  attended: column.flag('attended'),
  company_id: column.related('company'),
  uvt_id: column.related('uvt'),
  client_id: column.related('client'),
  user_id: column.related('user'),
});

export const participation = {
  type: 'participation',
  table: 'participations',
  keys: ['id'],
  references: {
    course_id: 'course',
    user_id: 'user',
    company_id: 'company',
    uvt_id: 'uvt',
    client_id: 'client',
  },
  row,
  label: { de: 'Teilnahme', en: 'participation' },
  createdUnder: { type: 'course', argument: 'courseId', column: 'course_id' },
  localRow: (r, stored) => row(r, storedText(stored, 'course_id'), storedText(stored, 'synced_at')),
  refusesChange: (stored, id) =>
    stored.status === 'cancelled'
      ? {
          de: `Die Teilnahme ${id} ist abgemeldet und lässt sich nicht mehr ändern.`,
          en: `Participation ${id} is cancelled and cannot be changed any more.`,
        }
      : null,
  subject(read, recordId, args) {
    const given = args.attributes ?? {};
    const stored = read.row(
      'SELECT first_name, last_name, course_id FROM participations WHERE id = ?',
      recordId,
    );
    const label =
      fullName(stored?.first_name, stored?.last_name) ??
      fullName(given.first_name, given.last_name);
    const course = courseTitle(read, stored?.course_id ?? args.courseId);
    return label || course ? { kind: 'participation', label, context: course } : null;
  },
  lookupCreated: ({ api, args, options }) => api.listParticipations(args.courseId ?? '', options),
} satisfies WritableResource & { row: unknown };
