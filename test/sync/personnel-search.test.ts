// The personnel list's search and filters (issue 22): anywhere in names, member number, e-mail
// and phone numbers, ignoring case and diacritics, every word required; counts per status beside
// the other filters; groups and qualifications as filters; sorting by member number. The people
// are made for the test on the sandbox (plain HTTP), then synced.
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../sync/db/migrations';
import { openReplica } from '../../sync/db/open';
import { createDispatcher, typedCaller, type TypedCaller } from '../../sync/dispatch';
import { temporaryFiles } from '../support/temp-files';
import { startWorld, syncFrom, write, type World } from './outbox/world';

const tempFile = temporaryFiles('personnel-search');
let world: World;
let people: TypedCaller;
const made: Record<string, string> = {};

async function createPerson(key: string, attributes: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${world.sandbox.baseUrl}/personal`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${world.officeToken}`,
      'content-type': 'application/vnd.api+json',
    },
    body: JSON.stringify({ data: { type: 'user', attributes } }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  made[key] = ((await response.json()) as { data: { id: string } }).data.id;
}

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'), {}, false);
  await createPerson('juergen', {
    vorname: 'Jürgen',
    nachname: 'Zyxmüller',
    mitgliednr: 'ZQ-4711',
    handy: '0171 / 555 98-76',
    email: 'j.zyx@example.org',
    status: 'gesperrt',
    gruppen_namen: ['Zyx-Staffel'],
  });
  await createPerson('anna', {
    vorname: 'Anna',
    nachname: 'Zyxmuller',
    status: 'aktiv',
    gruppen_namen: ['Zyx-Staffel', 'Zyx-Küche'],
  });
  await createPerson('gross', { vorname: 'Tom', nachname: 'Zyxgroßmann', status: 'extern' });
  await createPerson('quast', { vorname: 'Tim', nachname: 'Quast', mitgliednr: 'ZQ-47' });
  await syncFrom(world.api, world.replica);
  people = typedCaller(world.dispatcher);
});
afterAll(() => world.close());

const ids = (result: { items: { id: string }[] }) => result.items.map((item) => item.id).sort();
const of = (...keys: string[]) => keys.map((key) => made[key]!).sort();

describe('personnel search', () => {
  it('finds a name anywhere in it, without its umlaut or case, and the umlaut without the ASCII', async () => {
    expect(ids(await people.query('personnel.list', { search: 'zyxmuller' }))).toEqual(
      of('juergen', 'anna'),
    );
    expect(ids(await people.query('personnel.list', { search: 'XMÜLL' }))).toEqual(
      of('juergen', 'anna'),
    );
    expect(ids(await people.query('personnel.list', { search: 'zyxgroß' }))).toEqual(of('gross'));
    expect(ids(await people.query('personnel.list', { search: 'zyxgrossm' }))).toEqual(of('gross'));
  });

  it('finds a member number, an e-mail and a phone number by a part, the number also as digits', async () => {
    expect(ids(await people.query('personnel.list', { search: 'q-4711' }))).toEqual(of('juergen'));
    expect(ids(await people.query('personnel.list', { search: '4711' }))).toContain(made.juergen);
    expect(ids(await people.query('personnel.list', { search: 'zyx@example' }))).toEqual(
      of('juergen'),
    );
    expect(ids(await people.query('personnel.list', { search: '5559876' }))).toEqual(of('juergen'));
  });

  it('finds who holds exactly a member number, which a search finds inside longer ones too', async () => {
    expect(ids(await people.query('personnel.list', { search: 'ZQ-47' }))).toEqual(
      of('juergen', 'quast'),
    );
    expect(ids(await people.query('personnel.list', { mitgliednr: 'ZQ-47' }))).toEqual(of('quast'));
    expect(ids(await people.query('personnel.list', { mitgliednr: 'zq-4711' }))).toEqual([]);
  });

  it('requires every word, short ones too', async () => {
    expect(ids(await people.query('personnel.list', { search: 'jü zyxmü' }))).toEqual(
      of('juergen'),
    );
    expect(ids(await people.query('personnel.list', { search: 'an zyxmu' }))).toEqual(of('anna'));
    expect((await people.query('personnel.list', { search: 'zyxmuller nobody' })).total).toBe(0);
  });

  it('counts each status with the other filters applied, and filters several statuses at once', async () => {
    const found = await people.query('personnel.list', { search: 'zyx' });
    expect(found.statusCounts).toEqual({ gesperrt: 1, aktiv: 1, extern: 1 });
    const blocked = await people.query('personnel.list', { search: 'zyx', status: ['gesperrt'] });
    expect(ids(blocked)).toEqual(of('juergen'));
    expect(blocked.total).toBe(1);
    // The counts stay those of every status: the filter's choices keep their numbers.
    expect(blocked.statusCounts).toEqual(found.statusCounts);
    const two = await people.query('personnel.list', {
      search: 'zyx',
      status: ['gesperrt', 'extern'],
    });
    expect(ids(two)).toEqual(of('juergen', 'gross'));
  });

  it('filters by group, offers the groups with their numbers, and sorts by member number', async () => {
    expect(ids(await people.query('personnel.list', { group: 'Zyx-Küche' }))).toEqual(of('anna'));
    expect(ids(await people.query('personnel.list', { group: 'Zyx-Staffel' }))).toEqual(
      of('juergen', 'anna'),
    );
    const facets = await people.query('personnel.facets', {});
    expect(facets.groups).toContainEqual({ name: 'Zyx-Staffel', people: 2 });
    const sorted = await people.query('personnel.list', { sort: 'mitgliednr', limit: 1000 });
    const numbers = sorted.items.map((item) => item.mitgliednr);
    const firstMissing = numbers.indexOf(null);
    // Every person with a number before everyone without.
    expect(numbers.slice(firstMissing).every((n) => n === null)).toBe(true);
    expect(numbers.slice(0, firstMissing)).toContain('ZQ-4711');
  });

  it('finds a phone number changed offline, before it is sent', async () => {
    await write(world, 'user.update', {
      id: made.anna,
      attributes: { handy: '0160 2223334' },
    });
    expect(ids(await people.query('personnel.list', { search: '2223334' }))).toEqual(of('anna'));
    expect(ids(await people.query('personnel.list', { search: '0160 222' }))).toEqual(of('anna'));
  });
});

describe('a person changed offline', () => {
  it('shows a qualification added by its pair at once, and removed by the pair with null', async () => {
    const qualifications = async () =>
      ((await people.query('personnel.get', { id: made.juergen! }))!.attributes.qualifikationen ??
        []) as Record<string, unknown>[];
    await write(world, 'user.update', {
      id: made.juergen,
      attributes: { qualifikationen: [{ position: 7, rang: 2, erwerb_datum: '2024-05-01' }] },
    });
    expect(await qualifications()).toContainEqual(
      expect.objectContaining({ position: 7, rang: 2, erwerb_datum: '2024-05-01' }),
    );
    await write(world, 'user.update', {
      id: made.juergen,
      attributes: { qualifikationen: [{ position: 7, rang: null }] },
    });
    expect((await qualifications()).some((q) => String(q.position) === '7')).toBe(false);
  });

  it('names a qualification added by its pair as other people of the replica hold it', async () => {
    const known = world.replica.sqlite
      .prepare(
        `SELECT position, rang, liste, name FROM qualifikationen
         WHERE name IS NOT NULL AND rang IS NOT NULL LIMIT 1`,
      )
      .get() as { position: string; rang: number; liste: string | null; name: string };
    await write(world, 'user.update', {
      id: made.anna,
      attributes: { qualifikationen: [{ position: Number(known.position), rang: known.rang }] },
    });
    const shown = ((await people.query('personnel.get', { id: made.anna! }))!.attributes
      .qualifikationen ?? []) as Record<string, unknown>[];
    expect(shown).toContainEqual(
      expect.objectContaining({
        position: Number(known.position),
        rang: known.rang,
        name: known.name,
      }),
    );
  });
});

describe('migration 7', () => {
  it('fills in the search and the groups of people a replica held before it', async () => {
    const file = tempFile('v6.sqlite');
    const old = new BetterSqlite3(file);
    for (const migration of MIGRATIONS.slice(0, 6)) old.exec(migration);
    old.pragma('user_version = 6');
    const base = {
      attributes: {
        vorname: 'Öskar',
        nachname: 'Weiß',
        handy: '+49 (0)171-1',
        telpriv: '',
        gruppen_namen: ['Wache :: Süd'],
      },
      relationships: {},
    };
    old
      .prepare(
        `INSERT INTO users (id, vorname, nachname, sort_name, first_name_key, base, pending, synced_at)
         VALUES ('7', 'Öskar', 'Weiß', 'weiß öskar', 'öskar weiß', ?, ?, '2026-01-01T00:00:00Z')`,
      )
      .run(JSON.stringify(base), JSON.stringify({ attributes: { email: 'o@w.de' } }));
    old.close();
    const replica = openReplica(file);
    try {
      const found = typedCaller(createDispatcher(replica));
      for (const args of [
        { search: 'oskar weiss' },
        { search: '49017' },
        { search: 'o@w.de' },
        { group: 'Wache :: Süd' },
      ]) {
        const result = await found.query('personnel.list', args);
        expect(
          result.items.map((item) => item.id),
          JSON.stringify(args),
        ).toEqual(['7']);
      }
    } finally {
      await replica.close();
    }
  });
});
