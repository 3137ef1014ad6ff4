// An hour type (`helferstunden_typ`), from the hour settings and the entries' `included`. Its
// `aktiv` is derived: a type is active while the own settings list it (see sync/db/writer.ts).
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface HelferstundenTypenTable extends RecordColumns {
  id: string;
  bezeichnung: string | null;
  aktiv: number | null;
}

export const helferstundenTyp = {
  type: 'helferstunden_typ',
  table: 'helferstunden_typen',
  keys: ['id'],
  row: rowOf<HelferstundenTypenTable>({
    bezeichnung: column.text('bezeichnung'),
    aktiv: column.flag('aktiv'),
  }),
} satisfies ResourceModule & { row: unknown };
