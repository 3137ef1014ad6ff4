// The due list (Fällig, issue 22): trainings whose validity ends and checks whose next date is on
// or before a day, expired ones marked, by person; the people whose checks were never read after
// the others (unknown, not clear); a training deleted here gone at once. The checks are recorded
// on the sandbox for the test (its admin interface, plain HTTP) with dates around today; a
// training is picked from the synced replica.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, serviceDay } from '../../sync/contract/service-time';
import { typedCaller, type TypedCaller } from '../../sync/dispatch';
import { AdminClient } from '../../sandbox/admin/test-admin-client';
import { temporaryFiles } from '../support/temp-files';
import { startWorld, syncFrom, write, type World } from './outbox/world';

const tempFile = temporaryFiles('personnel-due');
let world: World;
let core: TypedCaller;
const today = serviceDay();
let person: string;
const checks: Record<'expired' | 'soon' | 'later', string> = { expired: '', soon: '', later: '' };

const one = <T>(sql: string, ...params: unknown[]) =>
  world.replica.sqlite.prepare(sql).get(...params) as T;

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'), { admin: true }, false);
  const admin = AdminClient.of(world.sandbox);
  person = world.sandbox.users.find((u) => u.role === 'office')!.id;
  for (const [key, days] of [
    ['expired', -10],
    ['soon', 40],
    ['later', 400],
  ] as const) {
    const made = await admin.post(`/personal/${person}/ueberpruefungen`, {
      attributes: { bezeichnung: `Zyx-Check ${key}`, naechste_pruefung: addDays(today, days) },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    checks[key] = (made.body as { id: string }).id;
  }
  await syncFrom(world.api, world.replica);
  core = typedCaller(world.dispatcher);
});
afterAll(() => world.close());

const due = (args: {
  until: string;
  today?: string;
  unread?: boolean;
  limit?: number;
  offset?: number;
}) => core.query('personnel.due', { unread: false, ...args });

describe('personnel.due', () => {
  it('lists the checks due by the day, expired ones marked, not the later ones', async () => {
    const list = await due({ until: addDays(today, 90), limit: 1000 });
    expect(list.today).toBe(today);
    const mine = list.items.find((item) => item.id === person)!;
    const ours = mine.entries.filter((entry) => entry.bezeichnung?.startsWith('Zyx-Check'));
    expect(ours).toEqual([
      {
        kind: 'check',
        id: checks.expired,
        bezeichnung: 'Zyx-Check expired',
        due: addDays(today, -10),
        expired: true,
      },
      {
        kind: 'check',
        id: checks.soon,
        bezeichnung: 'Zyx-Check soon',
        due: addDays(today, 40),
        expired: false,
      },
    ]);
    expect(mine.checksConfirmedAt).not.toBeNull();
    // Every entry of every person is due by the day; the people in name order.
    for (const item of list.items) {
      expect(item.entries.length).toBeGreaterThan(0);
      for (const entry of item.entries) {
        expect(entry.due <= addDays(today, 90)).toBe(true);
        expect(entry.expired).toBe(entry.due < today);
      }
    }
    expect(list.total).toBe(list.withDue);
    expect(list.items.length).toBe(list.total);
  });

  it('marks expired against the day given, and leaves out what falls due after the day', async () => {
    const before = await due({
      until: addDays(today, 39),
      today: addDays(today, -20),
      limit: 1000,
    });
    const mine = before.items.find((item) => item.id === person)!;
    const ids = mine.entries.map((entry) => entry.id);
    expect(ids).toContain(checks.expired);
    expect(ids).not.toContain(checks.soon);
    expect(mine.entries.find((entry) => entry.id === checks.expired)!.expired).toBe(false);
  });

  it("lists a training by its validity's end, on that day and not the day before", async () => {
    const training = one<{ id: string; user_id: string; gueltig_bis: string }>(
      `SELECT id, user_id, gueltig_bis FROM ausbildungen WHERE gueltig_bis IS NOT NULL
       ORDER BY gueltig_bis DESC LIMIT 1`,
    );
    const entryIds = async (until: string) =>
      (await due({ until, limit: 1000 })).items
        .flatMap((item) => item.entries.map((entry) => ({ ...entry, person: item.id })))
        .filter((entry) => entry.kind === 'training' && entry.id === training.id);
    expect(await entryIds(training.gueltig_bis)).toEqual([
      expect.objectContaining({
        kind: 'training',
        due: training.gueltig_bis,
        person: training.user_id,
      }),
    ]);
    expect(await entryIds(addDays(training.gueltig_bis, -1))).toEqual([]);

    // Deleted here (not sent yet): gone from the list at once.
    await write(world, 'ausbildung.delete', { userId: training.user_id, id: training.id });
    expect(await entryIds(training.gueltig_bis)).toEqual([]);
  });

  it('lists the people whose checks were never read after the others, when asked', async () => {
    const created = await write(world, 'user.create', {
      attributes: { vorname: 'Nie', nachname: 'Gelesen' },
    });
    const until = addDays(today, 90);
    const without = await due({ until, limit: 1000 });
    expect(without.items.map((item) => item.id)).not.toContain(created.id);

    const withUnread = await due({ until, unread: true, limit: 1000 });
    expect(withUnread.withDue).toBe(without.total);
    expect(withUnread.total).toBeGreaterThan(without.total);
    const index = withUnread.items.findIndex((item) => item.id === created.id);
    expect(index).toBeGreaterThanOrEqual(without.total);
    expect(withUnread.items[index]).toMatchObject({ checksConfirmedAt: null, entries: [] });
    // The people with something due come first, in the same order as without.
    expect(withUnread.items.slice(0, without.total).map((item) => item.id)).toEqual(
      without.items.map((item) => item.id),
    );
  });

  it('pages through the same order', async () => {
    const until = addDays(today, 400);
    const whole = await due({ until, unread: true, limit: 1000 });
    const pages = [];
    for (let offset = 0; offset < whole.total; offset += 7)
      pages.push(...(await due({ until, unread: true, limit: 7, offset })).items);
    expect(pages.map((item) => item.id)).toEqual(whole.items.map((item) => item.id));
    // Past the end: no rows, the same counts.
    const past = await due({ until, unread: true, limit: 7, offset: whole.total + 3 });
    expect(past).toMatchObject({ items: [], total: whole.total, withDue: whole.withDue });
  });

  it('refuses a day that is none', async () => {
    await expect(due({ until: '2026-13-01' })).rejects.toThrow(/until/);
  });
});
