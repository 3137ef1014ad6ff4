// The replica's tables as kysely types: the one typed Database interface of sync/db. The tables of
// the service's resources are declared in their modules (sync/resources), beside their column lists.
// Keep in step with migrations.ts: the typed queries of sync/queries and the pull tests run against the real schema.
import type { Generated } from 'kysely';
import type { ResourceTables } from '../resources';

/** A writable record's local state (migration 3). */
export type LocalState = 'created' | 'changed' | 'deleted';

/** Columns every table of service data has (see migrations.ts). */
export interface RecordColumns {
  /** The server's last version: JSON { attributes, relationships }. */
  base: string;
  /** Locally changed fields not yet accepted by the service (JSON), or null. */
  pending: string | null;
  synced_at: string;
}

export interface SingletonsTable extends RecordColumns {
  key: string;
  type: string;
  id: string;
  included: string | null;
}

export interface FormulareTable {
  objekt_typ: string;
  objekt_id: string;
  position: number;
  titel: string | null;
  aktion: string | null;
  synced_at: string;
}

export interface CourseTrainersTable {
  course_id: string;
  user_id: string;
}

export interface CancellationsTable extends RecordColumns {
  id: string;
  participation_id: string | null;
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

/**
 * The replica's tables: those of the service's resources, each declared beside its column list in
 * sync/resources (ResourceTables), and those of the sync, the outbox and the exports below.
 */
export interface Database extends ResourceTables {
  outbox: OutboxTable;
  conflicts: ConflictsTable;
  id_map: IdMapTable;
  client_ids: ClientIdsTable;
  users_by_status: UsersByStatusTable;
  singletons: SingletonsTable;
  formulare: FormulareTable;
  course_trainers: CourseTrainersTable;
  cancellations: CancellationsTable;
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
