// The sandbox's state: every resource of the service as a generic JSON:API-shaped record.
// The HTTP layer (sandbox/http) reads and writes only through this interface; the data layer
// (sandbox/data) implements it in memory, optionally persisted to a SQLite file.

/** Resource types served by the interface (see sandbox/RESOURCES.md). */
export const RESOURCE_TYPES = [
  'user',
  'organisation',
  'ausbildung',
  'ueberpruefung',
  'ehrung',
  'orga',
  'kalender',
  'helferstunden',
  'helferstunden_anlass',
  'helferstunden_typ',
  'helferstunden_einstellungen',
  'dienst',
  'termin',
  'benachrichtigung',
  'steuersatz',
  'course',
  'course_type',
  'course_date',
  'address',
  'participation',
  'cancellation',
  'company',
  'uvt',
  'client',
  'customfield',
  /** Not served: the sandbox's own bookkeeping (roles, feed hashes, forms; see Account). */
  'account',
  'formular',
  /**
   * Not served: with `clientIds`, one record per client-generated id accepted on creation, id
   * `<type>:<client id in lowercase>`, attributes { client_id }, relationships { resource }.
   */
  'client_generated_id',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export interface ResourceRef {
  type: ResourceType;
  id: string;
}

export type Relationship = ResourceRef | ResourceRef[] | null;

export interface StoredResource {
  type: ResourceType;
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, Relationship>;
  /** Internal change time (ISO 8601 UTC, millisecond precision), set by the store on every put. */
  updatedAt: string;
}

/** Roles with real permission checks: office (everything), trainer (own courses), member (own data). */
export type Role = 'office' | 'trainer' | 'member';

/**
 * Sandbox bookkeeping for a user who may log in: stored as type 'account' with the user's id.
 * attributes: { role: Role, feedHash: string (32 hex, the private iCal feed secret) }.
 */
export interface AccountAttributes {
  role: Role;
  feedHash: string;
}

/**
 * Forms (type 'formular'): attributes { titel, aktion: {typ, url, methode}, objekt_typ: 'd'|'t'|'k'|'m'|'u',
 * objekt_id: string }. Served by /formulare/v1/liste filtered by objekt_typ and objekt_id.
 */

/** Organisation-wide sandbox settings, persisted with the data. */
export interface SandboxSettings {
  /** "Select favorites": GET /uvts lists only UVTs with favorite=true. */
  uvtFavorites: boolean;
  /** The reference day the demo data was generated around (YYYY-MM-DD). */
  anchorDate: string;
  seed: number;
  scale: string;
}

/**
 * The whole state of a store at one moment (Store.snapshot): every record with its updatedAt,
 * the id high-waters and the settings. Opaque to callers; it shares the frozen records.
 */
export interface StoreSnapshot {
  readonly records: ReadonlyMap<ResourceType, readonly StoredResource[]>;
  readonly highWaters: ReadonlyMap<ResourceType, number>;
  readonly settings: SandboxSettings | undefined;
}

/** One record a restore changed: written back (`after`) or removed (no `after`). */
export interface RestoredRecord {
  before: StoredResource | undefined;
  after: StoredResource | undefined;
}

export interface Store {
  /** All records of a type, in ascending id order (numeric ids numerically). Do not mutate. */
  all(type: ResourceType): readonly StoredResource[];
  get(type: ResourceType, id: string): StoredResource | undefined;
  /**
   * Records of `type` whose relationship `name` points at `id` (to-one or to-many).
   * Indexed: O(result), so e.g. hours of one user or participations of one course are cheap.
   */
  related(type: ResourceType, name: string, id: string): readonly StoredResource[];
  /**
   * Insert or replace; stamps updatedAt with the store clock and returns the stored record.
   * Stored records are frozen (attributes deeply): to change one, put a new object, e.g.
   * `put({ ...old, attributes: { ...old.attributes, gelesen: true } })`. The store takes
   * ownership of the given attributes and relationships objects and freezes them in place.
   */
  put(resource: Omit<StoredResource, 'updatedAt'>): StoredResource;
  /**
   * As put, but keeps the given change time (ISO 8601) instead of the clock's. For demo-data
   * generation and imports only: service writes use put so change times stay ordered. The
   * clock never goes back behind a change time stored this way.
   */
  putWithTime(resource: Omit<StoredResource, 'updatedAt'>, updatedAt: string): StoredResource;
  /** Removes a record; true when it existed. */
  remove(type: ResourceType, id: string): boolean;
  /**
   * A fresh numeric id for the type, as a string: the highest id ever stored + 1 (for
   * "<n>-<userId>" ids the highest n). Like the service's auto-increment, ids of removed records
   * are not handed out again, also after reopening the file. Reserves nothing until put.
   */
  nextId(type: ResourceType): string;
  /** Runs fn atomically: persisted in one SQLite transaction; on throw, memory and file roll back. */
  transaction<T>(fn: () => T): T;
  /** The store clock (ISO 8601 UTC); strictly increasing across calls so change times are ordered. */
  now(): string;
  /** The settings written by setSettings; defaults (no favourites, today, seed 0) before that. */
  settings(): SandboxSettings;
  /** Replaces the settings (persisted; part of a surrounding transaction). */
  setSettings(settings: SandboxSettings): void;
  count(type: ResourceType): number;
  /** The whole state, for a later restore (a backup of the service). Cheap: records are shared. */
  snapshot(): StoreSnapshot;
  /**
   * Makes the store the snapshot again, in one transaction (written through to the file): each
   * record that differs is written back with its old updatedAt or removed, the id high-waters
   * go back (ids handed out since are handed out again, as after restoring a database dump),
   * the settings too. The clock does not go back. Returns the records that changed.
   */
  restore(snapshot: StoreSnapshot): RestoredRecord[];
  close(): void;
}
