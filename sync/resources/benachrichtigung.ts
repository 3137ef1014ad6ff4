// A notification (`benachrichtigung`): read whole; marking it read is a write.
import type { BenachrichtigungenTable } from '../db/schema';
import { column, rowOf } from './columns';
import { storedText, textOf, type WritableResource } from './resource';

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
