// A person's check (`ueberpruefung`, e.g. a medical check), read per person; read-only.
import type { RecordColumns } from '../db/schema';
import { childRowOf, column, flag, type Attributes } from './columns';
import type { ResourceModule } from './resource';

export interface UeberpruefungenTable extends RecordColumns {
  id: string;
  user_id: string;
  bezeichnung: string | null;
  bestanden: number | null;
  letzte_pruefung: string | null;
  naechste_pruefung: string | null;
}

export const ueberpruefung = {
  type: 'ueberpruefung',
  table: 'ueberpruefungen',
  keys: ['id'],
  references: { user_id: 'user' },
  row: childRowOf<UeberpruefungenTable>({
    user_id: column.parent('user'),
    bezeichnung: column.text('bezeichnung'),
    bestanden: (a) => flag(((a.pruefergebnis ?? {}) as Attributes).bestanden),
    letzte_pruefung: column.text('letzte_pruefung'),
    naechste_pruefung: column.text('naechste_pruefung'),
  }),
} satisfies ResourceModule & { row: unknown };
