// A notification (`benachrichtigung`): read whole; marking it read is a write.
import type { RecordColumns, LocalState } from '../db/schema';
import { column, rowOf } from './columns';
import { storedText, textOf, type WritableResource } from './resource';

export interface BenachrichtigungenTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  titel: string | null;
  kategorie: string | null;
  gelesen: number | null;
  erstellt_am: string | null;
}

const row = rowOf<BenachrichtigungenTable>({
  titel: column.text('titel'),
  kategorie: column.text('kategorie'),
  gelesen: column.flag('gelesen'),
  erstellt_am: column.text('erstellt_am'),
});

export const benachrichtigung = {
  type: 'benachrichtigung',
  table: 'benachrichtigungen',
  keys: ['id'],
  row,
  whole: {
    collection: 'benachrichtigungen',
    lane: 'reference',
    onRequest: true,
    fetch: (api, signal) => api.listBenachrichtigungen({ signal }),
    toRow: row,
  },
  label: { de: 'Benachrichtigung', en: 'notification' },
  localRow: (r, stored) => row(r, storedText(stored, 'synced_at')),
  subject(read, recordId) {
    const stored = read.row('SELECT titel FROM benachrichtigungen WHERE id = ?', recordId);
    const label = textOf(stored?.titel);
    return label ? { kind: 'benachrichtigung', label } : null;
  },
} satisfies WritableResource & { row: unknown };
