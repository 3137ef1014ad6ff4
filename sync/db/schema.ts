// The replica's tables as kysely types: the one typed Database interface of sync/db.
// Keep in step with migrations.ts: the typed queries of sync/queries and the pull tests run against the real schema.
import type { Generated } from 'kysely';

/** A writable record's local state (migration 3). */
export type LocalState = 'created' | 'changed' | 'deleted';

/** Columns every table of service data has (see migrations.ts). */
interface RecordColumns {
  /** The server's last version: JSON { attributes, relationships }. */
  base: string;
  /** Locally changed fields not yet accepted by the service (JSON), or null. */
  pending: string | null;
  synced_at: string;
}

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

export interface OrganisationsTable extends RecordColumns {
  id: string;
  name: string | null;
}

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

export interface UeberpruefungenTable extends RecordColumns {
  id: string;
  user_id: string;
  bezeichnung: string | null;
  bestanden: number | null;
  letzte_pruefung: string | null;
  naechste_pruefung: string | null;
}

export interface EhrungenTable extends RecordColumns {
  id: string;
  user_id: string;
  bezeichnung: string | null;
  datum: string | null;
}

export interface SingletonsTable extends RecordColumns {
  key: string;
  type: string;
  id: string;
  included: string | null;
}

export interface KalenderTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  name: string | null;
  farbe: string | null;
  typ: string | null;
  user_id: string | null;
}

export interface HelferstundenTypenTable extends RecordColumns {
  id: string;
  bezeichnung: string | null;
  aktiv: number | null;
}

export interface AnlassReferenzenTable extends RecordColumns {
  type: string;
  id: string;
  titel: string | null;
  beginn: string | null;
  ende: string | null;
  ort: string | null;
}

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

export interface BenachrichtigungenTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  titel: string | null;
  kategorie: string | null;
  gelesen: number | null;
  erstellt_am: string | null;
}

export interface FormulareTable {
  objekt_typ: string;
  objekt_id: string;
  position: number;
  titel: string | null;
  aktion: string | null;
  synced_at: string;
}

export interface SteuersaetzeTable extends RecordColumns {
  id: string;
  bezeichnung: string | null;
  satz: number | null;
  gueltig_ab: string | null;
}

export interface CourseTypesTable extends RecordColumns {
  id: string;
  name: string | null;
  short_name: string | null;
}

export interface UvtsTable extends RecordColumns {
  id: string;
  name: string | null;
  short_name: string | null;
  favorite: number | null;
}

export interface ClientsTable extends RecordColumns {
  id: string;
  name: string | null;
  city: string | null;
}

export interface CompaniesTable extends RecordColumns {
  id: string;
  name: string | null;
  uvt_id: string | null;
}

export interface AddressesTable extends RecordColumns {
  id: string;
  description: string | null;
  city: string | null;
  postal_code: string | null;
}

export interface CoursesTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  title: string | null;
  course_number: string | null;
  status: string | null;
  course_type_id: string | null;
  client_id: string | null;
  location_id: string | null;
  first_date: string | null;
  last_date: string | null;
  max_participants: number | null;
  number_of_participants: number | null;
}

export interface CourseTrainersTable {
  course_id: string;
  user_id: string;
}

export interface CourseDatesTable extends RecordColumns {
  id: string;
  course_id: string;
  date_from: string | null;
  date_to: string | null;
}

export interface ParticipationsTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  course_id: string;
  first_name: string | null;
  last_name: string | null;
  status: string | null;
  attended: number | null;
  company_id: string | null;
  uvt_id: string | null;
  client_id: string | null;
  user_id: string | null;
}

export interface CancellationsTable extends RecordColumns {
  id: string;
  participation_id: string | null;
}

export interface ClientParticipantsTable extends RecordColumns {
  client_id: string;
  id: string;
  course_id: string | null;
  first_name: string | null;
  last_name: string | null;
  status: string | null;
}

export interface CustomfieldsTable extends RecordColumns {
  /** created / changed / deleted locally and not yet accepted by the service; null otherwise. */
  local_state: LocalState | null;
  id: string;
  course_id: string;
  name: string | null;
  field_type: string | null;
  position: number | null;
}

export interface SyncStateTable {
  collection: string;
  watermark: string | null;
  last_success_at: string | null;
  last_full_scan_at: string | null;
  syncs_since_full_scan: number;
  /** Why the collection is skipped, e.g. 'unlicensed' (423) or 'forbidden' (403); null when synced. */
  unavailable: string | null;
  last_error: string | null;
  /** A scan spanning several syncs: where it stands (JSON), null when none is under way. */
  progress: string | null;
}

export interface QuarantineTable {
  collection: string;
  type: string;
  id: string;
  /** The scope the record came in: '' for a whole collection, else its parent's id. */
  parent: string;
  /** Where in its answer: 'data' or 'included'. */
  part: string;
  reason: string;
  /** The record as the service sent it; null for a per-item request that failed. */
  raw: string | null;
  url: string | null;
  first_seen_at: string;
  last_seen_at: string;
  attempts: number;
}

export interface ScanSeenTable {
  collection: string;
  id: string;
}

export interface AnswerDigestsTable {
  key: string;
  digest: string;
  records: number;
}

export interface ReplicaMetaTable {
  key: string;
  value: string;
}

export interface OutboxTable {
  id: Generated<number>;
  command: string;
  record_type: string;
  record_id: string;
  args: string;
  state: string;
  attempts: number;
  next_attempt_at: string | null;
  error: string | null;
  waiting_for: string | null;
  fingerprint: string | null;
  client_id: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
  done_at: string | null;
}

export interface ConflictsTable {
  id: Generated<number>;
  record_type: string;
  record_id: string;
  field: string;
  kind: string;
  base: string | null;
  mine: string | null;
  theirs: string | null;
  detected_at: string;
}

export interface IdMapTable {
  local_id: string;
  record_type: string;
  service_id: string;
  mapped_at: string;
}

export interface ClientIdsTable {
  record_type: string;
  accepted: number;
  probed_at: string;
}

/** How many people have each status ('' for none), kept by triggers (migration 10). */
export interface UsersByStatusTable {
  status: string;
  people: number;
}

export interface Database {
  outbox: OutboxTable;
  conflicts: ConflictsTable;
  id_map: IdMapTable;
  client_ids: ClientIdsTable;
  users: UsersTable;
  users_by_status: UsersByStatusTable;
  qualifikationen: QualifikationenTable;
  organisations: OrganisationsTable;
  ausbildungen: AusbildungenTable;
  ueberpruefungen: UeberpruefungenTable;
  ehrungen: EhrungenTable;
  singletons: SingletonsTable;
  kalender: KalenderTable;
  helferstunden_typen: HelferstundenTypenTable;
  anlass_referenzen: AnlassReferenzenTable;
  helferstunden_anlaesse: HelferstundenAnlaesseTable;
  helferstunden: HelferstundenTable;
  benachrichtigungen: BenachrichtigungenTable;
  formulare: FormulareTable;
  steuersaetze: SteuersaetzeTable;
  course_types: CourseTypesTable;
  uvts: UvtsTable;
  clients: ClientsTable;
  companies: CompaniesTable;
  addresses: AddressesTable;
  courses: CoursesTable;
  course_trainers: CourseTrainersTable;
  course_dates: CourseDatesTable;
  participations: ParticipationsTable;
  cancellations: CancellationsTable;
  client_participants: ClientParticipantsTable;
  customfields: CustomfieldsTable;
  answer_digests: AnswerDigestsTable;
  sync_state: SyncStateTable;
  replica_meta: ReplicaMetaTable;
  sync_log: ReplicaMetaTable;
  quarantine: QuarantineTable;
  scan_seen: ScanSeenTable;
  confirmations: ConfirmationsTable;
  rotations: RotationsTable;
  export_uids: ExportUidsTable;
  feed_events: FeedEventsTable;
}

export interface ConfirmationsTable {
  scope: string;
  id: string;
  confirmed_at: string | null;
  tried_at: string | null;
}

export interface RotationsTable {
  scope: string;
  credit: number;
  planned_at: string;
}

/** An .ics entry as last exported (migration 5): its content digest and SEQUENCE. */
export interface ExportUidsTable {
  uid: string;
  digest: string;
  sequence: number;
  exported_at: string;
}

/** An event of the private calendar feed (migration 5), replaced per fetch. */
export interface FeedEventsTable {
  uid: string;
  /** '' for an event itself, else the RECURRENCE-ID of one changed occurrence (UTC ISO or date). */
  recurrence_id: string;
  summary: string | null;
  description: string | null;
  location: string | null;
  /** The CATEGORIES, joined with ', '. */
  categories: string | null;
  /** STATUS as the feed gives it (CONFIRMED, TENTATIVE, CANCELLED), or null. */
  status: string | null;
  /** UTC instant (ISO 8601), or the date (YYYY-MM-DD) of an all-day event. */
  starts_at: string;
  ends_at: string | null;
  all_day: number;
  /** The Berlin date of the start (YYYY-MM-DD). */
  start_day: string;
  /** The RRULE's value as the feed gives it (null: none, or one ical.js cannot read). */
  rrule: string | null;
  sequence: number;
  stamp: string | null;
  fetched_at: string;
  /**
   * A repeating event's VEVENT with the VTIMEZONEs it names, one VCALENDAR text (migration 11),
   * expanded by sync/pull/feed-recur.ts; null for any other row (and rows not fetched since).
   */
  ical: string | null;
  /** The last day (Europe/Berlin) its series can reach, a day late; null: no end, or not repeating. */
  last_day: string | null;
}

export type TableName = keyof Database;
