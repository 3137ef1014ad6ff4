// Bulk loads into an empty table (the first sync's 100,000 volunteer hours) with its secondary
// indexes built once at the end. Updated chunk by chunk, a randomly ordered index (e.g. by person)
// has most of its pages rewritten by every chunk's commit: twice the WAL, and a checkpoint that
// copies it all. The dropped indexes are recorded first, so a process killed mid-load gets them
// back when the replica is next opened.
import type BetterSqlite3 from 'better-sqlite3';
import { upsertRow } from './upsert';

const META_KEY = 'deferred_indexes';

/**
 * Drops the secondary indexes of `table` if it is empty and answers a function that builds them
 * again; for a table with rows, changes nothing (and the function does nothing).
 */
export function deferIndexesIfEmpty(sqlite: BetterSqlite3.Database, table: string): () => void {
  const hasRows = sqlite.prepare(`SELECT EXISTS (SELECT 1 FROM ${table})`).pluck().get() === 1;
  if (hasRows) return () => {};
  const indexes = sqlite
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
    )
    .all(table) as { name: string; sql: string }[];
  if (indexes.length === 0) return () => {};
  sqlite.transaction(() => {
    writeDeferred(sqlite, [...readDeferred(sqlite), ...indexes.map((index) => index.sql)]);
    for (const index of indexes) sqlite.exec(`DROP INDEX ${index.name}`);
  })();
  return () =>
    sqlite.transaction(() => {
      // Another connection that opened the replica meanwhile may have built them already.
      for (const index of indexes) sqlite.exec(ifNotExists(index.sql));
      const mine = new Set(indexes.map((index) => index.sql));
      writeDeferred(
        sqlite,
        readDeferred(sqlite).filter((sql) => !mine.has(sql)),
      );
    })();
}

/** Builds every index a load recorded as deferred but did not get to build (the process ended mid-load). */
export function restoreDeferredIndexes(sqlite: BetterSqlite3.Database): void {
  const pending = readDeferred(sqlite);
  if (pending.length === 0) return;
  sqlite.transaction(() => {
    for (const sql of pending) sqlite.exec(ifNotExists(sql));
    writeDeferred(sqlite, []);
  })();
}

/** `CREATE [UNIQUE] INDEX name …` as `CREATE [UNIQUE] INDEX IF NOT EXISTS name …`. */
function ifNotExists(sql: string): string {
  return sql.replace(
    /^CREATE\s+(UNIQUE\s+)?INDEX\s+(?!IF\s+NOT\s+EXISTS\b)/i,
    (create) => `${create}IF NOT EXISTS `,
  );
}

function readDeferred(sqlite: BetterSqlite3.Database): string[] {
  const value = sqlite
    .prepare('SELECT value FROM replica_meta WHERE key = ?')
    .pluck()
    .get(META_KEY);
  return typeof value === 'string' ? (JSON.parse(value) as string[]) : [];
}

function writeDeferred(sqlite: BetterSqlite3.Database, sql: readonly string[]): void {
  if (sql.length === 0) {
    sqlite.prepare('DELETE FROM replica_meta WHERE key = ?').run(META_KEY);
    return;
  }
  upsertRow(sqlite, 'replica_meta', ['key'], { key: META_KEY, value: JSON.stringify(sql) });
}
