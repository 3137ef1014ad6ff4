// Everyone's hours counted over the columns in memory (sync/queries/hours-columns.ts) answer what
// SQLite answers, filter by filter: the same replica read through a second connection that keeps
// no columns (no table-change recorder: SQLite counts every time) is the reference. Odd rows the
// real service may give (no `von`, a `von` that is no plain day, no hours, no person) and rows
// this client keeps (created here without a person, deleted here) are among them. And the columns
// follow the table: a write of this connection, or one of another that the host notes there (the
// sync worker's), makes them stale at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HoursTotals, QueryResults } from '../../sync/contract';
import type { Replica } from '../../sync/db/open';
import type { Database } from '../../sync/db/schema';
import { queryHandlers } from '../../sync/queries';
import { hoursColumnsOf } from '../../sync/queries/hours-columns';
import { tableChangesOf } from '../../sync/db/table-changes';
import { demoSandbox } from '../support/demo-sandbox';
import { call as callHost, openTestSession, until } from '../support/host-session';
import { temporaryFiles } from '../support/temp-files';
import { call, startWorld, syncFrom, write, type World } from './outbox/world';

const tempFile = temporaryFiles('hours-columns');

let world: World;
let reference: { sqlite: BetterSqlite3.Database; handlers: ReturnType<typeof queryHandlers> };

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'), {}, false);
  await syncFrom(world.api, world.replica, true);
  const sqlite = world.replica.sqlite;
  const [first, second, third, fourth, fifth] = sqlite
    .prepare('SELECT id FROM helferstunden ORDER BY id LIMIT 5')
    .pluck()
    .all() as string[];
  // What the real service may give, and what this client keeps.
  sqlite.prepare('UPDATE helferstunden SET von = NULL WHERE id = ?').run(first);
  sqlite
    .prepare(`UPDATE helferstunden SET von = substr(von, 1, 10) || ' 10:00' WHERE id = ?`)
    .run(second);
  sqlite.prepare('UPDATE helferstunden SET stunden = NULL WHERE id = ?').run(third);
  sqlite.prepare('UPDATE helferstunden SET user_id = NULL WHERE id = ?').run(fourth);
  sqlite.prepare(`UPDATE helferstunden SET local_state = 'deleted' WHERE id = ?`).run(fifth);
  const anlass = world.sandbox.store.all('helferstunden_anlass')[0]!;
  await write(world, 'helferstunden.create', {
    attributes: { von: '2025-06-03T08:00:00+02:00', stunden: 2.25 },
    relationships: {
      anlass: { data: { type: 'helferstunden_anlass', id: anlass.id } },
      typ: { data: { type: 'helferstunden_typ', id: '2' } },
    },
  });
  const plain = new BetterSqlite3(world.replica.sqlite.name, { readonly: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: plain }) });
  reference = { sqlite: plain, handlers: queryHandlers({ db, sqlite: plain } as Replica) };
});
afterAll(async () => {
  reference.sqlite.close();
  await world.close();
});

/** Filters that take every branch: periods, approval, type, occasion, person, self, none. */
function filters(): Record<string, unknown>[] {
  const one = (sql: string) => world.replica.sqlite.prepare(sql).pluck().get() as string;
  const typId = one('SELECT typ_id FROM helferstunden WHERE typ_id IS NOT NULL LIMIT 1');
  const anlassId = one('SELECT anlass_id FROM helferstunden WHERE anlass_id IS NOT NULL LIMIT 1');
  const userId = one(
    'SELECT user_id FROM helferstunden WHERE user_id IS NOT NULL GROUP BY user_id ORDER BY count(*) DESC LIMIT 1',
  );
  const odd = one(`SELECT substr(von, 1, 10) FROM helferstunden WHERE von LIKE '% 10:00'`);
  const year = one('SELECT substr(max(von), 1, 4) FROM helferstunden');
  const period = { from: `${year}-01-01`, until: `${year}-12-31` };
  return [
    {},
    period,
    { ...period, freigegeben: true },
    { ...period, freigegeben: false },
    { from: `${Number(year) - 1}-03-01`, until: `${Number(year) - 1}-09-30` },
    { from: odd, until: odd },
    { until: odd },
    { from: odd },
    { typId },
    { ...period, typId, freigegeben: false },
    { anlassId },
    { userId },
    { userId, ...period },
    { userId: 'self' },
    { userId: 'self', from: '2025-06-03', until: '2025-06-03' },
    { typId: 'not-a-type' },
    { userId: 'nobody' },
    { ...period, limit: 3 },
    { limit: 500 },
  ];
}

const rounded = (totals: HoursTotals) =>
  JSON.parse(
    JSON.stringify(totals, (key, value: unknown) =>
      key === 'stunden' && typeof value === 'number' ? Math.round(value * 1e6) / 1e6 : value,
    ),
  ) as HoursTotals;

describe('everyone’s hours over the columns', () => {
  it('answers every filter as SQLite does, totals and the list’s count', async () => {
    await hoursColumnsOf(world.replica.sqlite).ready();
    expect(hoursColumnsOf(world.replica.sqlite).sums({})).not.toBeNull();
    for (const filter of filters()) {
      const columns = await call<HoursTotals>(world, 'hours.totals', filter);
      const sqlite = await reference.handlers['hours.totals']({ limit: 50, ...filter } as never);
      expect(rounded(columns), JSON.stringify(filter)).toEqual(rounded(sqlite));
      const { limit: _limit, ...listFilter } = { limit: 0, ...filter };
      const listed = await call<QueryResults['hours.list']>(world, 'hours.list', listFilter);
      const listedBySqlite = await reference.handlers['hours.list']({
        limit: 50,
        offset: 0,
        sort: 'von',
        ...listFilter,
      } as never);
      expect(listed.total, JSON.stringify(filter)).toBe(listedBySqlite.total);
      expect(listed.totalStunden).toBeCloseTo(listedBySqlite.totalStunden, 6);
    }
    // The filters above found entries: the comparison is not one of empty answers.
    const all = await call<HoursTotals>(world, 'hours.totals', {});
    expect(all.entries).toBeGreaterThan(100);
    expect(all.byUser.some((row) => row.userId === world.officeId)).toBe(true);
  });

  it('are stale at once after a write of this connection or another’s that the host noted', async () => {
    const columns = hoursColumnsOf(world.replica.sqlite);
    await columns.ready();
    const before = columns.sums({})!;
    const bump = 'UPDATE helferstunden SET stunden = stunden';
    const firstTimed =
      'WHERE rowid = (SELECT min(rowid) FROM helferstunden WHERE stunden IS NOT NULL)';
    world.replica.sqlite.prepare(`${bump} + 1 ${firstTimed}`).run();
    expect(columns.sums({})).toBeNull();
    await columns.ready();
    expect(columns.sums({})!.stunden).toBeCloseTo(before.stunden + 1, 6);

    // Another connection's commit (the sync worker's): the host notes its tables here.
    const other = new BetterSqlite3(world.replica.sqlite.name);
    try {
      other.prepare(`${bump} + 2 ${firstTimed}`).run();
    } finally {
      other.close();
    }
    tableChangesOf(world.replica.sqlite)!.note(['helferstunden']);
    expect(columns.sums({})).toBeNull();
    await columns.ready();
    expect(columns.sums({})!.stunden).toBeCloseTo(before.stunden + 3, 6);
    // A worker that failed midway: anything may have changed.
    tableChangesOf(world.replica.sqlite)!.noteAll();
    expect(columns.sums({})).toBeNull();
  });
});

describe('everyone’s hours in the app session', () => {
  it('follow what the sync worker brought (the host notes its tables on its own connection)', async () => {
    const demo = demoSandbox();
    const dir = mkdtempSync(join(tmpdir(), 'vorort-hours-columns-'));
    const { session, events } = await openTestSession(dir, { demo });
    const synced = async (from: number) =>
      until(
        () => events.slice(from).some((e) => e.type === 'sync.finished' && e.ok),
        'a successful sync',
      );
    try {
      let start = events.length;
      await callHost(session, 'account.demo', { role: 'office' });
      await synced(start);
      // An entry the first sync read (it reads the recent months).
      const listed = await callHost<QueryResults['hours.list']>(session, 'hours.list', {
        limit: 1,
      });
      const entry = demo.current()!.store.get('helferstunden', listed.items[0]!.id)!;
      const filter = { userId: listed.items[0]!.userId! };
      const before = await callHost<HoursTotals>(session, 'hours.totals', filter);
      // The columns are read in the background; a second call meanwhile or after counts alike.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await callHost<HoursTotals>(session, 'hours.totals', filter)).toEqual(before);
      demo.current()!.store.put({
        ...entry,
        attributes: { ...entry.attributes, stunden: Number(entry.attributes.stunden) + 10 },
      });
      start = events.length;
      await callHost(session, 'sync.now');
      await synced(start);
      const after = await callHost<HoursTotals>(session, 'hours.totals', filter);
      expect(after.stunden).toBeCloseTo(before.stunden + 10, 6);
    } finally {
      await session.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
