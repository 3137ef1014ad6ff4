// A course type (`course_type`): reference data of the course module, read whole.
import type { CourseTypesTable } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export const courseType = {
  type: 'course_type',
  table: 'course_types',
  keys: ['id'],
  row: rowOf<CourseTypesTable>({
    name: column.text('name'),
    short_name: column.text('short_name'),
  }),
} satisfies ResourceModule & { row: unknown };
