// A person (`user`, table users): the personnel list's row, the qualifications and trainings a
// person's resource embeds, and the outbox's hooks (a person can be created and changed offline).
import type { RecordColumns, LocalState } from '../db/schema';
import {
  attributesOf,
  column,
  type Attributes,
  number,
  rowOf,
  searchKey,
  text,
  type ServiceResource,
} from './columns';
import { foldForSearch } from '../contract/search-text';
import { fullName, storedText, type ReplicaReader, type WritableResource } from './resource';

export interface UsersTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  vorname: string;
  nachname: string;
  /** Lower-cased "nachname vorname", the personnel list's sort key. */
  sort_name: string;
  /** Lower-cased "vorname nachname", for first-name prefix search. */
  first_name_key: string;
  status: string | null;
  email: string | null;
  mitgliednr: string | null;
  ort: string | null;
  organisation_id: string | null;
  /** What a search finds the person by (see sync/resources/user.ts, searchTextOf). */
  search_text: string;
  /** The person's groups (`gruppen_namen`) as a JSON array; null when none. */
  gruppen: string | null;
  details_watermark: string | null;
  /** 1 when the user resource came without embedded trainings: they are fetched per person. */
  trainings_from_endpoint: number;
  trainings_watermark: string | null;
}

export interface QualifikationenTable {
  user_id: string;
  idx: number;
  position: string | null;
  liste: string | null;
  name: string | null;
  name_kurz: string | null;
  rang: number | null;
  erwerb_datum: string | null;
}

const row = rowOf<
  UsersTable,
  'details_watermark' | 'trainings_from_endpoint' | 'trainings_watermark'
>({
  vorname: (a) => text(a.vorname) ?? '',
  nachname: (a) => text(a.nachname) ?? '',
  sort_name: (a) => searchKey(text(a.nachname) ?? '', text(a.vorname) ?? ''),
  first_name_key: (a) => searchKey(text(a.vorname) ?? '', text(a.nachname) ?? ''),
  status: column.text('status'),
  email: column.text('email'),
  mitgliednr: column.text('mitgliednr'),
  ort: column.text('ort'),
  organisation_id: column.related('organisation'),
  search_text: searchTextOf,
  gruppen: (a) => {
    const groups = Array.isArray(a.gruppen_namen) ? a.gruppen_namen.map(text).filter(Boolean) : [];
    return groups.length ? JSON.stringify(groups) : null;
  },
});

/** The attributes a search finds a person by besides the names, and the phone numbers among them. */
const SEARCHED = ['mitgliednr', 'email', 'telpriv', 'teldienst', 'handy'] as const;
const PHONES = ['telpriv', 'teldienst', 'handy'] as const;

/**
 * The haystack of the personnel search (users_search, trigrams), folded: the names, member
 * number, e-mail and phone numbers, the numbers also as digits only so that "0171123" finds
 * "0171 / 123". Migration 7 fills the people held before it alike.
 */
export function searchTextOf(a: Attributes): string {
  const values = [text(a.vorname), text(a.nachname), ...SEARCHED.map((name) => text(a[name]))];
  const digits = PHONES.map((name) => text(a[name])?.replace(/[^0-9]/g, ''));
  // Folded as a search is (the trigrams' own folding keeps ß; a short word is compared as is).
  return foldForSearch([...values, ...digits].filter(Boolean).join(' '));
}

/** The qualifications embedded in a user resource, one row each. */
export function qualifikationRows(user: ServiceResource): QualifikationenTable[] {
  const list = attributesOf(user).qualifikationen;
  if (!Array.isArray(list)) return [];
  const entries = list.filter(
    (entry): entry is Record<string, unknown> =>
      typeof entry === 'object' && entry !== null && !Array.isArray(entry),
  );
  return entries.map((q, idx) => ({
    user_id: user.id,
    idx,
    position: text(q.position),
    liste: text(q.liste),
    name: text(q.name),
    name_kurz: text(q.name_kurz),
    rang: number(q.rang),
    erwerb_datum: text(q.erwerb_datum),
  }));
}

/** The trainings embedded in a user resource (`ausbildungen`), as training resources. */
export function embeddedAusbildungen(user: ServiceResource): ServiceResource[] {
  const list = attributesOf(user).ausbildungen;
  if (!Array.isArray(list)) return [];
  return list
    .filter(
      (entry): entry is Record<string, unknown> =>
        !!entry && typeof entry === 'object' && 'id' in entry,
    )
    .map((entry) => {
      const { id, ...attributes } = entry;
      return {
        type: 'ausbildung',
        id: String(id),
        attributes,
        relationships: { user: { data: { type: 'user', id: user.id } } },
      };
    });
}

/** The base's qualifications with the edits applied: a null second value removes, else sets. */
export function applyQualificationEdits(
  list: unknown,
  edits: readonly Record<string, unknown>[],
): Record<string, unknown>[] {
  let result = Array.isArray(list) ? (list as Record<string, unknown>[]).slice() : [];
  for (const edit of edits) {
    const key = edit.position !== undefined ? 'position' : 'zentralliste_id';
    const second = ['rang', 'name_kurz', 'zentralliste_rang', 'zentralliste_name_kurz'].find(
      (name) => edit[name] !== undefined,
    );
    const sameList = (q: Record<string, unknown>) => String(q[key]) === String(edit[key]);
    if (second && edit[second] === null) {
      result = result.filter((q) => !sameList(q));
      continue;
    }
    const existing = result.findIndex(sameList);
    const updated = { ...(existing >= 0 ? result[existing] : {}), ...edit };
    if (second === 'name_kurz' || second === 'zentralliste_name_kurz')
      updated.name_kurz = edit[second];
    if (existing >= 0) result[existing] = updated;
    else result.push(updated);
  }
  return result;
}

/** A person's name as the replica has it (its local truth). */
export function personName(read: ReplicaReader, id: unknown): string | null {
  if (typeof id !== 'string') return null;
  const person = read.row('SELECT vorname, nachname FROM users WHERE id = ?', id);
  return person ? fullName(person.vorname, person.nachname) : null;
}

export const user = {
  type: 'user',
  table: 'users',
  keys: ['id'],
  referencedBy: [
    { table: 'qualifikationen', column: 'user_id' },
    { table: 'course_trainers', column: 'user_id' },
  ],
  references: { organisation_id: 'organisation' },
  row,
  label: { de: 'Person', en: 'person' },
  localRow: (r, stored) => row(r, storedText(stored, 'synced_at')),
  subject(read, recordId, args) {
    const given = args.attributes ?? {};
    const label = personName(read, recordId) ?? fullName(given.vorname, given.nachname);
    return label ? { kind: 'user', label } : null;
  },
  lookupCreated: ({ api, since, options }) => api.listPersonal({ updatedSince: since, ...options }),
} satisfies WritableResource & { row: unknown };
