// The connection's statement cache: one statement per SQL text and connection, handed out in its
// fresh mode, bounded, and never one prepared before the table changes were recorded.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { forgetStatements, prepared, STATEMENT_LIMIT } from './statements';
import { recordTableChanges } from './table-changes';

function connection() {
  const sqlite = new Database(':memory:');
  sqlite.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER)');
  return sqlite;
}

describe('prepared', () => {
  it('prepares a SQL text once per connection, and hands it out without plucking or raw rows', () => {
    const one = connection();
    const other = connection();
    prepared(one, "INSERT INTO t VALUES ('a', 1)").run();
    const read = prepared(one, 'SELECT id, n FROM t');
    expect(read.pluck().get()).toBe('a');
    expect(prepared(one, 'SELECT id, n FROM t')).toBe(read);
    expect(read.get()).toEqual({ id: 'a', n: 1 });
    read.raw();
    expect(prepared(one, 'SELECT id, n FROM t').get()).toEqual({ id: 'a', n: 1 });
    expect(prepared(other, 'SELECT id, n FROM t')).not.toBe(read);
  });

  it('keeps at most STATEMENT_LIMIT statements per connection, dropping the oldest', () => {
    const sqlite = connection();
    const first = prepared(sqlite, 'SELECT 0');
    for (let i = 1; i <= STATEMENT_LIMIT; i += 1) prepared(sqlite, `SELECT ${i}`);
    expect(prepared(sqlite, `SELECT ${STATEMENT_LIMIT}`)).toBe(
      prepared(sqlite, `SELECT ${STATEMENT_LIMIT}`),
    );
    expect(prepared(sqlite, 'SELECT 0')).not.toBe(first);
  });

  it('forgets what was prepared before the connection recorded its table changes', () => {
    const sqlite = connection();
    const before = prepared(sqlite, "INSERT INTO t VALUES ('a', 1)");
    const changes = recordTableChanges(sqlite);
    const after = prepared(sqlite, "INSERT INTO t VALUES ('a', 1)");
    expect(after).not.toBe(before);
    after.run();
    expect(changes.take()).toEqual(['t']);
    forgetStatements(sqlite);
    expect(prepared(sqlite, "INSERT INTO t VALUES ('a', 1)")).not.toBe(after);
  });
});
