// A person's training (`ausbildung`): embedded in the person's resource or read per person, and
// writable (a trainer records one offline).
import type { RecordColumns, LocalState } from '../db/schema';
import { childRowOf, column } from './columns';
import { storedText, textOf, type WritableResource } from './resource';
import { personName } from './user';

export interface AusbildungenTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  user_id: string;
  bezeichnung: string | null;
  datum: string | null;
  gueltig_bis: string | null;
  updated_at: string | null;
}

const row = childRowOf<AusbildungenTable>({
  user_id: column.parent('user'),
  bezeichnung: column.text('bezeichnung'),
  datum: column.text('datum'),
  gueltig_bis: column.text('gueltig_bis'),
  updated_at: column.text('updated_at'),
});

export const ausbildung = {
  type: 'ausbildung',
  table: 'ausbildungen',
  keys: ['id'],
  references: { user_id: 'user' },
  row,
  label: { de: 'Ausbildung', en: 'training' },
  localRow: (r, stored) => row(r, storedText(stored, 'user_id'), storedText(stored, 'synced_at')),
  subject(read, recordId, args) {
    const stored = read.row('SELECT bezeichnung, user_id FROM ausbildungen WHERE id = ?', recordId);
    const label = textOf(stored?.bezeichnung);
    const person = personName(read, stored?.user_id ?? args.userId);
    return label || person ? { kind: 'ausbildung', label, context: person } : null;
  },
} satisfies WritableResource & { row: unknown };
