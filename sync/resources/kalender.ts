// A calendar (`kalender`): read whole, writable (created and renamed offline).
import type { RecordColumns, LocalState } from '../db/schema';
import { column, rowOf } from './columns';
import { storedText, textOf, type WritableResource } from './resource';

export interface KalenderTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  name: string | null;
  farbe: string | null;
  typ: string | null;
  user_id: string | null;
}

const row = rowOf<KalenderTable>({
  name: column.text('name'),
  farbe: column.text('farbe'),
  typ: column.text('typ'),
  user_id: column.related('user'),
});

export const kalender = {
  type: 'kalender',
  table: 'kalender',
  keys: ['id'],
  references: { user_id: 'user' },
  row,
  whole: {
    collection: 'kalender',
    lane: 'reference',
    fetch: (api, signal) => api.listKalender({ signal }),
    toRow: row,
  },
  label: { de: 'Kalender', en: 'calendar' },
  localRow: (r, stored) => row(r, storedText(stored, 'synced_at')),
  subject(read, recordId, args) {
    const stored = read.row('SELECT name FROM kalender WHERE id = ?', recordId);
    const label = textOf(stored?.name) ?? textOf(args.attributes?.name);
    return label ? { kind: 'kalender', label } : null;
  },
  lookupCreated: ({ api, options }) => api.listKalender(options),
} satisfies WritableResource & { row: unknown };
