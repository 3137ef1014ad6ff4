// Group commit: writes asked for in one turn of the event loop share one transaction, each in its
// own savepoint, and a caller hears of its write only once it is committed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A file in WAL mode, and a second connection that sees only what the first committed. */
function connections() {
  const dir = mkdtempSync(join(tmpdir(), 'vorort-group-commit-'));
  dirs.push(dir);
  const file = join(dir, 'db.sqlite');
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
  const other = new Database(file, { readonly: true });
  const committed = () =>
    (other.prepare('SELECT id FROM t ORDER BY id').pluck().all() as string[]).join(',');
  return { sqlite, committed, close: () => (other.close(), sqlite.close()) };
}

describe('groupCommit', () => {
  it('runs the writes asked for in one turn in one transaction, and answers after its commit', async () => {
    const { sqlite, committed, close } = connections();
    const commit = groupCommit(sqlite);
    const insert = sqlite.prepare('INSERT INTO t VALUES (?)');
    const seenBySecond: string[] = [];
    const writes = ['a', 'b', 'c'].map((id) =>
      commit(() => {
        insert.run(id);
        // The earlier writes of the turn are in this transaction, not committed yet.
        seenBySecond.push(committed());
        return id;
      }),
    );
    expect(committed()).toBe('');
    expect(await writes[0]).toBe('a');
    expect(committed()).toBe('a,b,c');
    expect(await Promise.all(writes)).toEqual(['a', 'b', 'c']);
    expect(seenBySecond).toEqual(['', '', '']);
    close();
  });

  it('undoes a write that throws alone: its caller gets the error, the others commit', async () => {
    const { sqlite, committed, close } = connections();
    const commit = groupCommit(sqlite);
    const insert = sqlite.prepare('INSERT INTO t VALUES (?)');
    const first = commit(() => insert.run('a'));
    const failing = commit(() => {
      insert.run('b');
      insert.run('a'); // taken
    });
    const last = commit(() => insert.run('c'));
    await expect(failing).rejects.toThrow(/UNIQUE/);
    await Promise.all([first, last]);
    expect(committed()).toBe('a,c');
    close();
  });

  it('starts a new transaction for writes asked for after a commit', async () => {
    const { sqlite, committed, close } = connections();
    const commit = groupCommit(sqlite);
    const insert = sqlite.prepare('INSERT INTO t VALUES (?)');
    await commit(() => insert.run('a'));
    const second = commit(() => {
      insert.run('b');
      return committed();
    });
    expect(await second).toBe('a');
    expect(committed()).toBe('a,b');
    close();
  });
});
