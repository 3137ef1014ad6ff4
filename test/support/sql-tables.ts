// The tables a piece of code really reads and writes, as SQLite itself says: every statement run
// while it works is recorded with its parameters, then SQLite's own program for it (EXPLAIN) names
// the b-trees it opens for reading (OpenRead) and writing (OpenWrite), each mapped to its table.
// Keeps hand-written declarations (which tables a query reads) true.
import BetterSqlite3 from 'better-sqlite3';

interface Ran {
  source: string;
  params: unknown[];
}

let recording: Ran[] | null = null;
let patched = false;

/**
 * Patches better-sqlite3's statements once (before the connection under test prepares anything
 * that is kept, so cached statements are seen too): while capture runs, each run is recorded.
 */
export function watchStatements(): void {
  if (patched) return;
  patched = true;
  const scratch = new BetterSqlite3(':memory:');
  const prototype = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as Record<
    string,
    (...params: unknown[]) => unknown
  >;
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = prototype[method]!;
    prototype[method] = function (this: BetterSqlite3.Statement, ...params: unknown[]) {
      recording?.push({ source: this.source, params });
      return original.apply(this, params);
    };
  }
  scratch.close();
}

export interface TablesUsed {
  reads: Set<string>;
  writes: Set<string>;
}

/** Runs fn and answers the tables of the main database its statements opened. */
export async function tablesUsed(
  sqlite: BetterSqlite3.Database,
  fn: () => unknown,
): Promise<TablesUsed> {
  const ran: Ran[] = [];
  recording = ran;
  try {
    await fn();
  } finally {
    recording = null;
  }
  const tableOfRoot = new Map(
    (
      sqlite
        .prepare(
          "SELECT rootpage, tbl_name FROM sqlite_schema WHERE rootpage > 0 AND tbl_name NOT LIKE 'sqlite_%'",
        )
        .all() as {
        rootpage: number;
        tbl_name: string;
      }[]
    ).map((row) => [row.rootpage, row.tbl_name]),
  );
  const used: TablesUsed = { reads: new Set(), writes: new Set() };
  const seen = new Set<string>();
  for (const { source, params } of ran) {
    const key = `${source}\0${JSON.stringify(params)}`;
    if (seen.has(key) || !/^\s*(with|select|insert|update|delete|replace)\b/i.test(source))
      continue;
    seen.add(key);
    const program = sqlite.prepare(`EXPLAIN ${source}`).all(...params) as {
      opcode: string;
      p2: number;
      p3: number;
    }[];
    for (const step of program) {
      if (step.p3 !== 0) continue; // another database (temp)
      const table = tableOfRoot.get(step.p2);
      if (!table) continue;
      if (step.opcode === 'OpenRead') used.reads.add(table);
      else if (step.opcode === 'OpenWrite') used.writes.add(table);
    }
  }
  return used;
}
