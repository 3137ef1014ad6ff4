// A course client (`client`), a company that books courses: read whole (the office's), or
// included with the courses.
import type { ClientsTable } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export const client = {
  type: 'client',
  table: 'clients',
  keys: ['id'],
  row: rowOf<ClientsTable>({ name: column.text('name'), city: column.text('city') }),
} satisfies ResourceModule & { row: unknown };
