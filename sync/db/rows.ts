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

export function userRow(
  r: ServiceResource,
  syncedAt: string,
): Omit<Row<UsersTable>, 'details_watermark' | 'trainings_from_endpoint' | 'trainings_watermark'> {
  const a = attr(r);
  const vorname = text(a.vorname) ?? '';
  const nachname = text(a.nachname) ?? '';
  return {
    id: r.id,
    vorname,
    nachname,
    sort_name: searchKey(nachname, vorname),
    first_name_key: searchKey(vorname, nachname),
    status: text(a.status),
    email: text(a.email),
    mitgliednr: text(a.mitgliednr),
    ort: text(a.ort),
    organisation_id: relatedId(r, 'organisation'),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

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

export function ausbildungRow(
  r: ServiceResource,
  userId: string,
  syncedAt: string,
): Row<AusbildungenTable> {
  const a = attr(r);
  return {
    id: r.id,
    user_id: relatedId(r, 'user') ?? userId,
    bezeichnung: text(a.bezeichnung),
    datum: text(a.datum),
    gueltig_bis: text(a.gueltig_bis),
    updated_at: text(a.updated_at),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function ueberpruefungRow(
  r: ServiceResource,
  userId: string,
  syncedAt: string,
): Row<UeberpruefungenTable> {
  const a = attr(r);
  const result = (a.pruefergebnis ?? {}) as Record<string, unknown>;
  return {
    id: r.id,
    user_id: relatedId(r, 'user') ?? userId,
    bezeichnung: text(a.bezeichnung),
    bestanden: flag(result.bestanden),
    letzte_pruefung: text(a.letzte_pruefung),
    naechste_pruefung: text(a.naechste_pruefung),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function ehrungRow(
  r: ServiceResource,
  userId: string,
  syncedAt: string,
): Row<EhrungenTable> {
  const a = attr(r);
  return {
    id: r.id,
    user_id: relatedId(r, 'user') ?? userId,
    bezeichnung: text(a.bezeichnung),
    datum: text(a.datum),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function organisationRow(r: ServiceResource, syncedAt: string): Row<OrganisationsTable> {
  return { id: r.id, name: text(attr(r).name), base: baseOf(r), synced_at: syncedAt };
}

export function kalenderRow(r: ServiceResource, syncedAt: string): Row<KalenderTable> {
  const a = attr(r);
  return {
    id: r.id,
    name: text(a.name),
    farbe: text(a.farbe),
    typ: text(a.typ),
    user_id: relatedId(r, 'user'),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function helferstundenTypRow(
  r: ServiceResource,
  syncedAt: string,
): Row<HelferstundenTypenTable> {
  const a = attr(r);
  return {
    id: r.id,
    bezeichnung: text(a.bezeichnung),
    aktiv: flag(a.aktiv),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function anlassReferenzRow(
  r: ServiceResource,
  syncedAt: string,
): Row<AnlassReferenzenTable> {
  const a = attr(r);
  return {
    type: r.type,
    id: r.id,
    titel: text(a.titel),
    beginn: text(a.beginn),
    ende: text(a.ende),
    ort: text(a.ort),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function anlassRow(r: ServiceResource, syncedAt: string): Row<HelferstundenAnlaesseTable> {
  const a = attr(r);
  const referenz = r.relationships?.referenz?.data;
  const ref = referenz && !Array.isArray(referenz) ? referenz : null;
  return {
    id: r.id,
    typ: text(a.typ),
    beschreibung: text(a.beschreibung),
    datum: text(a.datum),
    referenz_type: ref?.type ?? null,
    referenz_id: ref?.id ?? null,
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function helferstundenRow(r: ServiceResource, syncedAt: string): Row<HelferstundenTable> {
  const a = attr(r);
  return {
    id: r.id,
    user_id: relatedId(r, 'user'),
    anlass_id: relatedId(r, 'anlass'),
    typ_id: relatedId(r, 'typ'),
    von: text(a.von),
    bis: text(a.bis),
    stunden: number(a.stunden),
    freigegeben: flag(a.freigegeben),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function benachrichtigungRow(
  r: ServiceResource,
  syncedAt: string,
): Row<BenachrichtigungenTable> {
  const a = attr(r);
  return {
    id: r.id,
    titel: text(a.titel),
    kategorie: text(a.kategorie),
    gelesen: flag(a.gelesen),
    erstellt_am: text(a.erstellt_am),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function steuersatzRow(r: ServiceResource, syncedAt: string): Row<SteuersaetzeTable> {
  const a = attr(r);
  return {
    id: r.id,
    bezeichnung: text(a.bezeichnung),
    satz: number(a.satz),
    gueltig_ab: text(a.gueltig_ab),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function courseTypeRow(r: ServiceResource, syncedAt: string): Row<CourseTypesTable> {
  const a = attr(r);
  return {
    id: r.id,
    name: text(a.name),
    short_name: text(a.short_name),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function uvtRow(r: ServiceResource, syncedAt: string): Row<UvtsTable> {
  const a = attr(r);
  return {
    id: r.id,
    name: text(a.name),
    short_name: text(a.short_name),
    favorite: flag(a.favorite),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function clientRow(r: ServiceResource, syncedAt: string): Row<ClientsTable> {
  const a = attr(r);
  return { id: r.id, name: text(a.name), city: text(a.city), base: baseOf(r), synced_at: syncedAt };
}

export function companyRow(r: ServiceResource, syncedAt: string): Row<CompaniesTable> {
  return {
    id: r.id,
    name: text(attr(r).name),
    uvt_id: relatedId(r, 'uvt'),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function addressRow(r: ServiceResource, syncedAt: string): Row<AddressesTable> {
  const a = attr(r);
  return {
    id: r.id,
    description: text(a.description),
    city: text(a.city),
    postal_code: text(a.postal_code),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

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

export function courseDateRow(
  r: ServiceResource,
  courseId: string,
  syncedAt: string,
): Row<CourseDatesTable> {
  const a = attr(r);
  return {
    id: r.id,
    course_id: relatedId(r, 'course') ?? courseId,
    date_from: text(a.from),
    date_to: text(a.to),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function participationRow(
  r: ServiceResource,
  courseId: string,
  syncedAt: string,
): Row<ParticipationsTable> {
  const a = attr(r);
  return {
    id: r.id,
    course_id: relatedId(r, 'course') ?? courseId,
    first_name: text(a.first_name),
    last_name: text(a.last_name),
    status: text(a.status),
    attended: flag(a.attended),
    company_id: relatedId(r, 'company'),
    uvt_id: relatedId(r, 'uvt'),
    client_id: relatedId(r, 'client'),
    user_id: relatedId(r, 'user'),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function clientParticipantRow(
  r: ServiceResource,
  clientId: string,
  syncedAt: string,
): Row<ClientParticipantsTable> {
  const a = attr(r);
  return {
    client_id: clientId,
    id: r.id,
    course_id: relatedId(r, 'course'),
    first_name: text(a.first_name),
    last_name: text(a.last_name),
    status: text(a.status),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}

export function customfieldRow(
  r: ServiceResource,
  courseId: string,
  syncedAt: string,
): Row<CustomfieldsTable> {
  const a = attr(r);
  return {
    id: r.id,
    course_id: relatedId(r, 'course') ?? courseId,
    name: text(a.name),
    field_type: text(a.field_type),
    position: number(a.position),
    base: baseOf(r),
    synced_at: syncedAt,
  };
}
