// Opens the replica: a SQLite file (WAL, foreign keys, mode 0600) with every migration applied.
import { chmodSync, existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { restoreDeferredIndexes } from './deferred-indexes';
import { MIGRATIONS } from './migrations';
import type { Database } from './schema';

export interface Replica {
  /** Typed queries (reads of the contract, small writes). */
  db: Kysely<Database>;
  /** The same connection, for bulk writes with prepared statements inside one transaction. */
  sqlite: BetterSqlite3.Database;
  close(): Promise<void>;
}

export class ReplicaError extends Error {
  override name = 'ReplicaError';
}

export interface OpenReplicaOptions {
  /** Called with the SQL and milliseconds of any statement slower than slowQueryMs. */
  onSlowQuery?: (sql: string, ms: number) => void;
  slowQueryMs?: number;
}

export function openReplica(file: string, options: OpenReplicaOptions = {}): Replica {
  const isNew = file !== ':memory:' && !existsSync(file);
  let sqlite: BetterSqlite3.Database;
  try {
    sqlite = new BetterSqlite3(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Screens jump between lists (personnel by another letter, another course): reads through a
    // memory map and a larger page cache instead of a system call per page of a 100 MB replica.
    sqlite.pragma('mmap_size = 268435456');
    sqlite.pragma('cache_size = -32768');
  } catch (error) {
    throw new ReplicaError(`Cannot open the replica ${file}: ${(error as Error).message}`);
  }
  // Personal data of volunteers: readable by the owner only.
  if (isNew) chmodSync(file, 0o600);
  migrate(sqlite, file);
  restoreDeferredIndexes(sqlite);

  const slowQueryMs = options.slowQueryMs ?? 40;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: options.onSlowQuery
      ? (event) => {
          if (event.queryDurationMillis > slowQueryMs) {
            options.onSlowQuery?.(event.query.sql, event.queryDurationMillis);
          }
        }
      : undefined,
  });
  return {
    db,
    sqlite,
    async close() {
      await db.destroy();
    },
  };
}

function migrate(sqlite: BetterSqlite3.Database, file: string): void {
  const version = sqlite.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    sqlite.close();
    throw new ReplicaError(
      `The replica ${file} was written by a newer Vorort (schema ${version}, this one knows ${MIGRATIONS.length}).`,
    );
  }
  const apply = sqlite.transaction(() => {
    for (let next = version; next < MIGRATIONS.length; next += 1) {
      sqlite.exec(MIGRATIONS[next] as string);
      sqlite.pragma(`user_version = ${next + 1}`);
    }
  });
  apply();
}
