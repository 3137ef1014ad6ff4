// From a service resource to its replica row, the part every resource shares: the column readers
// (text, number, flag; a relationship's id; the parent's id), the row of a column list (id, base
// and synced_at the same for every table) and the base. The resources come read by the tolerant
// schemas of sync/api (DESIGN rule 14): no value is an absent member, converted values are
// converted, unknown attributes are kept. The readers still read every column tolerantly ("",
// 0000-00-00 and null are NULL) and baseOf drops empty attributes, so a resource built by hand
// maps the same way. Each resource's own column list lives in its module beside this file.
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

export const attributesOf = (resource: ServiceResource) => resource.attributes ?? {};

// ---------------------------------------------------------------------------------------------
// A table's row as a list of columns: one reader per column, the rest (id, base, synced_at) the
// same for every table. The type keeps each list equal to its table: a column missing or one too
// many does not compile.

type SqlValue = string | number | null;
export type Attributes = Record<string, unknown>;
/** Reads one column from a resource (its attributes at hand) and, for a child, its parent's id. */
export type Column = (
  attributes: Attributes,
  resource: ServiceResource,
  parentId: string,
) => SqlValue;
/** Every column of a table but the ones every row has, and those the pull does not write. */
export type Columns<T, Skipped extends keyof Row<T> = never> = {
  [K in Exclude<keyof Row<T>, 'id' | 'base' | 'synced_at' | Skipped>]: Column;
};

/** Column readers: an attribute as text, number or 0/1; a relationship's id; the parent's id. */
export const column = {
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
  const a = attributesOf(r);
  const row: Record<string, SqlValue> = { id: r.id };
  for (const [name, read] of entries) row[name] = read(a, r, parentId);
  row.base = baseOf(r);
  row.synced_at = syncedAt;
  return row;
}

/** The row mapper of a table whose resources stand alone: (resource, syncedAt). */
export function rowOf<T, Skipped extends keyof Row<T> = never>(columns: Columns<T, Skipped>) {
  const entries = Object.entries(columns) as [string, Column][];
  return (r: ServiceResource, syncedAt: string) =>
    readRow(entries, r, syncedAt, '') as unknown as Omit<Row<T>, Skipped>;
}

/** The row mapper of a table of children fetched per parent: (resource, parentId, syncedAt). */
export function childRowOf<T>(columns: Columns<T>) {
  const entries = Object.entries(columns) as [string, Column][];
  return (r: ServiceResource, parentId: string, syncedAt: string) =>
    readRow(entries, r, syncedAt, parentId) as unknown as Row<T>;
}
