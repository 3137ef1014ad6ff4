// Bulk writes of pulled data: prepared upserts inside short transactions (better-sqlite3 is
// synchronous, so the pull applies rows in bounded chunks and yields between them).
import type BetterSqlite3 from 'better-sqlite3';
import type { TableName } from './schema';

type SqlValue = string | number | null;
export type RowValues = Record<string, SqlValue>;

/** The primary key of each table that pulled rows are written to. */
const KEYS: Partial<Record<TableName, readonly string[]>> = {
  users: ['id'],
  qualifikationen: ['user_id', 'idx'],
  organisations: ['id'],
  ausbildungen: ['id'],
  ueberpruefungen: ['id'],
  ehrungen: ['id'],
  singletons: ['key'],
  kalender: ['id'],
  helferstunden_typen: ['id'],
  anlass_referenzen: ['type', 'id'],
  helferstunden_anlaesse: ['id'],
  helferstunden: ['id'],
  benachrichtigungen: ['id'],
  formulare: ['objekt_typ', 'objekt_id', 'position'],
  steuersaetze: ['id'],
  course_types: ['id'],
  uvts: ['id'],
  clients: ['id'],
  companies: ['id'],
  addresses: ['id'],
  courses: ['id'],
  course_trainers: ['course_id', 'user_id'],
  course_dates: ['id'],
  participations: ['id'],
  cancellations: ['id'],
  client_participants: ['client_id', 'id'],
  customfields: ['id'],
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

/** Columns not taken from the record's own resource but from others it names. */
const DERIVED_COLUMNS: Partial<Record<TableName, readonly string[]>> = {
  courses: ['first_date', 'last_date'],
};

export class ReplicaWriter {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  /** One transaction wrapper for every call: better-sqlite3 builds several functions per wrapper. */
  private readonly inTransaction: (fn: () => unknown) => unknown;

  constructor(
    readonly sqlite: BetterSqlite3.Database,
    private readonly local?: LocalRecordHooks,
  ) {
    this.inTransaction = sqlite.transaction((fn: () => unknown) => fn());
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
    for (const row of rows) {
      for (let i = 0; i < columns.length; i += 1) {
        values[i] = (row as RowValues)[columns[i] as string] ?? null;
      }
      statement.run(values);
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
      ? ` WHERE ${compared.map((c) => `${table}.${c} IS NOT excluded.${c}`).join(' OR ')}`
      : '';
    const sql =
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
      `ON CONFLICT (${keys.join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}${onlyChanged}` : 'NOTHING'}`;
    const statement = this.sqlite.prepare(sql);
    this.statements.set(cacheKey, statement);
    return statement;
  }
}
