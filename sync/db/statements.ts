// The replica's one statement cache: statements prepared once per connection. better-sqlite3's
// `prepare` parses and plans the SQL on every call, which costs more than running most
// statements; the pull runs the same ones for every course and person, a write and each replayed
// operation a dozen.
import type { Sqlite, SqliteStatement } from './sqlite';

/**
 * Statements kept per connection. SQL built from a list (`IN (?, ?, …)` per chunk length) would
 * otherwise grow a long-lived connection's cache without limit; the oldest goes first.
 */
export const STATEMENT_LIMIT = 500;

const caches = new WeakMap<Sqlite, Map<string, SqliteStatement>>();

/**
 * The statement for `sql` on this database, as `sqlite.prepare(sql)` would give it: plucking and
 * raw rows are switched off again, so a caller that wants them calls `.pluck()` or `.raw()` as on
 * a fresh statement (and keeps it only while no one else asks for the same SQL).
 */
export function prepared(sqlite: Sqlite, sql: string): SqliteStatement {
  const statement = cacheOf(sqlite).get(sql);
  if (!statement) return remember(sqlite, sql, sqlite.prepare(sql));
  if (statement.reader) statement.pluck(false).raw(false);
  return statement;
}

/**
 * The statement kept under `key` (a name for SQL built on a miss by `build`, which may read the
 * schema): for statements whose text costs more to build than to look up, as an upsert's.
 */
export function preparedAs(sqlite: Sqlite, key: string, build: () => string): SqliteStatement {
  return cacheOf(sqlite).get(key) ?? remember(sqlite, key, sqlite.prepare(build()));
}

/**
 * Drops the connection's statements: those prepared before its table changes were recorded
 * (sync/db/table-changes.ts) would write without noting it.
 */
export function forgetStatements(sqlite: Sqlite): void {
  caches.delete(sqlite);
}

function cacheOf(sqlite: Sqlite): Map<string, SqliteStatement> {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = new Map();
    caches.set(sqlite, cache);
  }
  return cache;
}

function remember(sqlite: Sqlite, key: string, statement: SqliteStatement): SqliteStatement {
  const cache = cacheOf(sqlite);
  // A Map iterates in insertion order: its first key is the oldest.
  if (cache.size >= STATEMENT_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, statement);
  return statement;
}
