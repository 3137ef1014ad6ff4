// Bulk writes of pulled data: the service's versions through the replica's one upsert
// (sync/db/upsert.ts) inside short transactions (better-sqlite3 is synchronous, so the pull
// applies rows in bounded chunks and yields between them), and the records with local changes.
import type BetterSqlite3 from 'better-sqlite3';
import { RESOURCE_KEYS } from '../resources';
import type { TableName } from './schema';
import { prepared } from './statements';
import { upsertRows, type OlderVersion } from './upsert';

export type { RowValues } from './upsert';

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

export class ReplicaWriter {
  /** One transaction wrapper for every call: better-sqlite3 builds several functions per wrapper. */
  private readonly inTransaction: (fn: () => unknown) => unknown;
  private olderVersionListener: ((older: OlderVersion) => void) | undefined;

  constructor(
    readonly sqlite: BetterSqlite3.Database,
    private readonly local?: LocalRecordHooks,
  ) {
    this.inTransaction = sqlite.transaction((fn: () => unknown) => fn());
  }

  /**
   * Tells `listener` of every record this writer's upserts find older on the service than in the
   * replica (see isOlderVersion and the service upsert's version check in sync/db/upsert.ts).
   * Unchanged rows cost nothing.
   */
  onOlderVersion(listener: (older: OlderVersion) => void): void {
    this.olderVersionListener = listener;
  }

  /**
   * Inserts or updates the service's version of rows by primary key (see upsertRows): columns not
   * in the row (`pending`, `local_state`) keep their value; records with local changes get them
   * back on top (the hooks' rebase).
   */
  upsert<Row extends object>(table: TableName, rows: readonly Row[]): void {
    if (rows.length === 0) return;
    const keys = KEYS[table];
    if (!keys) throw new Error(`No primary key known for table ${table}`);
    const withLocalChanges = this.localBases(table);
    upsertRows(this.sqlite, table, keys, rows, 'service', this.olderVersionListener);
    if (withLocalChanges.size === 0) return;
    for (const row of rows) {
      const id = (row as Record<string, unknown>).id;
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
   * The connection's prepared statement for `sql` (sync/db/statements.ts): the pull runs the same
   * queries for every course and person.
   */
  statement(sql: string): BetterSqlite3.Statement {
    return prepared(this.sqlite, sql);
  }

  /** Runs fn in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T {
    return this.inTransaction(fn) as T;
  }
}
