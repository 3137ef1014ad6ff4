import { sql, type RawBuilder } from 'kysely';
import { FOLD_FUNCTION, foldForSearch } from '../db/search-fold';

// Local truth of a record: the server's last version (base) with pending local changes on top.
export interface StoredRecord {
  base: string;
  pending: string | null;
}

export function currentAttributes(record: StoredRecord): Record<string, unknown> {
  const base = JSON.parse(record.base) as { attributes?: Record<string, unknown> };
  const pending = record.pending
    ? (JSON.parse(record.pending) as { attributes?: Record<string, unknown> })
    : null;
  return { ...(base.attributes ?? {}), ...(pending?.attributes ?? {}) };
}

export const asBool = (value: number | null): boolean | null =>
  value === null ? null : value === 1;

/**
 * The half-open range [low, high) of keys that start with `prefix`: an index range scan where a
 * LIKE would test every row. U+FFFF sorts after every character a name holds.
 */
export function prefixRange(prefix: string): [string, string] {
  return [prefix, `${prefix}\uffff`];
}

/** A LIKE pattern matching values that start with `prefix` (wildcards in the input taken literally). */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column` holds `text` anywhere, ignoring case and diacritics (see foldForSearch). */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`instr(${sql.raw(FOLD_FUNCTION)}(${sql.ref(column)}), ${foldForSearch(text)}) > 0`;
}
