// Deferred secondary indexes of a bulk load: dropped only for an empty table, built again by the
// returned function or, after a process ended mid-load, by the next openReplica; and the real
// first sync against the sandbox, which loads the volunteer hours that way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
// Tests, unlike sync/ code, may start the real sandbox (DESIGN "Testing": no mocks of the service).
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../api';
import { runSync } from '../pull/engine';
import { deferIndexesIfEmpty } from './deferred-indexes';
import { openReplica } from './open';

const dir = mkdtempSync(join(tmpdir(), 'vorort-deferred-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function freshFile(): string {
  files += 1;
  return join(dir, `replica-${files}.sqlite`);
}

const HOURS_INDEXES = [
  'helferstunden_anlass',
  'helferstunden_local',
  'helferstunden_person_totals',
  'helferstunden_totals',
  'helferstunden_user_von',
  'helferstunden_von',
];

/** The indexes of `table` written in SQL (not the automatic ones of keys), by name. */
function indexSql(sqlite: BetterSqlite3.Database, table: string): Record<string, string> {
  const rows = sqlite
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
    )
    .all(table) as { name: string; sql: string }[];
  return Object.fromEntries(rows.map((row) => [row.name, row.sql]));
}

/** Every index of `table`, the automatic ones of keys included. */
function allIndexNames(sqlite: BetterSqlite3.Database, table: string): string[] {
  return sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name")
    .pluck()
    .all(table) as string[];
}

function deferredRecord(sqlite: BetterSqlite3.Database): string[] | undefined {
  const value = sqlite
    .prepare("SELECT value FROM replica_meta WHERE key = 'deferred_indexes'")
    .pluck()
    .get() as string | undefined;
  return value === undefined ? undefined : (JSON.parse(value) as string[]);
}

function insertHour(sqlite: BetterSqlite3.Database, id: string) {
  sqlite
    .prepare(
      "INSERT INTO helferstunden (id, user_id, anlass_id, von, stunden, base, synced_at) VALUES (?, 'u1', 'a1', '2026-01-05T08:00:00+01:00', 2.5, '{}', 'now')",
    )
    .run(id);
}

describe('deferIndexesIfEmpty', () => {
  it('drops the indexes of an empty table, records them, and builds exactly the same ones again', async () => {
    const replica = openReplica(freshFile());
    try {
      const before = indexSql(replica.sqlite, 'helferstunden');
      expect(Object.keys(before)).toEqual(HOURS_INDEXES);
      const notificationsBefore = indexSql(replica.sqlite, 'benachrichtigungen');
      const usersBefore = indexSql(replica.sqlite, 'users');

      const rebuildHours = deferIndexesIfEmpty(replica.sqlite, 'helferstunden');
      expect(indexSql(replica.sqlite, 'helferstunden')).toEqual({});
      // The primary key's own index is not a secondary index: it stays.
      expect(allIndexNames(replica.sqlite, 'helferstunden')).toEqual([
        'sqlite_autoindex_helferstunden_1',
      ]);
      expect(deferredRecord(replica.sqlite)?.sort()).toEqual(Object.values(before).sort());
      // Other tables keep theirs.
      expect(indexSql(replica.sqlite, 'users')).toEqual(usersBefore);

      // A second empty table deferred meanwhile: the record holds both, each rebuild takes its own.
      const rebuildNotifications = deferIndexesIfEmpty(replica.sqlite, 'benachrichtigungen');
      expect(indexSql(replica.sqlite, 'benachrichtigungen')).toEqual({});
      expect(deferredRecord(replica.sqlite)?.sort()).toEqual(
        [...Object.values(before), ...Object.values(notificationsBefore)].sort(),
      );

      // Rows loaded while the indexes are away are found through them afterwards.
      insertHour(replica.sqlite, 'h1');
      rebuildHours();
      expect(indexSql(replica.sqlite, 'helferstunden')).toEqual(before);
      expect(deferredRecord(replica.sqlite)).toEqual(Object.values(notificationsBefore));
      expect(replica.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');

      rebuildNotifications();
      expect(indexSql(replica.sqlite, 'benachrichtigungen')).toEqual(notificationsBefore);
      expect(deferredRecord(replica.sqlite)).toBeUndefined();
    } finally {
      await replica.close();
    }
  });

  it('leaves a table with rows alone', async () => {
    const replica = openReplica(freshFile());
    try {
      insertHour(replica.sqlite, 'h1');
      const before = indexSql(replica.sqlite, 'helferstunden');
      const rebuild = deferIndexesIfEmpty(replica.sqlite, 'helferstunden');
      expect(indexSql(replica.sqlite, 'helferstunden')).toEqual(before);
      expect(deferredRecord(replica.sqlite)).toBeUndefined();
      rebuild();
      expect(indexSql(replica.sqlite, 'helferstunden')).toEqual(before);
      expect(Object.keys(before)).toEqual(HOURS_INDEXES);
      expect(deferredRecord(replica.sqlite)).toBeUndefined();
    } finally {
      await replica.close();
    }
  });

  it('gets the indexes back when the replica is next opened after a load that never finished', async () => {
    const file = freshFile();
    const replica = openReplica(file);
    const before = indexSql(replica.sqlite, 'helferstunden');
    deferIndexesIfEmpty(replica.sqlite, 'helferstunden'); // the rebuild is never called: a crash
    insertHour(replica.sqlite, 'h1');
    insertHour(replica.sqlite, 'h2');
    expect(indexSql(replica.sqlite, 'helferstunden')).toEqual({});
    await replica.close();

    const reopened = openReplica(file);
    try {
      expect(indexSql(reopened.sqlite, 'helferstunden')).toEqual(before);
      expect(deferredRecord(reopened.sqlite)).toBeUndefined();
      expect(reopened.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const plan = reopened.sqlite
        .prepare("EXPLAIN QUERY PLAN SELECT id FROM helferstunden WHERE anlass_id = 'a1'")
        .all() as { detail: string }[];
      expect(plan.map((step) => step.detail).join('\n')).toMatch(/helferstunden_anlass/);
      expect(
        reopened.sqlite
          .prepare("SELECT id FROM helferstunden WHERE anlass_id = 'a1' ORDER BY id")
          .pluck()
          .all(),
      ).toEqual(['h1', 'h2']);
    } finally {
      await reopened.close();
    }
  });
});

describe('a replica opened by another connection during the load', () => {
  it('gets its indexes at once, and the load’s own rebuild then still succeeds', async () => {
    const file = freshFile();
    const loading = openReplica(file);
    try {
      const before = indexSql(loading.sqlite, 'helferstunden');
      const buildIndexes = deferIndexesIfEmpty(loading.sqlite, 'helferstunden');
      insertHour(loading.sqlite, '1');
      // e.g. `vorort status`, or the main thread while the worker syncs
      const other = openReplica(file);
      expect(indexSql(other.sqlite, 'helferstunden')).toEqual(before);
      await other.close();
      expect(() => buildIndexes()).not.toThrow();
      expect(indexSql(loading.sqlite, 'helferstunden')).toEqual(before);
      expect(deferredRecord(loading.sqlite)).toBeUndefined();
    } finally {
      await loading.close();
    }
  });
});

describe('the first sync’s load of volunteer hours', () => {
  it('defers the hours’ indexes while loading and leaves them in place, used by the planner', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'small', seed: 21 });
    const replica = openReplica(freshFile());
    try {
      const office = sandbox.users.find((user) => user.role === 'office')!;
      const api = createApiClient({
        baseUrl: sandbox.baseUrl,
        tokens: staticToken(office.accessToken),
        maxRetries: 1,
      });
      const expected = indexSql(replica.sqlite, 'helferstunden');
      // What the hours' indexes are while their rows arrive (read on the sync's own connection).
      const duringLoad: string[][] = [];
      // A full first sync: every window of the hours in one load (a budgeted one loads the recent ones).
      const first = await runSync({
        api,
        replica,
        options: { profile: 'office', full: true },
        onProgress: (event) => {
          if (event.collection === 'helferstunden' && event.done > 0)
            duringLoad.push(Object.keys(indexSql(replica.sqlite, 'helferstunden')));
        },
      });
      expect(first.ok, JSON.stringify(first.collections)).toBe(true);
      expect(first.collections.helferstunden?.records).toBeGreaterThan(0);
      expect(duringLoad.length).toBeGreaterThan(0);
      expect(duringLoad.every((names) => names.length === 0)).toBe(true);

      expect(Object.keys(indexSql(replica.sqlite, 'helferstunden'))).toEqual(HOURS_INDEXES);
      expect(indexSql(replica.sqlite, 'helferstunden')).toEqual(expected);
      expect(deferredRecord(replica.sqlite)).toBeUndefined();

      const userId = replica.sqlite
        .prepare(
          'SELECT user_id FROM helferstunden GROUP BY user_id ORDER BY count(*) DESC LIMIT 1',
        )
        .pluck()
        .get() as string;
      const plan = replica.sqlite
        .prepare('EXPLAIN QUERY PLAN SELECT * FROM helferstunden WHERE user_id = ? ORDER BY von')
        .all(userId) as { detail: string }[];
      const details = plan.map((step) => step.detail).join('\n');
      // By person and day: the index of both, or the covering one that begins with them.
      expect(details).toMatch(/USING (COVERING )?INDEX helferstunden_(user_von|person_totals)/);
      expect(details).not.toMatch(/TEMP B-TREE/); // the index gives the order too

      // A full scan of a table that has rows keeps its indexes throughout.
      duringLoad.length = 0;
      const full = await runSync({
        api,
        replica,
        options: { profile: 'office', full: true },
        onProgress: (event) => {
          if (event.collection === 'helferstunden' && event.done > 0)
            duringLoad.push(Object.keys(indexSql(replica.sqlite, 'helferstunden')));
        },
      });
      expect(full.ok, JSON.stringify(full.collections)).toBe(true);
      expect(duringLoad.length).toBeGreaterThan(0);
      expect(duringLoad.every((names) => names.join() === HOURS_INDEXES.join())).toBe(true);
      expect(indexSql(replica.sqlite, 'helferstunden')).toEqual(expected);
      expect(deferredRecord(replica.sqlite)).toBeUndefined();
    } finally {
      await replica.close();
      await sandbox.close();
    }
  });
});
