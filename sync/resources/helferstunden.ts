// An hour entry (`helferstunden`): read incrementally in date windows, writable offline; a create
// whose answer never came is looked for among the entries changed since the request.
import type { RecordColumns, LocalState } from '../db/schema';
import { column, rowOf } from './columns';
import {
  dayOf,
  numberOf,
  relationshipId,
  shiftDay,
  storedText,
  textOf,
  type WritableResource,
} from './resource';

export interface HelferstundenTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  user_id: string | null;
  anlass_id: string | null;
  typ_id: string | null;
  von: string | null;
  bis: string | null;
  stunden: number | null;
  freigegeben: number | null;
}

const row = rowOf<HelferstundenTable>({
  user_id: column.related('user'),
  anlass_id: column.related('anlass'),
  typ_id: column.related('typ'),
  von: column.text('von'),
  bis: column.text('bis'),
  stunden: column.number('stunden'),
  freigegeben: column.flag('freigegeben'),
});

export const helferstunden = {
  type: 'helferstunden',
  table: 'helferstunden',
  keys: ['id'],
  references: { user_id: 'user', anlass_id: 'helferstunden_anlass', typ_id: 'helferstunden_typ' },
  row,
  label: { de: 'Helferstunden-Eintrag', en: 'hour entry' },
  localRow: (r, stored) => row(r, storedText(stored, 'synced_at')),
  subject(read, recordId, args) {
    const given = args.attributes ?? {};
    const stored = read.row(
      'SELECT von, stunden, anlass_id FROM helferstunden WHERE id = ?',
      recordId,
    );
    const anlassId =
      (stored?.anlass_id as string | null | undefined) ?? relationshipId(args, 'anlass');
    const anlass = read.row(
      'SELECT beschreibung FROM helferstunden_anlaesse WHERE id = ?',
      anlassId ?? undefined,
    );
    const day = dayOf(stored?.von) ?? dayOf(given.von);
    const hours = numberOf(stored?.stunden) ?? numberOf(given.stunden);
    const label = textOf(anlass?.beschreibung);
    return day || hours !== null || label ? { kind: 'helferstunden', label, day, hours } : null;
  },
  lookupCreated({ api, args, since, options, selfId }) {
    const von = String(args.attributes?.von ?? '').slice(0, 10);
    const user = relationshipId(args, 'user');
    return api.listHelferstunden({
      changedSince: since,
      eigene: !user || user === selfId(),
      ...(von ? { von: shiftDay(von, -1) } : {}),
      ...options,
    });
  },
} satisfies WritableResource & { row: unknown };
