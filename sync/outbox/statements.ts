// Prepared statements of the outbox, prepared once per database. better-sqlite3's `prepare`
// parses and plans the SQL on every call, which costs more than running most of these
// statements; a write and each replayed operation run a dozen of them.
import type { Sqlite, SqliteStatement } from '../db/sqlite';

const caches = new WeakMap<Sqlite, Map<string, SqliteStatement>>();

/**
 * The statement for `sql` on this database, as `sqlite.prepare(sql)` would give it: plucking is
 * switched off again, so a caller that wants it calls `.pluck()` as on a fresh statement.
 */
export function prepared(sqlite: Sqlite, sql: string): SqliteStatement {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = new Map();
    caches.set(sqlite, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = sqlite.prepare(sql);
    cache.set(sql, statement);
  } else if (statement.reader) {
    statement.pluck(false);
  }
  return statement;
}
