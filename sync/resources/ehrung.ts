// A person's honour (`ehrung`), read per person; read-only.
import type { RecordColumns } from '../db/schema';
import { childRowOf, column } from './columns';
import type { ResourceModule } from './resource';

export interface EhrungenTable extends RecordColumns {
  id: string;
  user_id: string;
  bezeichnung: string | null;
  datum: string | null;
}

export const ehrung = {
  type: 'ehrung',
  table: 'ehrungen',
  keys: ['id'],
  references: { user_id: 'user' },
  row: childRowOf<EhrungenTable>({
    user_id: column.parent('user'),
    bezeichnung: column.text('bezeichnung'),
    datum: column.text('datum'),
  }),
} satisfies ResourceModule & { row: unknown };
