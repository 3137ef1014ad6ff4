// What a module of sync/resources declares about one service resource, and the small helpers
// its declarations share. A module holds every fact the core keeps about its resource: the
// table and keys, the columns of its table that reference other resources, its column list (the
// row mapper), how the sync reads it when it comes whole, and for a writable resource the
// outbox's hooks: its row with local changes, the words of what an operation
// concerns, and how a create whose answer never came is looked for. The hooks read the replica
// through a ReplicaReader (the outbox runs the SQL), so this room needs no SQLite of its own.
import type { ApiClient, Page } from '../api';
import type { OutboxSubject, WriteResourceType } from '../contract';
import type { TableName } from '../db/schema';
import type { ServiceResource } from './columns';

/** A row's values as SQLite binds them. */
export type RowValues = Record<string, string | number | null>;
/** A row as the replica holds it. */
export type StoredRow = Record<string, unknown>;

/** A record made in the same request as the write (a course's dates). */
export interface IncludedItem {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
}

/** A write command's arguments as the contract's schemas give them. */
export interface WriteArgs {
  id?: string;
  courseId?: string;
  userId?: string;
  identifierName?: string;
  identifierValue?: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  included?: IncludedItem[];
}

/** The replica as a resource's hooks read it; the outbox runs the SQL (with its cached statements). */
export interface ReplicaReader {
  /** The row `sql` gives with `param` bound; null without a param or without a row. */
  row(sql: string, param: string | null | undefined): StoredRow | null;
  /** Every row `sql` gives with `param` bound. */
  rows(sql: string, param: string): StoredRow[];
}

/** Where a create whose answer never came is looked for (see sync/outbox/lookup.ts). */
export interface LookupContext {
  api: ApiClient;
  args: WriteArgs;
  /** The earliest change time the record can have: the request's, less the clocks' slack. */
  since: Date;
  options: { signal?: AbortSignal };
  /** The signed-in person's id, as the last sync stored it. */
  selfId(): string | undefined;
}

/** A list on the service the record may be in: its pages. */
export type Candidates = AsyncGenerator<{ data: ServiceResource[]; included: ServiceResource[] }>;

/** A column of another table that holds ids of this resource. */
export interface Reference {
  table: TableName;
  column: string;
}

/**
 * A resource the sync reads whole, one list replacing its table (what the service no longer lists
 * is removed): small reference data. `reference`: on the reference rotation, beside the other
 * small lists; `courses`: the course lane's, fetched before the courses that name its records.
 */
export interface WholeCollection {
  /** The sync collection: its sync state, its words (the contract's COLLECTIONS). */
  collection: string;
  lane: 'reference' | 'courses';
  /** Only in the office profile (a trainer's replica has no clients). */
  officeOnly?: true;
  /** News for the user (the notifications): read on every sync the user asks for. */
  onRequest?: true;
  fetch(api: ApiClient, signal?: AbortSignal): AsyncGenerator<Page<ServiceResource>>;
  toRow(resource: ServiceResource, syncedAt: string): RowValues & { id: string; base: string };
}

/** Every resource the replica keeps. */
export interface ResourceModule {
  /** The service's resource type (the registry's name where the service has none of its own). */
  type: string;
  /** The service's types of its records, where they are not `type` (an occasion's event). */
  serviceTypes?: readonly string[];
  table: TableName;
  /** The table's primary key. */
  keys: readonly string[];
  /**
   * Columns of its own table that hold ids of another resource's records, with that resource's
   * type: a temporary id of such a record is replaced there (see referencesTo in ./index.ts).
   */
  references?: Readonly<Record<string, string>>;
  /** Columns of tables without a module of their own (rows it writes itself) that hold its ids. */
  referencedBy?: readonly Reference[];
  /** Read whole by the sync (see WholeCollection). */
  whole?: WholeCollection;
}

/** A resource the contract's writes change: the outbox's hooks. */
export interface WritableResource extends ResourceModule {
  type: WriteResourceType;
  /** Its name in an error message ("Kurs 12 ist nicht in der lokalen Kopie"). */
  label: { de: string; en: string };
  /**
   * The replica row of a resource (the service's version with local changes on top). `stored`
   * is the row as it is, for what the resource itself may not name (its course, its person).
   */
  localRow(
    resource: ServiceResource,
    stored: StoredRow | undefined,
    read: ReplicaReader,
  ): RowValues;
  /** Who or what an operation on the record concerns, in words; null when nothing is known. */
  subject(read: ReplicaReader, recordId: string, args: WriteArgs): OutboxSubject | null;
  /**
   * A record created under a parent (a course's participant): the write names the parent in
   * `argument`, the parent must be in the replica, and the new row takes its id in `column`.
   */
  createdUnder?: { type: WriteResourceType; argument: 'courseId' | 'userId'; column: string };
  /** Why the stored record `id` can no longer change (a cancelled participation); null while it can. */
  refusesChange?(stored: StoredRow, id: string): { de: string; en: string } | null;
  /** The service's list a create may be found in, or why it cannot be looked for. */
  lookupCreated?(context: LookupContext): Candidates | { cannotTell: string };
}

/** A text column of the stored row ('' when it has none): a child's parent, the row's synced_at. */
export const storedText = (stored: StoredRow | undefined, column: string): string =>
  typeof stored?.[column] === 'string' ? stored[column] : '';

// ---------------------------------------------------------------------------------------------
// Words of an operation's subject

export const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export const numberOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** "Max Muster" from a first and a last name, either of them missing. */
export function fullName(first: unknown, last: unknown): string | null {
  const words = [textOf(first), textOf(last)].filter((word) => word !== null);
  return words.length > 0 ? words.join(' ') : null;
}

/** The service's own day of a date-time it wrote (`2026-11-23T08:00:00+01:00` → 2026-11-23). */
export const dayOf = (value: unknown): string | null =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;

/** The id a relationship of a write names (`{ data: { type, id } }`), if it names one. */
export function relationshipId(args: WriteArgs, name: string): string | undefined {
  const data = (args.relationships?.[name] as { data?: { id?: unknown } | null } | undefined)?.data;
  return typeof data?.id === 'string' ? data.id : undefined;
}

/** `date` (YYYY-MM-DD) shifted by whole days, for the date filters of a lookup. */
export const shiftDay = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
