import {
  sql,
  type Compilable,
  type CompiledQuery,
  type InferResult,
  type Kysely,
  type RawBuilder,
} from 'kysely';
import type { WrittenRecords } from '../contract';
import type { Database } from '../db/schema';
import { FOLD_FUNCTION, foldForSearch } from '../db/search-fold';
import type { Sqlite } from '../db/sqlite';
import { prepared } from '../db/statements';

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

/** A row of the query a function builds (the columns a screen's query and a write's answer share). */
export type RowOf<Query extends (...args: never[]) => Compilable> = InferResult<
  ReturnType<Query>
>[number];

/** Stands for the key while a keyed query is compiled. */
const KEY = '\u0000key';
/** The keyed queries compiled so far, by name (their SQL is the same on every connection). */
const compiledByName = new Map<string, CompiledQuery>();

/**
 * The rows a query gives for one key (a record's id, a person's id), compiled once under `name`
 * and run from the connection's statement cache: building and compiling a query with kysely
 * costs about ten times what running it does, which a write's answer (written.ts) would pay
 * after every write. `query` builds it for a key.
 */
export function byKey<R>(sqlite: Sqlite, name: string, query: (key: string) => Compilable<R>) {
  let compiled = compiledByName.get(name);
  if (!compiled) {
    compiled = query(KEY).compile();
    if (!compiled.parameters.includes(KEY)) throw new Error(`${name}: the query names no key`);
    compiledByName.set(name, compiled);
  }
  const { sql: text, parameters } = compiled;
  const bound = (key: string) => parameters.map((value) => (value === KEY ? key : value));
  return {
    one: (key: string) => prepared(sqlite, text).get(...bound(key)) as R | undefined,
    all: (key: string) => prepared(sqlite, text).all(...bound(key)) as R[],
  };
}

/**
 * How a query file reads one record a write answers, by type (see written.ts): the readers sit
 * beside the screen's query whose shape they share.
 */
export type WrittenReaders = {
  [T in keyof WrittenRecords]?: (
    db: Kysely<Database>,
    sqlite: Sqlite,
    id: string,
  ) => WrittenRecords[T] | null | undefined | Promise<WrittenRecords[T] | null | undefined>;
};
