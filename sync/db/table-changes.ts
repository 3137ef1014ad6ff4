// Which tables of the replica changed: every statement of a connection that writes notes the
// tables it wrote once it reports changed rows (and the tables a deletion cascades to or its
// triggers write), so the core can tell the screens exactly what to read again (data.changed
// names tables) without a list kept by hand beside each command and collection. Cheap: a check
// per run, no SQL added.
import type { Sqlite, SqliteStatement } from './sqlite';
import { forgetStatements } from './statements';

/** The tables a write names: INSERT/REPLACE INTO t, UPDATE t, DELETE FROM t (Kysely quotes names). */
const WRITE_TARGET =
  /\b(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+["`[]?(\w+)/gi;

export interface TableChanges {
  /** The tables written since the last take (sorted), and forgets them. */
  take(): string[];
  /** Notes tables changed outside this connection's statements (another connection's, a drop). */
  note(tables: Iterable<string>): void;
  /** Notes that any table may have changed (another connection's work that ended midway). */
  noteAll(): void;
  /**
   * How often `table` was noted changed, never reset by take: what keeps a copy of it in memory
   * (sync/queries/hours-columns.ts) knows it is current while the number is the same.
   */
  version(table: string): number;
}

const recorders = new WeakMap<Sqlite, TableChanges>();

/** The recorder of a connection that recordTableChanges set up (null for one it did not). */
export function tableChangesOf(sqlite: Sqlite): TableChanges | null {
  return recorders.get(sqlite) ?? null;
}

/**
 * Makes every statement this connection prepares from now on note the tables it writes. Set up
 * once per connection, after its migrations and before anything else prepares a statement
 * (openReplica does).
 */
export function recordTableChanges(sqlite: Sqlite): TableChanges {
  const existing = recorders.get(sqlite);
  if (existing) return existing;
  forgetStatements(sqlite);
  const changed = new Set<string>();
  const versions = new Map<string, number>();
  let everything = 0;
  const noteOne = (table: string) => {
    changed.add(table);
    versions.set(table, (versions.get(table) ?? 0) + 1);
  };
  /** Table name (lower case) → itself and the tables its deletions cascade to. */
  const schema = readSchema(sqlite);
  const targetsOf = (sql: string): readonly string[] => {
    const tables = new Set<string>();
    // Names that are no table (`DO UPDATE SET`) find nothing.
    for (const match of sql.matchAll(WRITE_TARGET))
      for (const table of schema.get((match[1] as string).toLowerCase()) ?? []) tables.add(table);
    return [...tables];
  };
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.readonly) return statement;
    const targets = targetsOf(source);
    if (targets.length === 0) return statement;
    const note = () => {
      for (const table of targets) noteOne(table);
    };
    const run = statement.run;
    statement.run = function (this: SqliteStatement, ...params: unknown[]) {
      const result = run.apply(this, params);
      if (result.changes > 0) note();
      return result;
    } as typeof statement.run;
    // A write that answers rows (RETURNING): noted whenever it runs.
    for (const method of ['get', 'all', 'iterate'] as const) {
      const original = statement[method] as (...params: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = function (
        this: SqliteStatement,
        ...params: unknown[]
      ) {
        note();
        return original.apply(this, params);
      };
    }
    return statement;
  }) as typeof sqlite.prepare;
  const recorder: TableChanges = {
    take() {
      const tables = [...changed].sort();
      changed.clear();
      return tables;
    },
    note(tables) {
      for (const table of tables) noteOne(table);
    },
    noteAll() {
      everything += 1;
    },
    version(table) {
      return (versions.get(table) ?? 0) + everything;
    },
  };
  recorders.set(sqlite, recorder);
  return recorder;
}

function readSchema(sqlite: Sqlite): Map<string, readonly string[]> {
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  const cascades = new Map<string, string[]>(tables.map((table) => [table, []]));
  for (const child of tables) {
    const keys = sqlite.prepare(`PRAGMA foreign_key_list(${child})`).all() as {
      table: string;
      on_delete: string;
    }[];
    for (const key of keys)
      if (key.on_delete === 'CASCADE' || key.on_delete === 'SET NULL')
        cascades.get(key.table)?.push(child);
  }
  // A trigger's writes change their tables with its own (migration 10 keeps the people per
  // status); a full-text index's are left out (no read declares it: its table's change names it).
  const triggers = sqlite
    .prepare(`SELECT t.tbl_name AS on_table, t.sql FROM sqlite_schema t WHERE t.type = 'trigger'`)
    .all() as { on_table: string; sql: string }[];
  const plain = new Set(
    sqlite
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'`,
      )
      .pluck()
      .all() as string[],
  );
  for (const trigger of triggers) {
    const body = trigger.sql.slice(trigger.sql.search(/\bBEGIN\b/i));
    for (const match of body.matchAll(WRITE_TARGET)) {
      const target = match[1] as string;
      if (plain.has(target) && target !== trigger.on_table)
        cascades.get(trigger.on_table)?.push(target);
    }
  }
  const closure = (table: string, seen = new Set<string>()): string[] => {
    if (seen.has(table)) return [];
    seen.add(table);
    return [table, ...(cascades.get(table) ?? []).flatMap((child) => closure(child, seen))];
  };
  return new Map(tables.map((table) => [table.toLowerCase(), closure(table)]));
}
