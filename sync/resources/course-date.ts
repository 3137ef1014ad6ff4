// A course's date (`course_date`), included with its course; replaced with the course's dates.
import type { RecordColumns } from '../db/schema';
import { childRowOf, column } from './columns';
import type { ResourceModule } from './resource';

export interface CourseDatesTable extends RecordColumns {
  id: string;
  course_id: string;
  date_from: string | null;
  date_to: string | null;
}

export const courseDate = {
  type: 'course_date',
  table: 'course_dates',
  keys: ['id'],
  references: { course_id: 'course' },
  row: childRowOf<CourseDatesTable>({
    course_id: column.parent('course'),
    date_from: column.text('from'),
    date_to: column.text('to'),
  }),
} satisfies ResourceModule & { row: unknown };
