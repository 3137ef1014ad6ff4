// Opens the replica: a SQLite file (WAL, foreign keys, mode 0600) with every migration applied;
// a file that is not a replica is refused with a ReplicaError before anything is written to it.
import {
  chmodSync,
  closeSync,
  existsSync,
  openSync,
  readSync,
  statSync,
  type Stats,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { restoreDeferredIndexes } from './deferred-indexes';
import { MIGRATIONS } from './migrations';
import { registerSearchFold } from './search-fold';
import { prepared } from './statements';
import { recordTableChanges } from './table-changes';
import type { Database } from './schema';

export interface Replica {
  /** Typed queries (reads of the contract, small writes). */
  db: Kysely<Database>;
  /** The same connection, for bulk writes with prepared statements inside one transaction. */
  sqlite: BetterSqlite3.Database;
  close(): Promise<void>;
}

/** What is wrong with a file given as the replica, so a caller can tell a person what to do. */
export type ReplicaProblem =
  | 'missing'
  | 'missing-folder'
  | 'folder'
  | 'empty'
  | 'not-sqlite'
  | 'foreign'
  | 'newer'
  | 'cannot-open';

export class ReplicaError extends Error {
  override name = 'ReplicaError';
  constructor(
    message: string,
    readonly problem: ReplicaProblem = 'cannot-open',
  ) {
    super(message);
  }
}

export interface OpenReplicaOptions {
  /** Called with the SQL and milliseconds of any statement slower than slowQueryMs. */
  onSlowQuery?: (sql: string, ms: number) => void;
  slowQueryMs?: number;
  /**
   * 'create' (the default, for a sync): a missing or empty (0-byte) file becomes a new replica.
   * 'existing' (for reading: `vorort status`, a UI): the file must already be a replica. Neither
   * mode writes anything into a file that is not a Vorort replica (another program's SQLite file,
   * a text file, one of a newer schema); both fail with a ReplicaError naming the problem. A
   * replica of an older schema is upgraded in both modes.
   */
  mode?: 'create' | 'existing';
  /**
   * better-sqlite3's compiled module to load (its `nativeBinding` option): the Electron app runs
   * on another Node ABI than the tests, the CLI and browser mode, so it passes the build made for
   * Electron (`npm run build:native-electron`). Default: the environment's VORORT_SQLITE_BINDING
   * (how the Electron app reaches its sync worker threads too), else the package's own build.
   */
  nativeBinding?: string;
  /**
   * What the connection is for. 'screens' (the default): reads through a memory map and a 32 MB
   * page cache, as screens jump between lists. 'sync': the connection that writes what the pull
   * brings (the sync worker, `vorort sync`): no memory map, as a first sync touches most of the
   * file and every mapped page it read would count as the process's memory (about 30 MB of the
   * `large` office's first sync), and a 16 MB page cache; its writes go through the cache either
   * way (issue 25: peak memory of a first sync).
   */
  use?: 'screens' | 'sync';
}

/** The environment variable naming better-sqlite3's compiled module (see nativeBinding). */
export const SQLITE_BINDING_ENV = 'VORORT_SQLITE_BINDING';

/** The nativeBinding option to use: the given path, the environment's, or none (the package's own). */
export function nativeBindingFor(
  given: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const path = given ?? env[SQLITE_BINDING_ENV];
  return path && path.length > 0 ? path : undefined;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

export function openReplica(file: string, options: OpenReplicaOptions = {}): Replica {
  const mode = options.mode ?? 'create';
  const isNew = file !== ':memory:' && checkFile(file, mode) === 'new';
  let sqlite: BetterSqlite3.Database;
  try {
    const nativeBinding = nativeBindingFor(options.nativeBinding);
    sqlite = new BetterSqlite3(file, {
      fileMustExist: mode === 'existing',
      ...(nativeBinding ? { nativeBinding } : {}),
    });
  } catch (error) {
    throw new ReplicaError(`Cannot open the replica ${file}: ${(error as Error).message}`);
  }
  try {
    // Before any pragma that writes (WAL changes the file header): is this a replica at all?
    checkSchema(sqlite, file, mode);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Screens jump between lists (personnel by another letter, another course): reads through a
    // memory map and a larger page cache instead of a system call per page of a 100 MB replica.
    // A sync's connection neither (see OpenReplicaOptions.use).
    if (options.use === 'sync') {
      sqlite.pragma('mmap_size = 0');
      sqlite.pragma('cache_size = -16384');
    } else {
      sqlite.pragma('mmap_size = 268435456');
      sqlite.pragma('cache_size = -32768');
    }
  } catch (error) {
    sqlite.close();
    if (error instanceof ReplicaError) throw error;
    throw new ReplicaError(`Cannot open the replica ${file}: ${(error as Error).message}`);
  }
  // Personal data of volunteers: readable by the owner only.
  if (isNew) chmodSync(file, 0o600);
  // Before the migrations: migration 7 folds the people held as a search does.
  registerSearchFold(sqlite);
  migrate(sqlite);
  restoreDeferredIndexes(sqlite);
  recordTableChanges(sqlite);

  const slowQueryMs = options.slowQueryMs ?? 40;
  const db = new Kysely<Database>({
    // Kysely's driver prepares its SQL again for every query; through the replica's statement
    // cache a screen's query is planned once (a personnel page: two statements, each costing as
    // much to prepare as to run).
    dialect: new SqliteDialect({
      database: { prepare: (text: string) => prepared(sqlite, text), close: () => sqlite.close() },
    }),
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
      // Kysely closes the connection only if it ever ran a query; reads through `sqlite` alone
      // (status) would otherwise leave it open, with its WAL beside the file.
      if (sqlite.open) sqlite.close();
    },
  };
}

/** Checks the path before SQLite sees it; answers 'new' when a sync may create the replica there. */
function checkFile(file: string, mode: 'create' | 'existing'): 'new' | 'existing' {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    const folder = dirname(resolve(file));
    if (!existsSync(folder))
      throw new ReplicaError(
        `${mode === 'existing' ? 'No replica at' : 'Cannot create the replica'} ${file}: the folder ${folder} does not exist`,
        'missing-folder',
      );
    if (mode === 'existing')
      throw new ReplicaError(`No replica at ${file} (run "vorort sync" first)`, 'missing');
    return 'new';
  }
  if (stats.isDirectory())
    throw new ReplicaError(`${file} is a folder, not a replica file`, 'folder');
  if (!stats.isFile()) throw new ReplicaError(`${file} is not a regular file`, 'not-sqlite');
  if (stats.size === 0) {
    if (mode === 'existing')
      throw new ReplicaError(
        `${file} is empty, not a replica (run "vorort sync" to fill it)`,
        'empty',
      );
    return 'new';
  }
  const header = Buffer.alloc(SQLITE_MAGIC.length);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    readSync(fd, header, 0, header.length, 0);
  } catch (error) {
    throw new ReplicaError(`Cannot read the replica ${file}: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (header.toString('latin1') !== SQLITE_MAGIC)
    throw new ReplicaError(`${file} is not a SQLite database, so not a replica`, 'not-sqlite');
  return 'existing';
}

/** Refuses another program's database and one written by a newer Vorort, before writing anything. */
function checkSchema(
  sqlite: BetterSqlite3.Database,
  file: string,
  mode: 'create' | 'existing',
): void {
  const version = sqlite.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length)
    throw new ReplicaError(
      `The replica ${file} was written by a newer Vorort (schema ${version}, this one knows ${MIGRATIONS.length}); update Vorort to use it`,
      'newer',
    );
  if (version > 0) return;
  const objects = sqlite.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number;
  if (objects > 0)
    throw new ReplicaError(
      `${file} is a SQLite database of another program, not a Vorort replica`,
      'foreign',
    );
  if (mode === 'existing')
    throw new ReplicaError(`${file} holds no replica yet (run "vorort sync" to fill it)`, 'empty');
}

function migrate(sqlite: BetterSqlite3.Database): void {
  const version = sqlite.pragma('user_version', { simple: true }) as number;
  const apply = sqlite.transaction(() => {
    for (let next = version; next < MIGRATIONS.length; next += 1) {
      sqlite.exec(MIGRATIONS[next] as string);
      sqlite.pragma(`user_version = ${next + 1}`);
    }
  });
  apply();
}
