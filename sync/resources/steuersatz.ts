// A tax rate (`steuersatz`): reference data, read whole.
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface SteuersaetzeTable extends RecordColumns {
  id: string;
  bezeichnung: string | null;
  satz: number | null;
  gueltig_ab: string | null;
}

const row = rowOf<SteuersaetzeTable>({
  bezeichnung: column.text('bezeichnung'),
  satz: column.number('satz'),
  gueltig_ab: column.text('gueltig_ab'),
});

export const steuersatz = {
  type: 'steuersatz',
  table: 'steuersaetze',
  keys: ['id'],
  row,
  whole: {
    collection: 'steuersaetze',
    lane: 'reference',
    fetch: (api, signal) => api.listSteuersaetze({ signal }),
    toRow: row,
  },
} satisfies ResourceModule & { row: unknown };
