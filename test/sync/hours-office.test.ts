// The office's view of everyone's hours (issue 23) against a real sandbox and a real SQLite file:
// hours.list by occasion and type, hours.totals per person and per type equal to the service's
// own entries, an own entry created here counted as the signed-in user's, hours.settings with the
// types that take new entries, an entry created offline for another person that reaches the
// service as that person's, the CSV export of the same filter, and query plans that read indexes
// (a covering one for a period), not the table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HoursItem, HoursTotals, QueryResults } from '../../sync/contract';
import { exportData } from '../../sync/export';
import { temporaryFiles } from '../support/temp-files';
import { call, push, startWorld, syncFrom, write, type World } from './outbox/world';

const tempFile = temporaryFiles('hours-office');

let world: World;
beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'), {}, false);
  // Every entry of every year: the office's full scan.
  await syncFrom(world.api, world.replica, true);
});
afterAll(() => world.close());

const ref = (entry: { relationships: Record<string, unknown> }, name: string) =>
  (entry.relationships[name] as { id: string } | null | undefined)?.id ?? null;

/** The service's own entries, and their sums by a relationship. */
function serviceSums(
  by: 'user' | 'typ',
  keep: (entry: { relationships: Record<string, unknown> }) => boolean = () => true,
) {
  const sums = new Map<string, { stunden: number; entries: number }>();
  for (const entry of world.sandbox.store.all('helferstunden')) {
    if (!keep(entry)) continue;
    const key = ref(entry, by)!;
    const sum = sums.get(key) ?? { stunden: 0, entries: 0 };
    sum.stunden += entry.attributes.stunden as number;
    sum.entries += 1;
    sums.set(key, sum);
  }
  return sums;
}

const round = (value: number) => Math.round(value * 100) / 100;

describe('everyone’s hours: filters and totals', () => {
  it('lists the entries of one occasion and one type, and only those', async () => {
    const typed = world.sandbox.store.all('helferstunden').find((h) => ref(h, 'typ') !== null)!;
    const anlassId = ref(typed, 'anlass')!;
    const typId = ref(typed, 'typ')!;
    const expected = world.sandbox.store
      .all('helferstunden')
      .filter((h) => ref(h, 'anlass') === anlassId && ref(h, 'typ') === typId)
      .map((h) => h.id)
      .sort();
    const listed = await call<QueryResults['hours.list']>(world, 'hours.list', {
      anlassId,
      typId,
      limit: 1000,
    });
    expect(listed.items.map((item) => item.id).sort()).toEqual(expected);
    expect(listed.total).toBe(expected.length);
    const byType = await call<QueryResults['hours.list']>(world, 'hours.list', {
      typId,
      limit: 1000,
    });
    expect(byType.total).toBe(serviceSums('typ').get(typId)!.entries);
    expect(byType.items.every((item: HoursItem) => item.typId === typId)).toBe(true);
  });

  it('sums per person and per type as the service’s entries add up', async () => {
    const totals = await call<HoursTotals>(world, 'hours.totals', { limit: 500 });
    const people = serviceSums('user');
    expect(totals.persons).toBe(people.size);
    expect(totals.entries).toBe(world.sandbox.store.all('helferstunden').length);
    for (const row of totals.byUser) {
      expect(round(row.stunden), row.userId ?? '').toBe(round(people.get(row.userId!)!.stunden));
      expect(row.entries).toBe(people.get(row.userId!)!.entries);
      expect(row.userName).toMatch(/, /);
    }
    // Most hours first.
    const hours = totals.byUser.map((row) => row.stunden);
    expect(hours).toEqual([...hours].sort((a, b) => b - a));
    const types = serviceSums('typ');
    expect(totals.byTyp.map((row) => [row.typId, round(row.stunden)]).sort()).toEqual(
      [...types].map(([id, sum]) => [id, round(sum.stunden)]).sort(),
    );
    expect(totals.byTyp.every((row) => typeof row.typ === 'string')).toBe(true);
  });

  it('keeps the first `limit` people and says how many there are', async () => {
    const totals = await call<HoursTotals>(world, 'hours.totals', { limit: 3 });
    expect(totals.byUser).toHaveLength(3);
    expect(totals.persons).toBe(serviceSums('user').size);
    const all = await call<HoursTotals>(world, 'hours.totals', { limit: 500 });
    expect(totals.byUser).toEqual(all.byUser.slice(0, 3));
  });

  it('counts an own entry created here (no person yet) as the signed-in user’s', async () => {
    const before = await call<HoursTotals>(world, 'hours.totals', {
      from: '2026-11-20',
      until: '2026-11-20',
    });
    const anlass = world.sandbox.store.all('helferstunden_anlass')[0]!;
    await write(world, 'helferstunden.create', {
      attributes: { von: '2026-11-20T08:00:00+01:00', stunden: 3.5 },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: anlass.id } },
        typ: { data: { type: 'helferstunden_typ', id: '2' } },
      },
    });
    const after = await call<HoursTotals>(world, 'hours.totals', {
      from: '2026-11-20',
      until: '2026-11-20',
    });
    expect(after.entries).toBe(before.entries + 1);
    expect(round(after.stunden)).toBe(round(before.stunden + 3.5));
    const own = (totals: HoursTotals) =>
      totals.byUser.find((row) => row.userId === world.officeId)?.stunden ?? 0;
    expect(round(own(after))).toBe(round(own(before) + 3.5));
    expect(after.byUser.some((row) => row.userId === null)).toBe(false);
  });
});

describe('everyone’s hours: settings, another person’s entry, export', () => {
  it('gives the own settings with the types that take new entries', async () => {
    const settings = await call<QueryResults['hours.settings']>(world, 'hours.settings', {});
    const active = world.sandbox.store
      .all('helferstunden_typ')
      .filter((typ) => typ.attributes.aktiv === true)
      .map((typ) => typ.id)
      .sort();
    expect(settings).not.toBeNull();
    expect(settings!.activeTypes.map((typ) => typ.id).sort()).toEqual(active);
    const stored = world.sandbox.store.get('helferstunden_einstellungen', world.officeId)!;
    expect(settings!.standardTypId).toBe(String(stored.attributes.standard_typ_id));
    expect(settings!.freigabeErforderlich).toBe(stored.attributes.freigabe_erforderlich);
  });

  it('creates an entry for another person offline; the service gets it as theirs', async () => {
    const other = world.sandbox.store
      .all('user')
      .find((user) => user.id !== world.officeId && user.attributes.status === 'aktiv')!;
    const anlass = world.sandbox.store.all('helferstunden_anlass')[0]!;
    const created = await write(world, 'helferstunden.create', {
      attributes: { von: '2026-11-21T09:00:00+01:00', stunden: 2.25, freigegeben: true },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: anlass.id } },
        typ: { data: { type: 'helferstunden_typ', id: '2' } },
        user: { data: { type: 'user', id: other.id } },
      },
    });
    const listed = await call<QueryResults['hours.list']>(world, 'hours.list', {
      userId: other.id,
      from: '2026-11-21',
      until: '2026-11-21',
    });
    expect(listed.items.map((item) => [item.id, item.userId, item.localState])).toEqual([
      [created.id, other.id, 'created'],
    ]);
    const summary = await push(world);
    expect(summary.parked).toBe(0);
    const onService = world.sandbox.store
      .all('helferstunden')
      .filter(
        (h) => ref(h, 'user') === other.id && String(h.attributes.von).startsWith('2026-11-21'),
      );
    expect(onService).toHaveLength(1);
    expect(onService[0]!.attributes).toMatchObject({ stunden: 2.25, freigegeben: true });
  });

  it('exports the filter’s entries as CSV: one type, one person', async () => {
    const entry = world.sandbox.store.all('helferstunden')[5]!;
    const userId = ref(entry, 'user')!;
    const typId = ref(entry, 'typ')!;
    const expected = world.sandbox.store
      .all('helferstunden')
      .filter((h) => ref(h, 'user') === userId && ref(h, 'typ') === typId).length;
    const result = await exportData(world.replica, {
      format: 'csv',
      what: 'hours',
      userId,
      typId,
      separator: ',',
    });
    expect(result.count).toBe(expected);
    const lines = new TextDecoder().decode(result.bytes).trim().split(/\r?\n/);
    expect(lines).toHaveLength(expected + 1);
    await expect(
      exportData(world.replica, { format: 'csv', what: 'courses', typId }),
    ).rejects.toMatchObject({ code: 'invalid_arguments' });
  });
});

describe('everyone’s hours: query plans', () => {
  const plans = (sqlText: string, params: unknown[]) =>
    (
      world.replica.sqlite.prepare(`EXPLAIN QUERY PLAN ${sqlText}`).all(...params) as {
        detail: string;
      }[]
    ).map((step) => step.detail);

  it('reads a period, a type and state through indexes, never the table row by row', async () => {
    const seen: { sql: string; params: unknown[] }[] = [];
    const sqlite = world.replica.sqlite;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      const statement = prepare(text);
      const all = statement.all.bind(statement);
      const get = statement.get.bind(statement);
      statement.all = ((...params: unknown[]) => {
        seen.push({ sql: text, params });
        return all(...params);
      }) as typeof statement.all;
      statement.get = ((...params: unknown[]) => {
        seen.push({ sql: text, params });
        return get(...params);
      }) as typeof statement.get;
      return statement;
    }) as typeof sqlite.prepare;
    try {
      for (const filter of [
        { from: '2026-01-01', until: '2026-12-31' },
        { from: '2026-01-01', until: '2026-12-31', typId: '2', freigegeben: false },
        { typId: '2' },
        {},
      ]) {
        await call(world, 'hours.totals', filter);
        await call(world, 'hours.list', filter);
      }
    } finally {
      sqlite.prepare = prepare;
    }
    const hours = seen.filter((s) => /FROM "?helferstunden"? (as )?"?h"?/i.test(s.sql));
    expect(hours.length).toBeGreaterThan(8);
    for (const statement of hours) {
      const steps = plans(statement.sql, statement.params);
      for (const step of steps) expect(step, statement.sql).not.toMatch(/^SCAN h$/);
      // Counting and summing read an index that holds every column they need.
      if (/\b(sum|count)\(/i.test(statement.sql) && !/local_state. = /.test(statement.sql))
        expect(steps.join(' | '), statement.sql).toMatch(/COVERING INDEX helferstunden_/);
    }
  });
});
