// An accident insurer (`uvt`): reference data of the course module, read whole.
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface UvtsTable extends RecordColumns {
  id: string;
  name: string | null;
  short_name: string | null;
  favorite: number | null;
}

const row = rowOf<UvtsTable>({
  name: column.text('name'),
  short_name: column.text('short_name'),
  favorite: column.flag('favorite'),
});

export const uvt = {
  type: 'uvt',
  table: 'uvts',
  keys: ['id'],
  row,
  whole: {
    collection: 'uvts',
    lane: 'courses',
    fetch: (api, signal) => api.listUvts({ signal }),
    toRow: row,
  },
} satisfies ResourceModule & { row: unknown };
