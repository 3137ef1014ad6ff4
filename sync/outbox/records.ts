// The writable resource types as the outbox keeps them: each one's module in sync/resources
// (table, the columns elsewhere that hold its ids, its row with local changes on top), here
// with the replica at hand for the hooks that read it.
import type { Sqlite } from '../db/sqlite';
import type { RowValues } from '../db/writer';
import {
  WRITABLE_RESOURCES,
  referencesTo,
  writableResource,
  type Reference,
  type ReplicaReader,
  type ServiceResource,
  type WritableResource,
} from '../resources';
import { prepared } from '../db/statements';

export interface WritableType extends Pick<WritableResource, 'type' | 'table'> {
  /** The columns that hold its ids (see referencesTo). */
  referencedBy: readonly Reference[];
  /**
   * The replica row of a resource (the service's version with local changes on top). `stored`
   * is the row as it is, for what the resource itself may not name (its course, its person).
   */
  toRow(
    resource: ServiceResource,
    stored: Record<string, unknown> | undefined,
    sqlite: Sqlite,
  ): RowValues;
}

/** The replica for a resource's hooks: the SQL they name, run with the outbox's statements. */
export function replicaReader(sqlite: Sqlite): ReplicaReader {
  return {
    row: (sql, param) =>
      param
        ? ((prepared(sqlite, sql).get(param) as Record<string, unknown> | undefined) ?? null)
        : null,
    rows: (sql, param) => prepared(sqlite, sql).all(param) as Record<string, unknown>[],
  };
}

const asWritableType = (resource: WritableResource): WritableType => ({
  type: resource.type,
  table: resource.table,
  referencedBy: referencesTo(resource),
  toRow: (r, stored, sqlite) => resource.localRow(r, stored, replicaReader(sqlite)),
});

const list = WRITABLE_RESOURCES.map(asWritableType);

const WRITABLE_TYPES: ReadonlyMap<string, WritableType> = new Map(
  list.map((entry) => [entry.type, entry]),
);
export const WRITABLE_TABLES: ReadonlyMap<string, WritableType> = new Map(
  list.map((entry) => [entry.table, entry]),
);

export function writableType(type: string): WritableType {
  const entry = WRITABLE_TYPES.get(type);
  if (!entry) throw new Error(`${type} is not a writable resource type`);
  return entry;
}

/** The words for a writable type in a message ("Kurs", "course"); the type itself for another. */
export function typeLabel(type: string): { de: string; en: string } {
  return writableResource(type)?.label ?? { de: type, en: type };
}

/** Temporary ids (the contract's `isLocalId` checks one) where they stand in a JSON text. */
export const TEMPORARY_IDS_IN_TEXT =
  /local-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
