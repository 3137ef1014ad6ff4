// From a service resource to its replica row: query columns extracted, the whole resource kept
// as `base`. The resources come read by the tolerant schemas of sync/api (DESIGN rule 14): no
// value is an absent member, converted values are converted, unknown attributes are kept. The
// mappers still read every column tolerantly (text, number, flag; "", 0000-00-00 and null are
// NULL) and baseOf drops empty attributes, so a resource built by hand maps the same way.
import type {
  AddressesTable,
  AnlassReferenzenTable,
  AusbildungenTable,
  BenachrichtigungenTable,
  ClientParticipantsTable,
  ClientsTable,
  CompaniesTable,
  CourseDatesTable,
  CourseTypesTable,
  CoursesTable,
  CustomfieldsTable,
  EhrungenTable,
  HelferstundenAnlaesseTable,
  HelferstundenTable,
  HelferstundenTypenTable,
  KalenderTable,
  OrganisationsTable,
  ParticipationsTable,
  QualifikationenTable,
  SteuersaetzeTable,
  UeberpruefungenTable,
  UsersTable,
  UvtsTable,
} from './schema';

import { isNoValue, type Resource } from '../api';

/** Any JSON:API resource object the service sends, as validated by sync/api. */
export type ServiceResource = Resource;

export function text(value: unknown): string | null {
  if (isNoValue(value)) return null;
  return typeof value === 'string' ? value : String(value);
}

export function number(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export function flag(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
}

export function relatedId(resource: ServiceResource, name: string): string | null {
  const data = resource.relationships?.[name]?.data;
  if (!data || Array.isArray(data)) return null;
  return data.id;
}

export function relatedIds(resource: ServiceResource, name: string): string[] {
  const data = resource.relationships?.[name]?.data;
  if (!data) return [];
  return Array.isArray(data) ? data.map((ref) => ref.id) : [data.id];
}

/**
 * The record's base: `{ attributes, relationships }` as JSON. Attributes that are no value
 * (undefined, null, "", a zero date) are left out, as the schemas leave them out, so two answers
 * that mean the same store the same base.
 */
export function baseOf(resource: ServiceResource): string {
  return JSON.stringify({
    attributes: withoutEmpty(resource.attributes ?? {}),
    relationships: resource.relationships ?? {},
  });
}

/** The attributes without their empty members; the same object when there are none (the usual case). */
function withoutEmpty(attributes: Record<string, unknown>): Record<string, unknown> {
  for (const name in attributes) {
    if (!isNoValue(attributes[name])) continue;
    const kept: Record<string, unknown> = {};
    for (const key in attributes) if (!isNoValue(attributes[key])) kept[key] = attributes[key];
    return kept;
  }
  return attributes;
}

/** A row as the pull writes it: the local columns (pending, local_state) are the outbox's. */
export type Row<T> = Omit<T, 'pending' | 'local_state'>;

/** The key that name search and sorting use: lower-cased, German rules. */
export function searchKey(...parts: string[]): string {
  return parts.join(' ').trim().toLocaleLowerCase('de');
}
const attr = (resource: ServiceResource) => resource.attributes ?? {};

// ---------------------------------------------------------------------------------------------
// Each table's row as a list of columns: one reader per column, the rest (id, base, synced_at)
// the same for every table. The type keeps each list equal to its table: a column missing or
// one too many does not compile.

type SqlValue = string | number | null;
type Attributes = Record<string, unknown>;
/** Reads one column from a resource (its attributes at hand) and, for a child, its parent's id. */
type Column = (attributes: Attributes, resource: ServiceResource, parentId: string) => SqlValue;
/** Every column of a table but the ones every row has, and those the pull does not write. */
type Columns<T, Skipped extends keyof Row<T> = never> = {
  [K in Exclude<keyof Row<T>, 'id' | 'base' | 'synced_at' | Skipped>]: Column;
};

/** Column readers: an attribute as text, number or 0/1; a relationship's id; the parent's id. */
const column = {
  text:
    (name: string): Column =>
    (a) =>
      text(a[name]),
  number:
    (name: string): Column =>
    (a) =>
      number(a[name]),
  flag:
    (name: string): Column =>
    (a) =>
      flag(a[name]),
  related:
    (name: string): Column =>
    (_a, r) =>
      relatedId(r, name),
  /** The relationship to the parent, else the parent the resource was fetched under. */
  parent:
    (name: string): Column =>
    (_a, r, parentId) =>
      relatedId(r, name) ?? parentId,
} as const;

function readRow(
  entries: readonly (readonly [string, Column])[],
  r: ServiceResource,
  syncedAt: string,
  parentId: string,
): Record<string, SqlValue> {
  const a = attr(r);
  const row: Record<string, SqlValue> = { id: r.id };
  for (const [name, read] of entries) row[name] = read(a, r, parentId);
  row.base = baseOf(r);
  row.synced_at = syncedAt;
  return row;
}

/** The row mapper of a table whose resources stand alone: (resource, syncedAt). */
function rowOf<T, Skipped extends keyof Row<T> = never>(columns: Columns<T, Skipped>) {
  const entries = Object.entries(columns) as [string, Column][];
  return (r: ServiceResource, syncedAt: string) =>
    readRow(entries, r, syncedAt, '') as unknown as Omit<Row<T>, Skipped>;
}

/** The row mapper of a table of children fetched per parent: (resource, parentId, syncedAt). */
function childRowOf<T>(columns: Columns<T>) {
  const entries = Object.entries(columns) as [string, Column][];
  return (r: ServiceResource, parentId: string, syncedAt: string) =>
    readRow(entries, r, syncedAt, parentId) as unknown as Row<T>;
}

// ---------------------------------------------------------------------------------------------
// People

export const userRow = rowOf<
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
});

/** The qualifications embedded in a user resource, one row each. */
export function qualifikationRows(user: ServiceResource): QualifikationenTable[] {
  const list = attr(user).qualifikationen;
  if (!Array.isArray(list)) return [];
  const entries = list.filter(
    (entry): entry is Record<string, unknown> =>
      typeof entry === 'object' && entry !== null && !Array.isArray(entry),
  );
  return entries.map((q, idx) => {
    return {
      user_id: user.id,
      idx,
      position: text(q.position),
      liste: text(q.liste),
      name: text(q.name),
      name_kurz: text(q.name_kurz),
      rang: number(q.rang),
      erwerb_datum: text(q.erwerb_datum),
    };
  });
}

/** The trainings embedded in a user resource (`ausbildungen`), as training resources. */
export function embeddedAusbildungen(user: ServiceResource): ServiceResource[] {
  const list = attr(user).ausbildungen;
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

export const ausbildungRow = childRowOf<AusbildungenTable>({
  user_id: column.parent('user'),
  bezeichnung: column.text('bezeichnung'),
  datum: column.text('datum'),
  gueltig_bis: column.text('gueltig_bis'),
  updated_at: column.text('updated_at'),
});

export const ueberpruefungRow = childRowOf<UeberpruefungenTable>({
  user_id: column.parent('user'),
  bezeichnung: column.text('bezeichnung'),
  bestanden: (a) => flag(((a.pruefergebnis ?? {}) as Attributes).bestanden),
  letzte_pruefung: column.text('letzte_pruefung'),
  naechste_pruefung: column.text('naechste_pruefung'),
});

export const ehrungRow = childRowOf<EhrungenTable>({
  user_id: column.parent('user'),
  bezeichnung: column.text('bezeichnung'),
  datum: column.text('datum'),
});

export const organisationRow = rowOf<OrganisationsTable>({ name: column.text('name') });

// ---------------------------------------------------------------------------------------------
// Calendars, volunteer hours, notifications, tax rates

export const kalenderRow = rowOf<KalenderTable>({
  name: column.text('name'),
  farbe: column.text('farbe'),
  typ: column.text('typ'),
  user_id: column.related('user'),
});

export const helferstundenTypRow = rowOf<HelferstundenTypenTable>({
  bezeichnung: column.text('bezeichnung'),
  aktiv: column.flag('aktiv'),
});

/** An occasion's event (a service, an appointment, a course): keyed by its type and id. */
export const anlassReferenzRow = rowOf<AnlassReferenzenTable>({
  type: (_a, r) => r.type,
  titel: column.text('titel'),
  beginn: column.text('beginn'),
  ende: column.text('ende'),
  ort: column.text('ort'),
});

/** The occasion's `referenz` (its event), as type and id. */
const referenz = (r: ServiceResource) => {
  const data = r.relationships?.referenz?.data;
  return data && !Array.isArray(data) ? data : null;
};

export const anlassRow = rowOf<HelferstundenAnlaesseTable>({
  typ: column.text('typ'),
  beschreibung: column.text('beschreibung'),
  datum: column.text('datum'),
  referenz_type: (_a, r) => referenz(r)?.type ?? null,
  referenz_id: (_a, r) => referenz(r)?.id ?? null,
});

export const helferstundenRow = rowOf<HelferstundenTable>({
  user_id: column.related('user'),
  anlass_id: column.related('anlass'),
  typ_id: column.related('typ'),
  von: column.text('von'),
  bis: column.text('bis'),
  stunden: column.number('stunden'),
  freigegeben: column.flag('freigegeben'),
});

export const benachrichtigungRow = rowOf<BenachrichtigungenTable>({
  titel: column.text('titel'),
  kategorie: column.text('kategorie'),
  gelesen: column.flag('gelesen'),
  erstellt_am: column.text('erstellt_am'),
});

export const steuersatzRow = rowOf<SteuersaetzeTable>({
  bezeichnung: column.text('bezeichnung'),
  satz: column.number('satz'),
  gueltig_ab: column.text('gueltig_ab'),
});

// ---------------------------------------------------------------------------------------------
// Courses (the module's English names)

export const courseTypeRow = rowOf<CourseTypesTable>({
  name: column.text('name'),
  short_name: column.text('short_name'),
});

export const uvtRow = rowOf<UvtsTable>({
  name: column.text('name'),
  short_name: column.text('short_name'),
  favorite: column.flag('favorite'),
});

export const clientRow = rowOf<ClientsTable>({
  name: column.text('name'),
  city: column.text('city'),
});

export const companyRow = rowOf<CompaniesTable>({
  name: column.text('name'),
  uvt_id: column.related('uvt'),
});

export const addressRow = rowOf<AddressesTable>({
  description: column.text('description'),
  city: column.text('city'),
  postal_code: column.text('postal_code'),
});

/** A course row; its first and last date come from the included course_date resources. */
export function courseRow(
  r: ServiceResource,
  dates: readonly ServiceResource[],
  syncedAt: string,
): Row<CoursesTable> {
  const a = attr(r);
  const starts = dates
    .map((d) => text(attr(d).from))
    .filter((v): v is string => v !== null)
    .sort();
  const ends = dates
    .map((d) => text(attr(d).to) ?? text(attr(d).from))
    .filter((v): v is string => v !== null)
    .sort();
  return {
    id: r.id,
    title: text(a.title),
    course_number: text(a.course_number),
    status: text(a.status),
    course_type_id: relatedId(r, 'course_type'),
    client_id: relatedId(r, 'client'),
    location_id: relatedId(r, 'location'),
    first_date: starts[0] ?? null,
    last_date: ends[ends.length - 1] ?? null,
    max_participants: number(a.max_participants),
    number_of_participants: number(a.number_of_participants),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export const courseDateRow = childRowOf<CourseDatesTable>({
  course_id: column.parent('course'),
  date_from: column.text('from'),
  date_to: column.text('to'),
});

export const participationRow = childRowOf<ParticipationsTable>({
  course_id: column.parent('course'),
  first_name: column.text('first_name'),
  last_name: column.text('last_name'),
  status: column.text('status'),
  attended: column.flag('attended'),
  company_id: column.related('company'),
  uvt_id: column.related('uvt'),
  client_id: column.related('client'),
  user_id: column.related('user'),
});

/** A client's participant: keyed by the client (the parent) and its id. */
export const clientParticipantRow = childRowOf<ClientParticipantsTable>({
  client_id: (_a, _r, clientId) => clientId,
  course_id: column.related('course'),
  first_name: column.text('first_name'),
  last_name: column.text('last_name'),
  status: column.text('status'),
});

export const customfieldRow = childRowOf<CustomfieldsTable>({
  course_id: column.parent('course'),
  name: column.text('name'),
  field_type: column.text('field_type'),
  position: column.number('position'),
});
