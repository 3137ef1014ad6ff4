// An organisation a person belongs to (`organisation`), from the personnel list's `included`.
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface OrganisationsTable extends RecordColumns {
  id: string;
  name: string | null;
}

export const organisation = {
  type: 'organisation',
  table: 'organisations',
  keys: ['id'],
  row: rowOf<OrganisationsTable>({ name: column.text('name') }),
} satisfies ResourceModule & { row: unknown };
