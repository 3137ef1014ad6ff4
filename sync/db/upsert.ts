// The replica's one upsert: rows written by their primary key, inserted or updated in place, never
// REPLACEd (a replaced course would take its participations with it: ON DELETE CASCADE). Two
// kinds of rows go through it:
// - 'service': the service's version of records, as the pull writes them. A row whose base (and
//   derived columns) is unchanged is not rewritten; the local columns are never touched (DESIGN
//   rule 2: they are the outbox's); and a record the service shows older than the replica held it
//   is reported (a service restored from a backup, sync/pull/restore.ts).
// - 'local': a row the replica itself decides, written as it is: the outbox's local truth (a
//   record's base with its local changes on top, or the answer to our own write) and the sync's
//   own bookkeeping (its state per collection, confirmations, rotations).
import type { Sqlite, SqliteStatement } from './sqlite';
import type { TableName } from './schema';
import { prepared, preparedAs } from './statements';

export type SqlValue = string | number | null;
export type RowValues = Record<string, SqlValue>;

/** Whose version a row is: the service's (the pull) or the replica's own (see the header). */
export type RowSource = 'service' | 'local';

/** The columns of a record's local changes and their state: the outbox's alone. */
const LOCAL_COLUMNS: readonly string[] = ['pending', 'local_state'];

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

/** The SQL function a service upsert calls for a record whose base changed (see versionCheck). */
const VERSION_FUNCTION = 'vorort_changed_version';
/** Per connection: who hears of older versions while a service upsert runs. */
const listening = new WeakMap<Sqlite, (older: OlderVersion) => void>();
const withVersionFunction = new WeakSet<Sqlite>();

function registerVersionFunction(sqlite: Sqlite): void {
  if (withVersionFunction.has(sqlite)) return;
  withVersionFunction.add(sqlite);
  sqlite.function(
    VERSION_FUNCTION,
    { deterministic: false },
    (table: unknown, id: unknown, seen: unknown, shown: unknown, seenSyncedAt: unknown) => {
      if (isOlderVersion(seen, shown))
        listening.get(sqlite)?.({
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

/**
 * Inserts or updates `rows` of `table` by its primary key `keys` (always the same for a table);
 * columns not in the rows keep their value. Every row has the columns of the first. Values are bound by position: measurably
 * cheaper than by name on 100,000 rows. Rows from the service tell `onOlderVersion` of each
 * record shown older than the replica's version (see versionCheck).
 */
export function upsertRows(
  sqlite: Sqlite,
  table: TableName,
  keys: readonly string[],
  rows: readonly object[],
  source: RowSource,
  onOlderVersion?: (older: OlderVersion) => void,
): void {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const statement = preparedAs(sqlite, `upsert ${source} ${table} (${columns.join(', ')})`, () =>
    upsertSql(sqlite, table, keys, columns, source),
  );
  if (source === 'local') return runRows(statement, columns, rows);
  const previous = listening.get(sqlite);
  if (onOlderVersion) listening.set(sqlite, onOlderVersion);
  else listening.delete(sqlite);
  try {
    runRows(statement, columns, rows);
  } finally {
    if (previous) listening.set(sqlite, previous);
    else listening.delete(sqlite);
  }
}

function runRows(
  statement: SqliteStatement,
  columns: readonly string[],
  rows: readonly object[],
): void {
  const values: SqlValue[] = new Array<SqlValue>(columns.length);
  for (const row of rows) {
    for (let i = 0; i < columns.length; i += 1) {
      values[i] = (row as RowValues)[columns[i] as string] ?? null;
    }
    statement.run(values);
  }
}

function upsertSql(
  sqlite: Sqlite,
  table: TableName,
  keys: readonly string[],
  columns: readonly string[],
  source: RowSource,
): string {
  const written =
    source === 'service' ? columns.filter((c) => !LOCAL_COLUMNS.includes(c)) : columns;
  const updates = written.filter((c) => !keys.includes(c)).map((c) => `${c} = excluded.${c}`);
  const insert =
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
    `ON CONFLICT (${keys.join(', ')}) DO `;
  if (updates.length === 0) return `${insert}NOTHING`;
  if (source === 'local' || !columns.includes('base'))
    return `${insert}UPDATE SET ${updates.join(', ')}`;
  // A record whose base is unchanged is not rewritten: no page or index write for what is already
  // there. Columns derived from other records (a course's first and last day, from its dates)
  // are compared too: a date can move while the course's own resource stays the same.
  const compared = ['base', ...(DERIVED_COLUMNS[table] ?? [])].filter((c) => columns.includes(c));
  const changed = compared.map((c) => `${table}.${c} IS NOT excluded.${c}`).join(' OR ');
  return `${insert}UPDATE SET ${updates.join(', ')} WHERE (${changed})${versionCheck(sqlite, table, keys, columns)}`;
}

/**
 * The part of a service upsert's condition that compares the service's change times of a record
 * whose base changed: a record written before these rows (its synced_at is earlier than theirs:
 * never a second copy within one sync, nor an answer to a request that left before our own write
 * was answered) that has no local changes (its base may be the answer to our own write). Always
 * true, so it never keeps a row from being written. CASE evaluates it only for such rows: an
 * unchanged row costs nothing.
 */
function versionCheck(
  sqlite: Sqlite,
  table: TableName,
  keys: readonly string[],
  columns: readonly string[],
): string {
  if (!columns.includes('synced_at')) return '';
  registerVersionFunction(sqlite);
  const path = CHANGE_TIME_PATHS[table] ?? CHANGE_TIME_PATH;
  const changeTime = (row: string) => path.replaceAll('@', `${row}.base`);
  const local = hasColumn(sqlite, table, 'local_state') ? ` AND ${table}.local_state IS NULL` : '';
  const key = keys.map((k) => `excluded.${k}`).join(" || ':' || ");
  return (
    ` AND CASE WHEN ${table}.base IS NOT excluded.base AND ${table}.synced_at < excluded.synced_at${local}` +
    ` AND json_valid(${table}.base) AND json_valid(excluded.base)` +
    ` THEN ${VERSION_FUNCTION}('${table}', ${key}, ${changeTime(table)}, ${changeTime('excluded')}, ${table}.synced_at)` +
    ' ELSE 1 END'
  );
}

function hasColumn(sqlite: Sqlite, table: string, column: string): boolean {
  return (
    prepared(sqlite, 'SELECT 1 FROM pragma_table_info(?) WHERE name = ?').get(table, column) !==
    undefined
  );
}

/** One row the replica itself decides ('local'): written as it is (see upsertRows). */
export function upsertRow(
  sqlite: Sqlite,
  table: TableName,
  keys: readonly string[],
  row: object,
): void {
  upsertRows(sqlite, table, keys, [row], 'local');
}
