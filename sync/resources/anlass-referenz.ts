// An occasion's event, a service (`dienst`) or an appointment (`termin`), from the hour entries'
// `included`: keyed by its type and id. The registry's name is its table's, as the service has
// no single type for it.
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface AnlassReferenzenTable extends RecordColumns {
  type: string;
  id: string;
  titel: string | null;
  beginn: string | null;
  ende: string | null;
  ort: string | null;
}

export const anlassReferenz = {
  type: 'anlass_referenz',
  serviceTypes: ['dienst', 'termin'],
  table: 'anlass_referenzen',
  keys: ['type', 'id'],
  row: rowOf<AnlassReferenzenTable>({
    type: (_a, r) => r.type,
    titel: column.text('titel'),
    beginn: column.text('beginn'),
    ende: column.text('ende'),
    ort: column.text('ort'),
  }),
} satisfies ResourceModule & { row: unknown };
