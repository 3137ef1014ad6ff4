// A course's custom field (`customfield`), read per course; writable offline.
import type { RecordColumns, LocalState } from '../db/schema';
import { childRowOf, column } from './columns';
import { courseTitle } from './course';
import { storedText, textOf, type WritableResource } from './resource';

export interface CustomfieldsTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  course_id: string;
  name: string | null;
  field_type: string | null;
  position: number | null;
}

const row = childRowOf<CustomfieldsTable>({
  course_id: column.parent('course'),
  name: column.text('name'),
  field_type: column.text('field_type'),
  position: column.number('position'),
});

export const customfield = {
  type: 'customfield',
  table: 'customfields',
  keys: ['id'],
  references: { course_id: 'course' },
  row,
  label: { de: 'Zusatzfeld', en: 'custom field' },
  createdUnder: { type: 'course', argument: 'courseId', column: 'course_id' },
  localRow: (r, stored) => row(r, storedText(stored, 'course_id'), storedText(stored, 'synced_at')),
  subject(read, recordId, args) {
    const stored = read.row('SELECT name, course_id FROM customfields WHERE id = ?', recordId);
    const label = textOf(stored?.name) ?? textOf(args.attributes?.name);
    const course = courseTitle(read, stored?.course_id ?? args.courseId);
    return label || course ? { kind: 'customfield', label, context: course } : null;
  },
  lookupCreated: ({ api, args, options }) => api.listCustomFields(args.courseId ?? '', options),
} satisfies WritableResource & { row: unknown };
