// An occasion of hour entries (`helferstunden_anlass`), from the entries' `included`; writable
// (an entry's occasion can be made offline). The service offers no list of occasions, so a create
// whose answer never came cannot be looked for: it waits for the person to decide.
import type { RecordColumns, LocalState } from '../db/schema';
import { column, rowOf, type ServiceResource } from './columns';
import { dayOf, storedText, textOf, type WritableResource } from './resource';

export interface HelferstundenAnlaesseTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  typ: string | null;
  beschreibung: string | null;
  datum: string | null;
  referenz_type: string | null;
  referenz_id: string | null;
}

/** The occasion's `referenz` (its event), as type and id. */
const referenz = (r: ServiceResource) => {
  const data = r.relationships?.referenz?.data;
  return data && !Array.isArray(data) ? data : null;
};

const row = rowOf<HelferstundenAnlaesseTable>({
  typ: column.text('typ'),
  beschreibung: column.text('beschreibung'),
  datum: column.text('datum'),
  referenz_type: (_a, r) => referenz(r)?.type ?? null,
  referenz_id: (_a, r) => referenz(r)?.id ?? null,
});

export const helferstundenAnlass = {
  type: 'helferstunden_anlass',
  table: 'helferstunden_anlaesse',
  keys: ['id'],
  references: { referenz_id: 'anlass_referenz' },
  row,
  label: { de: 'Anlass', en: 'occasion' },
  localRow: (r, stored) => row(r, storedText(stored, 'synced_at')),
  subject(read, recordId, args) {
    const given = args.attributes ?? {};
    const stored = read.row(
      'SELECT beschreibung, datum FROM helferstunden_anlaesse WHERE id = ?',
      recordId,
    );
    const label = textOf(stored?.beschreibung) ?? textOf(given.beschreibung);
    const day = dayOf(stored?.datum) ?? dayOf(given.datum);
    return label || day ? { kind: 'helferstunden_anlass', label, day } : null;
  },
} satisfies WritableResource & { row: unknown };
