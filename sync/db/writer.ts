// Bulk writes of pulled data: prepared upserts inside short transactions (better-sqlite3 is
// synchronous, so the pull applies rows in bounded chunks and yields between them).
import type BetterSqlite3 from 'better-sqlite3';
import { RESOURCE_KEYS } from '../resources';
import type { TableName } from './schema';

type SqlValue = string | number | null;
export type RowValues = Record<string, SqlValue>;

/**
 * The primary key of each table that pulled rows are written to: a resource's from its module
 * (sync/resources), the rest here.
 */
const KEYS: Partial<Record<TableName, readonly string[]>> = {
  ...Object.fromEntries(RESOURCE_KEYS),
  qualifikationen: ['user_id', 'idx'],
  singletons: ['key'],
  formulare: ['objekt_typ', 'objekt_id', 'position'],
  course_trainers: ['course_id', 'user_id'],
  cancellations: ['id'],
  answer_digests: ['key'],
};

/**
 * Records with local changes (the outbox's): a pull writes the service's version as their base and
 * leaves the rest to these hooks (DESIGN rules 2 and 9).
 */
export interface LocalRecordHooks {
  /** The tables whose rows may carry local changes (a `local_state` column). */
  tables: ReadonlySet<string>;
  /** After the pull wrote a new base under a record with local changes: put them back on top. */
  rebase(table: string, id: string, previousBase: string): void;
  /** Of the ids a pull would remove, those that may go: records with local changes stay. */
  removable(table: string, ids: readonly string[]): string[];
}

/**
 * Columns not (only) taken from the record's own resource but from others: a course's first and
 * last day come from its dates; an hour type is active while the own settings list it.
 */
const DERIVED_COLUMNS: Partial<Record<TableName, readonly string[]>> = {
  courses: ['first_date', 'last_date'],
  helferstunden_typen: ['aktiv'],
};

/**
 * Where a row's base keeps the service's own change time (`updated_at`) of the record: in its
 * attributes, or (the user-info, a plain JSON document) at the top as OAuth's seconds since 1970.
 */
const CHANGE_TIME_PATHS: Partial<Record<TableName, string>> = {
  singletons:
    "coalesce(json_extract(@, '$.attributes.updated_at'), json_extract(@, '$.updated_at'))",
};
const CHANGE_TIME_PATH = "json_extract(@, '$.attributes.updated_at')";

/**
 * The service showed a record older than the version the replica holds of it: the record's
 * `updated_at` went back. The sign of a service restored from a backup (sync/pull/restore.ts).
 */
export interface OlderVersion {
  table: string;
  /** The record's key (its columns joined with ':' where it has several). */
  id: string;
  /** The change time of the version the replica held, and of the one the service shows now. */
  seenUpdatedAt: string;
  shownUpdatedAt: string;
  /** When the version the replica held was written (its synced_at). */
  seenSyncedAt: string;
}

/**
 * Whether the change time `shown` is older than `seen` by more than the way a time is written
 * could explain: both must be times (an absent, empty or zero time tells nothing), and `shown`
 * at least two whole seconds older, so a service that writes a time to the millisecond in one
 * answer and in whole seconds (truncated or rounded) in another is never taken for a restore.
 */
export function isOlderVersion(seen: unknown, shown: unknown): boolean {
  const before = changeTimeMs(seen);
  const now = changeTimeMs(shown);
  if (before === null || now === null) return false;
  return Math.floor(now / 1000) <= Math.floor(before / 1000) - 2;
}

/** A change time in milliseconds: an ISO date-time, or OAuth's seconds since 1970; else null. */
function changeTimeMs(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value * 1000 : null;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) return null;
  if (value.startsWith('0000')) return null;
  const ms = Date.parse(value.replace(' ', 'T'));
  return Number.isFinite(ms) ? ms : null;
}

/** A change time as text: OAuth's seconds since 1970 as an ISO date-time. */
function asText(value: unknown): string {
  return typeof value === 'number' ? new Date(value * 1000).toISOString() : String(value);
}

/** The SQL function the upserts call for a record whose base changed (see upsertStatement). */
const VERSION_FUNCTION = 'vorort_changed_version';
/** Per connection: the writer whose upsert is running (the function reports to it). */
const upserting = new WeakMap<BetterSqlite3.Database, ReplicaWriter>();
const withVersionFunction = new WeakSet<BetterSqlite3.Database>();

function registerVersionFunction(sqlite: BetterSqlite3.Database): void {
  if (withVersionFunction.has(sqlite)) return;
  withVersionFunction.add(sqlite);
  sqlite.function(
    VERSION_FUNCTION,
    { deterministic: false },
    (table: unknown, id: unknown, seen: unknown, shown: unknown, seenSyncedAt: unknown) => {
      if (isOlderVersion(seen, shown))
        upserting.get(sqlite)?.noteOlderVersion({
          table: String(table),
          id: String(id),
          seenUpdatedAt: asText(seen),
          shownUpdatedAt: asText(shown),
          seenSyncedAt: String(seenSyncedAt),
        });
      // The service's version is written whatever it says: the function only watches.
      return 1;
    },
  );
}

export class ReplicaWriter {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  /** One transaction wrapper for every call: better-sqlite3 builds several functions per wrapper. */
  private readonly inTransaction: (fn: () => unknown) => unknown;
  private readonly columnsOf = new Map<string, ReadonlySet<string>>();
  private olderVersionListener: ((older: OlderVersion) => void) | undefined;

  constructor(
    readonly sqlite: BetterSqlite3.Database,
    private readonly local?: LocalRecordHooks,
  ) {
    this.inTransaction = sqlite.transaction((fn: () => unknown) => fn());
    registerVersionFunction(sqlite);
  }

  /**
   * Tells `listener` of every record this writer's upserts find older on the service than in the
   * replica (see isOlderVersion): a record whose base changed, that was written before this
   * writer's rows (its synced_at is earlier than theirs: never a second copy within one sync,
   * nor an answer to a request that left before our own write was answered) and that has no local
   * changes (its base may be the answer to our own write). Unchanged rows cost nothing.
   */
  onOlderVersion(listener: (older: OlderVersion) => void): void {
    this.olderVersionListener = listener;
  }

  /** Called by the SQL function while this writer's upsert runs. */
  noteOlderVersion(older: OlderVersion): void {
    this.olderVersionListener?.(older);
  }

  /**
   * Inserts or updates rows by primary key; columns not in the row (e.g. `pending`) keep their
   * value. Every row has the columns of the first. Values are bound by position: measurably
   * cheaper than by name on 100,000 rows.
   */
  upsert<Row extends object>(table: TableName, rows: readonly Row[]): void {
    const first = rows[0];
    if (!first) return;
    const withLocalChanges = this.localBases(table);
    const columns = Object.keys(first);
    const statement = this.upsertStatement(table, columns);
    const values: SqlValue[] = new Array<SqlValue>(columns.length);
    const previousWriter = upserting.get(this.sqlite);
    upserting.set(this.sqlite, this);
    try {
      for (const row of rows) {
        for (let i = 0; i < columns.length; i += 1) {
          values[i] = (row as RowValues)[columns[i] as string] ?? null;
        }
        statement.run(values);
      }
    } finally {
      if (previousWriter) upserting.set(this.sqlite, previousWriter);
      else upserting.delete(this.sqlite);
    }
    if (withLocalChanges.size === 0) return;
    for (const row of rows) {
      const id = (row as RowValues).id;
      const previous = typeof id === 'string' ? withLocalChanges.get(id) : undefined;
      if (previous !== undefined) this.local?.rebase(table, id as string, previous);
    }
  }

  /** id → base of the table's rows with local changes (usually none: one indexed lookup). */
  private localBases(table: TableName): Map<string, string> {
    if (!this.local?.tables.has(table)) return new Map();
    const rows = this.statement(
      `SELECT id, base FROM ${table} WHERE local_state IS NOT NULL`,
    ).all() as { id: string; base: string }[];
    return new Map(rows.map((row) => [row.id, row.base]));
  }

  /** Deletes rows whose `column` equals one of `values` (chunked to stay under SQLite's variable limit). */
  deleteWhereIn(table: TableName, column: string, values: readonly string[]): number {
    const local = this.local?.tables.has(table) ? this.local : undefined;
    if (local && column === 'id') values = local.removable(table, values);
    // Replaced per parent (a person's trainings): rows with local changes stay for the rebase.
    const spare = local && column !== 'id' ? ' AND local_state IS NULL' : '';
    let deleted = 0;
    for (let start = 0; start < values.length; start += 500) {
      const chunk = values.slice(start, start + 500);
      const placeholders = chunk.map(() => '?').join(',');
      deleted += this.statement(
        `DELETE FROM ${table} WHERE ${column} IN (${placeholders})${spare}`,
      ).run(...chunk).changes;
    }
    return deleted;
  }

  /**
   * A prepared statement for `sql`, prepared once per writer: the pull runs the same queries for
   * every course and person. A statement's mode (pluck, raw) sticks, so use one mode per SQL text.
   */
  statement(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs fn in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T {
    return this.inTransaction(fn) as T;
  }

  private upsertStatement(table: TableName, columns: readonly string[]): BetterSqlite3.Statement {
    const cacheKey = `${table}:${columns.join(',')}`;
    const cached = this.statements.get(cacheKey);
    if (cached) return cached;
    const keys = KEYS[table];
    if (!keys) throw new Error(`No primary key known for table ${table}`);
    const updates = columns.filter((c) => !keys.includes(c)).map((c) => `${c} = excluded.${c}`);
    // A record whose base is unchanged is not rewritten: no page or index write for what is already
    // there. Columns derived from other records (a course's first and last day, from its dates)
    // are compared too: a date can move while the course's own resource stays the same.
    const compared = ['base', ...(DERIVED_COLUMNS[table] ?? [])].filter((c) => columns.includes(c));
    const onlyChanged = columns.includes('base')
      ? ` WHERE (${compared.map((c) => `${table}.${c} IS NOT excluded.${c}`).join(' OR ')})${this.versionCheck(table, columns, keys)}`
      : '';
    const sql =
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
      `ON CONFLICT (${keys.join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}${onlyChanged}` : 'NOTHING'}`;
    const statement = this.sqlite.prepare(sql);
    this.statements.set(cacheKey, statement);
    return statement;
  }

  /**
   * The part of an upsert's condition that compares the service's change times of a record whose
   * base changed (see onOlderVersion); always true, so it never keeps a row from being written.
   * CASE evaluates it only for such rows: an unchanged row costs nothing.
   */
  private versionCheck(table: TableName, columns: readonly string[], keys: readonly string[]) {
    if (!columns.includes('synced_at')) return '';
    const path = CHANGE_TIME_PATHS[table] ?? CHANGE_TIME_PATH;
    const changeTime = (row: string) => path.replaceAll('@', `${row}.base`);
    const local = this.columns(table).has('local_state') ? ` AND ${table}.local_state IS NULL` : '';
    const key = keys.map((k) => `excluded.${k}`).join(" || ':' || ");
    return (
      ` AND CASE WHEN ${table}.base IS NOT excluded.base AND ${table}.synced_at < excluded.synced_at${local}` +
      ` AND json_valid(${table}.base) AND json_valid(excluded.base)` +
      ` THEN ${VERSION_FUNCTION}('${table}', ${key}, ${changeTime(table)}, ${changeTime('excluded')}, ${table}.synced_at)` +
      ' ELSE 1 END'
    );
  }

  private columns(table: TableName): ReadonlySet<string> {
    let names = this.columnsOf.get(table);
    if (!names) {
      const info = this.sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
      names = new Set(info.map((column) => column.name));
      this.columnsOf.set(table, names);
    }
    return names;
  }
}
