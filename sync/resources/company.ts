// A participant's company (`company`), included with the participations.
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface CompaniesTable extends RecordColumns {
  id: string;
  name: string | null;
  uvt_id: string | null;
}

export const company = {
  type: 'company',
  table: 'companies',
  keys: ['id'],
  references: { uvt_id: 'uvt' },
  row: rowOf<CompaniesTable>({ name: column.text('name'), uvt_id: column.related('uvt') }),
} satisfies ResourceModule & { row: unknown };
