// A course type (`course_type`): reference data of the course module, read whole.
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface CourseTypesTable extends RecordColumns {
  id: string;
  name: string | null;
  short_name: string | null;
}

const row = rowOf<CourseTypesTable>({
  name: column.text('name'),
  short_name: column.text('short_name'),
});

export const courseType = {
  type: 'course_type',
  table: 'course_types',
  keys: ['id'],
  row,
  whole: {
    collection: 'course_types',
    lane: 'courses',
    fetch: (api, signal) => api.listCourseTypes({ signal }),
    toRow: row,
  },
} satisfies ResourceModule & { row: unknown };
