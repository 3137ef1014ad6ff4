// Volunteer hours: the list's filters and defaults, includes, one entry's CRUD with its rules,
// occasions and the own settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredResource } from '../data/store';
import { startSandbox, type RunningSandbox } from '../server';
import { addMonthsToDate, berlinMidnight, formatBerlinDate } from './berlin-time';
import { ApiClient, expectError, many, one, relId } from './test-client';

let sandbox: RunningSandbox;
let office: ApiClient;
let member: ApiClient;
let memberId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 5 });
  office = ApiClient.as(sandbox, 'office');
  member = ApiClient.as(sandbox, 'member');
  memberId = sandbox.users.find((user) => user.role === 'member')!.id;
});
afterAll(() => sandbox.close());

const ids = (resources: { id: string }[]) => resources.map((resource) => resource.id);
const ownerOf = (entry: StoredResource) => (entry.relationships.user as { id: string }).id;

/** What the filters should select, computed from the store independently of the routes. */
function expectedHours(filter: { user?: string; von: number; bis?: number }): string[] {
  return sandbox.store
    .all('helferstunden')
    .filter((entry) => filter.user === undefined || ownerOf(entry) === filter.user)
    .filter((entry) => {
      const start = Date.parse(entry.attributes.von as string);
      const end = entry.attributes.bis === null ? null : Date.parse(entry.attributes.bis as string);
      const after = start >= filter.von || (end !== null && end >= filter.von);
      const before =
        filter.bis === undefined || start < filter.bis || (end !== null && end < filter.bis);
      return after && before;
    })
    .map((entry) => entry.id);
}

const sixMonthsAgo = () => berlinMidnight(addMonthsToDate(formatBerlinDate(Date.now()), -6));

const hoursDoc = (
  attributes: Record<string, unknown>,
  relationships: Record<string, unknown> = {},
  id?: string,
) => ({
  data: { type: 'helferstunden', ...(id ? { id } : {}), attributes, relationships },
});
const ref = (type: string, id: string) => ({ data: { type, id } });

const activeType = () =>
  sandbox.store.all('helferstunden_typ').find((typ) => typ.attributes.aktiv === true)!.id;
const inactiveType = () =>
  sandbox.store.all('helferstunden_typ').find((typ) => typ.attributes.aktiv === false)!.id;
const anyAnlass = () => sandbox.store.all('helferstunden_anlass')[0]!.id;
/** A new entry's occasion and active type. */
const newEntry = () => ({
  anlass: ref('helferstunden_anlass', anyAnlass()),
  typ: ref('helferstunden_typ', activeType()),
});

describe('GET /helferstunden', () => {
  it('lists the own entries of the last six months by default', async () => {
    const hours = many(await member.get('/helferstunden'));
    expect(ids(hours)).toEqual(expectedHours({ user: memberId, von: sixMonthsAgo() }));
    expect(hours.every((entry) => relId(entry, 'user') === memberId)).toBe(true);
  });

  it("lists everyone's entries for office staff with filter[eigene]=false", async () => {
    const hours = many(await office.get('/helferstunden?filter[eigene]=false'));
    expect(ids(hours)).toEqual(expectedHours({ von: sixMonthsAgo() }));
    expect(new Set(hours.map((entry) => relId(entry, 'user'))).size).toBeGreaterThan(5);
  });

  it('selects by start or end against filter[von] and filter[bis] (Berlin midnight)', async () => {
    const all = many(
      await office.get('/helferstunden?filter[eigene]=false&filter[von]=2000-01-01'),
    );
    expect(all).toHaveLength(sandbox.store.count('helferstunden'));
    // Two months of the demo's last six (its hours follow the calendar).
    const today = formatBerlinDate(Date.now());
    const von = addMonthsToDate(today, -4);
    const bis = addMonthsToDate(today, -2);
    const window = many(
      await office.get(`/helferstunden?filter[eigene]=false&filter[von]=${von}&filter[bis]=${bis}`),
    );
    expect(ids(window)).toEqual(
      expectedHours({ von: berlinMidnight(von), bis: berlinMidnight(bis) }),
    );
    expect(window.length).toBeGreaterThan(0);
    expect(window.length).toBeLessThan(all.length);
  });

  it('selects entries changed since an instant', async () => {
    // An entry of the member's own, not approved (the demo's approvals follow the calendar).
    const made = await member.post(
      '/helferstunden',
      hoursDoc(
        { von: '2026-11-02T18:00:00+01:00', bis: '2026-11-02T21:30:00+01:00', stunden: 3.5 },
        newEntry(),
      ),
    );
    expect(made.status).toBe(201);
    const entry = one(made);
    // The store's clock is strictly increasing: the entry was made before this instant.
    const since = encodeURIComponent(sandbox.store.now());
    expect(
      many(
        await office.get(
          `/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&filter[changed_since]=${since}`,
        ),
      ),
    ).toHaveLength(0);
    expect(
      (
        await member.patch(
          `/helferstunden/${entry.id}`,
          hoursDoc({ bemerkung: 'nachgetragen' }, {}, entry.id),
        )
      ).status,
    ).toBe(200);
    const changed = many(
      await office.get(
        `/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&filter[changed_since]=${since}`,
      ),
    );
    expect(ids(changed)).toEqual([entry.id]);
  });

  it('includes occasions, types, users and the references of services and appointments', async () => {
    const answer = await office.get(
      '/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&include=anlass.referenz',
    );
    const included = answer.doc.included ?? [];
    const types = new Set(included.map((resource) => resource.type));
    expect(types).toEqual(new Set(['helferstunden_anlass', 'dienst', 'termin']));
    for (const anlass of included.filter((resource) => resource.type === 'helferstunden_anlass')) {
      const referenz = anlass.relationships?.referenz?.data as { type: string } | null;
      if (['dienst', 'termin'].includes(anlass.attributes.typ))
        expect(referenz?.type).toBe(anlass.attributes.typ);
      else expect(referenz).toBeNull();
    }
    const withTyp = await member.get('/helferstunden?include=typ,user');
    expect(new Set((withTyp.doc.included ?? []).map((resource) => resource.type))).toEqual(
      new Set(['helferstunden_typ', 'user']),
    );
    expect(
      expectError(await member.get('/helferstunden?include=referenz'), 400).source?.parameter,
    ).toBe('include');
  });
});

describe('one entry', () => {
  it('is created for the caller, unapproved, with its defaults', async () => {
    const answer = await member.post(
      '/helferstunden',
      hoursDoc(
        { von: '2026-11-02T18:00:00+01:00', bis: '2026-11-02T21:30:00+01:00', stunden: 3.5 },
        newEntry(),
      ),
    );
    expect(answer.status).toBe(201);
    const entry = one(answer);
    expect(entry.id).toMatch(/^\d+$/);
    expect(relId(entry, 'user')).toBe(memberId);
    expect(entry.attributes).toMatchObject({
      freigegeben: false,
      stunden: 3.5,
      anfahrt_km: null,
      freies_zahlenfeld: null,
      bemerkung: '',
    });
    expect(entry.attributes.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(one(await member.get(`/helferstunden/${entry.id}`)).attributes.stunden).toBe(3.5);
  });

  it('refuses what breaks the rules', async () => {
    const von = '2026-11-02T18:00:00+01:00';
    expect(
      expectError(await member.post('/helferstunden', hoursDoc({ stunden: 2 }, newEntry())), 422)
        .source?.pointer,
    ).toBe('/data/attributes/von');
    expect(
      expectError(
        await member.post('/helferstunden', hoursDoc({ von, stunden: 0 }, newEntry())),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/stunden');
    expect(
      expectError(
        await member.post(
          '/helferstunden',
          hoursDoc({ von, stunden: 2, bis: '2026-11-02T17:00:00+01:00' }, newEntry()),
        ),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/bis');
    expect(
      expectError(
        await member.post(
          '/helferstunden',
          hoursDoc({ von: '2026-11-02 18:00', stunden: 2 }, newEntry()),
        ),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/von');
    expect(
      expectError(
        await member.post(
          '/helferstunden',
          hoursDoc({ von, stunden: 2 }, { anlass: newEntry().anlass }),
        ),
        422,
      ).source?.pointer,
    ).toBe('/data/relationships/typ');
    const inactive = { ...newEntry(), typ: ref('helferstunden_typ', inactiveType()) };
    expect(
      expectError(await member.post('/helferstunden', hoursDoc({ von, stunden: 2 }, inactive)), 422)
        .source?.pointer,
    ).toBe('/data/relationships/typ/data');
    const unknown = { ...newEntry(), anlass: ref('helferstunden_anlass', '999999') };
    expect(
      expectError(await member.post('/helferstunden', hoursDoc({ von, stunden: 2 }, unknown)), 404)
        .source?.pointer,
    ).toBe('/data/relationships/anlass/data');
  });

  it('may be approved and entered for others by office staff only', async () => {
    const von = '2026-11-03T18:00:00+01:00';
    expectError(
      await member.post(
        '/helferstunden',
        hoursDoc({ von, stunden: 1, freigegeben: true }, newEntry()),
      ),
      403,
    );
    const officeId = sandbox.users.find((user) => user.role === 'office')!.id;
    expectError(
      await member.post(
        '/helferstunden',
        hoursDoc({ von, stunden: 1 }, { ...newEntry(), user: ref('user', officeId) }),
      ),
      403,
    );
    const entry = one(
      await office.post(
        '/helferstunden',
        hoursDoc(
          { von, stunden: 1, freigegeben: true },
          { ...newEntry(), user: ref('user', memberId) },
        ),
      ),
    );
    expect(relId(entry, 'user')).toBe(memberId);
    expect(entry.attributes.freigegeben).toBe(true);
    expectError(
      await member.patch(`/helferstunden/${entry.id}`, hoursDoc({ stunden: 2 }, {}, entry.id)),
      403,
    );
    expectError(await member.delete(`/helferstunden/${entry.id}`), 403);
    expect(
      one(await office.patch(`/helferstunden/${entry.id}`, hoursDoc({ stunden: 2 }, {}, entry.id)))
        .attributes.stunden,
    ).toBe(2);
  });

  it('is changed with only the given attributes and stamped', async () => {
    const entry = one(
      await member.post(
        '/helferstunden',
        hoursDoc({ von: '2026-11-04T09:00:00+01:00', stunden: 4 }, newEntry()),
      ),
    );
    const changed = one(
      await member.patch(
        `/helferstunden/${entry.id}`,
        hoursDoc({ anfahrt_km: 12.5 }, {}, entry.id),
      ),
    );
    expect(changed.attributes).toMatchObject({
      stunden: 4,
      anfahrt_km: 12.5,
      von: '2026-11-04T09:00:00+01:00',
    });
    expect(changed.attributes.updated_at >= entry.attributes.updated_at).toBe(true);
    expect(
      expectError(
        await member.patch(
          `/helferstunden/${entry.id}`,
          hoursDoc({ bis: '2026-11-04T08:00:00+01:00' }, {}, entry.id),
        ),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/bis');
    expectError(
      await member.patch(`/helferstunden/${entry.id}`, hoursDoc({ stunden: 1 }, {}, '1')),
      409,
    );
  });

  it("is deleted once; another person's entry is 403 for a member", async () => {
    const entry = one(
      await member.post(
        '/helferstunden',
        hoursDoc({ von: '2026-11-05T09:00:00+01:00', stunden: 1 }, newEntry()),
      ),
    );
    expect((await member.delete(`/helferstunden/${entry.id}`)).status).toBe(204);
    expectError(await member.delete(`/helferstunden/${entry.id}`), 404);
    expectError(await member.get(`/helferstunden/${entry.id}`), 404);
    const foreign = sandbox.store
      .all('helferstunden')
      .find((candidate) => ownerOf(candidate) !== memberId)!;
    expectError(await member.get(`/helferstunden/${foreign.id}`), 403);
    expectError(
      await member.patch(`/helferstunden/${foreign.id}`, hoursDoc({ stunden: 1 }, {}, foreign.id)),
      403,
    );
  });
});

describe('occasions', () => {
  const anlassDoc = (
    attributes: Record<string, unknown>,
    relationships: Record<string, unknown> = {},
    id?: string,
  ) => ({
    data: { type: 'helferstunden_anlass', ...(id ? { id } : {}), attributes, relationships },
  });

  it('are created with a reference for services and appointments only', async () => {
    const dienst = sandbox.store.all('dienst')[0]!;
    const created = await member.post(
      '/helferstunden/anlass',
      anlassDoc(
        { typ: 'dienst', beschreibung: 'Nachbesetzung' },
        { referenz: ref('dienst', dienst.id) },
      ),
    );
    expect(created.status).toBe(201);
    expect(one(created).attributes).toMatchObject({
      typ: 'dienst',
      beschreibung: 'Nachbesetzung',
      datum: formatBerlinDate(Date.now()),
    });
    expect(one(created).relationships?.referenz?.data).toEqual({ type: 'dienst', id: dienst.id });
    const free = one(
      await member.post(
        '/helferstunden/anlass',
        anlassDoc({ typ: 'sonstiges', beschreibung: 'Aufräumen', datum: '2026-11-01' }),
      ),
    );
    expect(free.relationships?.referenz?.data).toBeNull();
    expect(
      expectError(
        await member.post(
          '/helferstunden/anlass',
          anlassDoc({ typ: 'termin', beschreibung: 'x' }, { referenz: ref('dienst', dienst.id) }),
        ),
        422,
      ).source?.pointer,
    ).toBe('/data/relationships/referenz/data');
    expect(
      expectError(await member.post('/helferstunden/anlass', anlassDoc({ typ: 'kurs' })), 422)
        .source?.pointer,
    ).toBe('/data/attributes/beschreibung');
    expect(
      expectError(
        await member.post('/helferstunden/anlass', anlassDoc({ typ: 'feier', beschreibung: 'x' })),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/typ');
  });

  it('are changed by office staff only', async () => {
    const anlass = sandbox.store
      .all('helferstunden_anlass')
      .find((candidate) => candidate.attributes.typ === 'sonstiges')!;
    expectError(
      await member.patch(
        `/helferstunden/anlass/${anlass.id}`,
        anlassDoc({ beschreibung: 'neu' }, {}, anlass.id),
      ),
      403,
    );
    const changed = one(
      await office.patch(
        `/helferstunden/anlass/${anlass.id}`,
        anlassDoc({ beschreibung: 'neu' }, {}, anlass.id),
      ),
    );
    expect(changed.attributes).toMatchObject({ beschreibung: 'neu', typ: 'sonstiges' });
    expectError(
      await office.patch(
        '/helferstunden/anlass/999999',
        anlassDoc({ beschreibung: 'x' }, {}, '999999'),
      ),
      404,
    );
  });
});

describe('GET /helferstunden/einstellungen/selbst', () => {
  it("answers the caller's settings with the active hour types included", async () => {
    const answer = await member.get('/helferstunden/einstellungen/selbst');
    const settings = one(answer);
    expect(settings.type).toBe('helferstunden_einstellungen');
    expect(settings.id).toBe(memberId);
    const active = sandbox.store
      .all('helferstunden_typ')
      .filter((typ) => typ.attributes.aktiv === true)
      .map((typ) => typ.id);
    expect((settings.relationships?.typen?.data as { id: string }[]).map((typ) => typ.id)).toEqual(
      active,
    );
    expect(answer.doc.included?.map((typ) => typ.id)).toEqual(active);
    expect(answer.doc.included?.every((typ) => typ.type === 'helferstunden_typ')).toBe(true);
  });
});
