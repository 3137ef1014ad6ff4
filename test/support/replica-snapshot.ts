// A replica's content as plain data, for comparing two replicas table by table (the same service
// read through different shapes or through faults must give the same replica), and the check
// that no reference of the replica dangles.
import type BetterSqlite3 from 'better-sqlite3';
import { expect } from 'vitest';
import { danglingReferences } from '../../sync/db/references';
import type { TableName } from '../../sync/db/schema';

/** Bookkeeping, not data: when and how a row was fetched differs between two syncs of the same data. */
const BOOKKEEPING_TABLES = new Set([
  'sync_state',
  'replica_meta',
  'sync_log',
  'answer_digests',
  'quarantine',
  'scan_seen',
  'confirmations',
  'rotations',
]);
const BOOKKEEPING_COLUMNS = new Set([
  'synced_at',
  'details_watermark',
  'trainings_watermark',
  'trainings_from_endpoint',
]);

export interface SnapshotOptions {
  /**
   * Compare `base` too. Off where the shapes differ on purpose: the base keeps attributes the
   * client does not know, which one shape has and the other has not.
   */
  withBase?: boolean;
  /** Leave these tables out (e.g. singletons that hold a token-dependent user-info). */
  skipTables?: readonly string[];
  /** The service's origin, written as ORIGIN: two sandboxes with the same data differ by their port. */
  origin?: string;
}

/**
 * The replica's tables of its own: a search index (a virtual table and its shadow tables, whose
 * blocks depend on the order rows came in) is derived from its table's rows, compared there.
 */
export function dataTables(sqlite: BetterSqlite3.Database): string[] {
  const names = (where: string) =>
    sqlite
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND ${where}`)
      .pluck()
      .all() as string[];
  const virtual = names("sql LIKE 'CREATE VIRTUAL%'");
  return names("name NOT LIKE 'sqlite_%'").filter(
    (name) => !virtual.some((index) => name === index || name.startsWith(`${index}_`)),
  );
}

/** Every data table's rows (bookkeeping columns left out), sorted, keyed by table name. */
export function snapshotReplica(
  sqlite: BetterSqlite3.Database,
  options: SnapshotOptions = {},
): Record<string, string[]> {
  const tables = dataTables(sqlite);
  const snapshot: Record<string, string[]> = {};
  for (const table of tables.sort()) {
    if (BOOKKEEPING_TABLES.has(table) || options.skipTables?.includes(table)) continue;
    const rows = sqlite.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
    snapshot[table] = rows
      .map((row) => {
        const text = JSON.stringify(
          Object.fromEntries(
            Object.entries(row).filter(
              ([column]) =>
                !BOOKKEEPING_COLUMNS.has(column) && (options.withBase || column !== 'base'),
            ),
          ),
        );
        return options.origin ? text.replaceAll(options.origin, 'ORIGIN') : text;
      })
      .sort();
  }
  return snapshot;
}

/** Tables whose rows differ, with a few rows of each side, for a readable failure. */
export function snapshotDifferences(
  actual: Record<string, string[]>,
  expected: Record<string, string[]>,
): Record<string, { rows: [number, number]; onlyActual: string[]; onlyExpected: string[] }> {
  const differences: ReturnType<typeof snapshotDifferences> = {};
  for (const table of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
    const a = new Set(actual[table] ?? []);
    const e = new Set(expected[table] ?? []);
    const onlyActual = [...a].filter((row) => !e.has(row));
    const onlyExpected = [...e].filter((row) => !a.has(row));
    if (onlyActual.length || onlyExpected.length)
      differences[table] = {
        rows: [a.size, e.size],
        onlyActual: onlyActual.slice(0, 3),
        onlyExpected: onlyExpected.slice(0, 3),
      };
  }
  return differences;
}

/**
 * Fails naming every reference of the replica that points at a row it does not hold. `includeWeak`
 * where the service deleted nobody: then even references to people must not dangle. `offered`,
 * per target table, tells whether the service offers a record anywhere the account reads: then a
 * reference that may dangle (Reference.unoffered) is checked too, and may miss only what the
 * service offers nowhere (for a target not named there, nothing).
 */
export function expectNoDanglingReferences(
  sqlite: BetterSqlite3.Database,
  profile: 'office' | 'trainer',
  options: {
    includeWeak?: boolean;
    offered?: Partial<Record<TableName, (id: string) => boolean>>;
  } = {},
): void {
  const { includeWeak, offered } = options;
  const found = danglingReferences(sqlite, profile, {
    includeWeak,
    includeUnoffered: offered !== undefined,
  })
    .map((d) => {
      const isOffered = offered?.[d.target];
      return d.unoffered && isOffered
        ? { ...d, missing: d.missing.filter((id) => isOffered(id)) }
        : d;
    })
    .filter((d) => d.missing.length > 0);
  expect(
    found.map(
      (d) =>
        `${d.table}.${d.column} → ${d.target}: ${d.missing.length} (${d.missing.slice(0, 5).join(', ')})`,
    ),
  ).toEqual([]);
}
