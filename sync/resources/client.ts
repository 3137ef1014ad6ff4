// A course client (`client`), a company that books courses: read whole (the office's), or
// included with the courses.
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface ClientsTable extends RecordColumns {
  id: string;
  name: string | null;
  city: string | null;
}

const row = rowOf<ClientsTable>({ name: column.text('name'), city: column.text('city') });

export const client = {
  type: 'client',
  table: 'clients',
  keys: ['id'],
  row,
  whole: {
    collection: 'clients',
    lane: 'courses',
    officeOnly: true,
    fetch: (api, signal) => api.listClients({ signal }),
    toRow: row,
  },
} satisfies ResourceModule & { row: unknown };
