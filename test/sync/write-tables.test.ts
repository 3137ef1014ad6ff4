// The tables each write declares (CALL_WRITES, sync/contract/kinds.ts) stay true to the resource
// modules (sync/resources): a record write may change its module's table and the tables the
// replica's schema takes a deletion of its row to (a record created here and discarded goes with
// its children), every one of which its module names (referencedBy), the tables its triggers keep
// (the people per status) and the queue's; a write of
// the queue itself (edit, discard, resolve) those of any record. That a write changes no table
// beyond its declaration is checked where the writes run (test/sync/outbox/answers.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { CALL_WRITES, WRITE_COMMANDS } from '../../sync/contract';
import { openReplica } from '../../sync/db/open';
import type { Sqlite } from '../../sync/db/sqlite';
import { referencesTo, WRITABLE_RESOURCES, writableResource } from '../../sync/resources';
import { temporaryFiles } from '../support/temp-files';

const tempFile = temporaryFiles('write-tables');
const replica = openReplica(tempFile('replica.sqlite'));
afterAll(() => replica.close());

/** Every write queues (or folds into) an operation and keeps its record's conflicts true. */
const QUEUE = ['outbox', 'conflicts'];

/** `table` and the tables a deletion of its rows reaches (ON DELETE CASCADE or SET NULL). */
function deletionReaches(sqlite: Sqlite, table: string, seen = new Set<string>()): string[] {
  if (seen.has(table)) return [];
  seen.add(table);
  const tables = sqlite
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  const children = tables.filter((child) =>
    (
      sqlite.prepare(`PRAGMA foreign_key_list(${child})`).all() as {
        table: string;
        on_delete: string;
      }[]
    ).some((key) => key.table === table && ['CASCADE', 'SET NULL'].includes(key.on_delete)),
  );
  return [table, ...children.flatMap((child) => deletionReaches(sqlite, child, seen))];
}

/** The plain tables the triggers of `tables` write (migration 10 keeps the people per status). */
function triggered(sqlite: Sqlite, tables: readonly string[]): string[] {
  const plain = new Set(
    sqlite
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'",
      )
      .pluck()
      .all() as string[],
  );
  return tables.flatMap((table) =>
    (
      sqlite
        .prepare("SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ?")
        .pluck()
        .all(table) as string[]
    ).flatMap((text) =>
      [...text.matchAll(/\b(?:INSERT INTO|UPDATE|DELETE FROM)\s+(\w+)/g)]
        .map((match) => match[1]!)
        .filter((name) => name !== table && plain.has(name)),
    ),
  );
}

/** The tables a write of a record of `type` may change, from its module and the schema. */
function recordTables(type: string): string[] {
  const module = writableResource(type);
  if (!module) throw new Error(`no writable resource module of type ${type}`);
  const reached = deletionReaches(replica.sqlite, module.table);
  return [...reached, ...triggered(replica.sqlite, reached)];
}

const sorted = (tables: Iterable<string>) => [...new Set(tables)].sort();

describe('CALL_WRITES against the resource modules', () => {
  it('names every table a deletion of a writable record reaches in its module', () => {
    const unnamed: string[] = [];
    for (const module of WRITABLE_RESOURCES) {
      const named: string[] = [
        module.table,
        ...referencesTo(module).map((reference) => reference.table),
      ];
      for (const table of deletionReaches(replica.sqlite, module.table))
        if (!named.includes(table)) unnamed.push(`${module.type}: ${table}`);
    }
    expect(unnamed).toEqual([]);
  });

  it('declares for each record write its module’s tables and the queue’s, no more', () => {
    const wrong: string[] = [];
    for (const [name, spec] of Object.entries(WRITE_COMMANDS)) {
      const declared = sorted(CALL_WRITES[name as keyof typeof WRITE_COMMANDS]);
      const expected = sorted([...recordTables(spec.type), ...QUEUE]);
      if (JSON.stringify(declared) !== JSON.stringify(expected))
        wrong.push(`${name}: declared ${declared.join(',')}; its module's ${expected.join(',')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('declares for the queue’s own writes the tables of any record, and the retry the queue', () => {
    const anyRecord = sorted([
      ...WRITABLE_RESOURCES.flatMap((module) => recordTables(module.type)),
      ...QUEUE,
    ]);
    for (const name of ['outbox.edit', 'outbox.discard', 'conflicts.resolve'] as const)
      expect(sorted(CALL_WRITES[name]), name).toEqual(anyRecord);
    expect([...CALL_WRITES['outbox.retry']]).toEqual(['outbox']);
  });
});
