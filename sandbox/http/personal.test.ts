// Personnel: the own record, the list and its filters, POST/PATCH/PUT with the name and
// qualification rules, and a person's trainings, checks and honours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import { ApiClient, expectError, many, one, relId } from './test-client';

let sandbox: RunningSandbox;
let office: ApiClient;
let member: ApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 11 });
  office = ApiClient.as(sandbox, 'office');
  member = ApiClient.as(sandbox, 'member');
});
afterAll(() => sandbox.close());

const userDoc = (attributes: Record<string, unknown>, id?: string) => ({
  data: { type: 'user', ...(id ? { id } : {}), attributes },
});

/** An instant for filter[updated_since], URL-encoded, taken from the store clock. */
const sinceNow = () => encodeURIComponent(sandbox.store.now());

describe('GET /personal/selbst', () => {
  it('answers each account with its own record in the known style', async () => {
    for (const user of sandbox.users) {
      const record = one(
        await new ApiClient(sandbox.baseUrl, user.accessToken).get('/personal/selbst'),
      );
      expect(record.type).toBe('user');
      expect(record.id).toBe(user.id);
      expect(record.id).toMatch(/^[0-9a-f]{32}$/);
      expect(record.attributes.name).toBe(
        `${record.attributes.nachname}, ${record.attributes.vorname}`,
      );
      expect(record.attributes.gesperrt).toBe(record.attributes.status === 'gesperrt');
      expect(relId(record, 'organisation')).toMatch(/^\d+$/);
      for (const training of record.attributes.ausbildungen as Record<string, string>[]) {
        expect(Object.keys(training).sort()).toEqual(
          [
            'ausbildung_id',
            'bezeichnung',
            'created_at',
            'datum',
            'gueltig_bis',
            'id',
            'lehrgangsnummer',
            'updated_at',
          ].sort(),
        );
      }
    }
  });

  it('writes empty values as "" and never null', async () => {
    const users = many(await office.get('/personal'));
    const emptyValues = users
      .flatMap((user) => Object.values(user.attributes))
      .filter((value) => value === '');
    expect(emptyValues.length).toBeGreaterThan(0);
    expect(users.some((user) => Object.values(user.attributes).includes(null))).toBe(false);
  });
});

describe('GET /personal', () => {
  it('lists everyone, with the organisation included once on request', async () => {
    const answer = await office.get('/personal?include=organisation');
    expect(many(answer)).toHaveLength(sandbox.store.count('user'));
    expect(answer.doc.included?.map((resource) => resource.type)).toEqual(['organisation']);
    expect(answer.doc.included?.[0]?.attributes.name).toBeTruthy();
    expect((await office.get('/personal')).doc.included).toBeUndefined();
  });

  it('filters by a comma-separated status list', async () => {
    const users = many(await office.get('/personal?filter[status]=extern,gesperrt'));
    const expected = sandbox.store
      .all('user')
      .filter((user) => ['extern', 'gesperrt'].includes(user.attributes.status as string));
    expect(users.map((user) => user.id)).toEqual(expected.map((user) => user.id));
    expect(users.length).toBeGreaterThan(0);
  });

  it('filters by change time: a changed person appears, the unchanged do not', async () => {
    const since = sinceNow();
    expect(many(await office.get(`/personal?filter[updated_since]=${since}`))).toHaveLength(0);
    const target = sandbox.store.all('user')[3]!;
    expect(
      (await office.patch(`/personal/${target.id}`, userDoc({ beruf: 'Tischler' }, target.id)))
        .status,
    ).toBe(200);
    const changed = many(await office.get(`/personal?filter[updated_since]=${since}`));
    expect(changed.map((user) => user.id)).toEqual([target.id]);
  });
});

describe('POST /personal', () => {
  it('creates a person with a new user id, "" defaults and derived values', async () => {
    const answer = await office.post(
      '/personal',
      userDoc({ vorname: 'Greta', nachname: 'Neumann', status: 'extern' }),
    );
    expect(answer.status).toBe(201);
    const user = one(answer);
    expect(user.id).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.headers.get('location')).toBe(`${sandbox.baseUrl}/personal/${user.id}`);
    expect(user.attributes).toMatchObject({
      vorname: 'Greta',
      nachname: 'Neumann',
      name: 'Neumann, Greta',
      status: 'extern',
      gesperrt: false,
      mitgliednr: '',
      gebdat: '',
      austritt_datum: '',
      qualifikationen: [],
      ausbildungen: [],
    });
    expect(sandbox.store.get('user', user.id)).toBeDefined();
  });

  it('requires vorname and nachname', async () => {
    expect(
      expectError(await office.post('/personal', userDoc({ nachname: 'Ohne' })), 422).source
        ?.pointer,
    ).toBe('/data/attributes/vorname');
    expect(
      expectError(await office.post('/personal', userDoc({ vorname: 'Ohne' })), 422).source
        ?.pointer,
    ).toBe('/data/attributes/nachname');
    expect(
      expectError(await office.post('/personal', userDoc({ vorname: ' ', nachname: 'Leer' })), 422)
        .source?.pointer,
    ).toBe('/data/attributes/vorname');
  });

  it('refuses derived and read-only attributes, bad dates and a taken member number', async () => {
    const base = { vorname: 'Kai', nachname: 'Probe' };
    expect(
      expectError(await office.post('/personal', userDoc({ ...base, name: 'x' })), 422).source
        ?.pointer,
    ).toBe('/data/attributes/name');
    expect(
      expectError(await office.post('/personal', userDoc({ ...base, ausbildungen: [] })), 422)
        .source?.pointer,
    ).toBe('/data/attributes/ausbildungen');
    expect(
      expectError(await office.post('/personal', userDoc({ ...base, gebdat: '1990-13-01' })), 422)
        .source?.pointer,
    ).toBe('/data/attributes/gebdat');
    const taken = sandbox.store.all('user').find((user) => user.attributes.mitgliednr !== '')!;
    const error = expectError(
      await office.post('/personal', userDoc({ ...base, mitgliednr: taken.attributes.mitgliednr })),
      409,
    );
    expect(error.source?.pointer).toBe('/data/attributes/mitgliednr');
  });
});

describe('qualifications', () => {
  let userId: string;
  beforeAll(async () => {
    userId = one(
      await office.post('/personal', userDoc({ vorname: 'Quali', nachname: 'Fikation' })),
    ).id;
  });
  const patchQualifications = (edits: unknown[]) =>
    office.patch(`/personal/${userId}`, userDoc({ qualifikationen: edits }, userId));

  it('sets a qualification by each of the four pairs', async () => {
    let user = one(
      await patchQualifications([{ position: 1, rang: 2, erwerb_datum: '2024-05-01' }]),
    );
    expect(user.attributes.qualifikationen).toEqual([
      expect.objectContaining({
        position: 1,
        rang: 2,
        name_kurz: 'San',
        zentralliste_id: 1,
        erwerb_datum: '2024-05-01',
      }),
    ]);
    user = one(await patchQualifications([{ position: 1, name_kurz: 'RS' }]));
    expect(user.attributes.qualifikationen[0]).toMatchObject({
      rang: 3,
      name: 'Rettungssanitäter',
      erwerb_datum: '',
    });
    user = one(await patchQualifications([{ zentralliste_id: 2, zentralliste_rang: 1 }]));
    expect(
      user.attributes.qualifikationen.map((q: { position: number; rang: number }) => [
        q.position,
        q.rang,
      ]),
    ).toEqual([
      [1, 3],
      [2, 1],
    ]);
    user = one(await patchQualifications([{ zentralliste_id: 2, zentralliste_name_kurz: 'ZgF' }]));
    expect(user.attributes.qualifikationen[1]).toMatchObject({
      liste: 'Führung',
      rang: 3,
      name_kurz: 'ZgF',
    });
  });

  it('deletes a qualification when the second value of the pair is null', async () => {
    one(
      await patchQualifications([
        { position: 1, rang: 1 },
        { position: 2, rang: 1 },
      ]),
    );
    let user = one(await patchQualifications([{ position: 1, rang: null }]));
    expect(user.attributes.qualifikationen.map((q: { position: number }) => q.position)).toEqual([
      2,
    ]);
    user = one(await patchQualifications([{ zentralliste_id: 2, zentralliste_name_kurz: null }]));
    expect(user.attributes.qualifikationen).toEqual([]);
  });

  it('refuses anything but exactly one pair, and unknown lists and ranks', async () => {
    const cases: [unknown, string][] = [
      [{ position: 1 }, '/data/attributes/qualifikationen/0'],
      [{ rang: 2 }, '/data/attributes/qualifikationen/0'],
      [{ position: 1, rang: 2, name_kurz: 'San' }, '/data/attributes/qualifikationen/0'],
      [{ position: 1, zentralliste_rang: 2 }, '/data/attributes/qualifikationen/0'],
      [{ position: 9, rang: 1 }, '/data/attributes/qualifikationen/0/position'],
      [{ position: 1, rang: 9 }, '/data/attributes/qualifikationen/0/rang'],
      [
        { zentralliste_id: 1, zentralliste_name_kurz: 'XX' },
        '/data/attributes/qualifikationen/0/zentralliste_name_kurz',
      ],
    ];
    for (const [edit, pointer] of cases) {
      expect(
        expectError(await patchQualifications([edit]), 422).source?.pointer,
        JSON.stringify(edit),
      ).toBe(pointer);
    }
  });
});

describe('PATCH /personal/{id}', () => {
  it('changes the given attributes only and derives gesperrt from status', async () => {
    const target = sandbox.store.all('user').find((user) => user.attributes.status === 'aktiv')!;
    const user = one(
      await office.patch(
        `/personal/${target.id}`,
        userDoc({ status: 'gesperrt', fahrerlaubnis: { klassen: ['B', 'C1'] } }, target.id),
      ),
    );
    expect(user.attributes.gesperrt).toBe(true);
    expect(user.attributes.vorname).toBe(target.attributes.vorname);
    expect(user.attributes.fahrerlaubnis).toMatchObject({ klassen: ['B', 'C1'] });
    expect(user.attributes.fahrerlaubnis.fuehrerscheinnummer).toBe(
      (target.attributes.fahrerlaubnis as Record<string, string>).fuehrerscheinnummer,
    );
  });

  it('answers 404 for an unknown person and 409 for an id that contradicts the path', async () => {
    expectError(
      await office.patch(`/personal/${'0'.repeat(32)}`, userDoc({ beruf: 'x' }, '0'.repeat(32))),
      404,
    );
    const target = sandbox.store.all('user')[0]!;
    expect(
      expectError(
        await office.patch(`/personal/${target.id}`, userDoc({ beruf: 'x' }, 'f'.repeat(32))),
        409,
      ).source?.pointer,
    ).toBe('/data/id');
    expect(
      expectError(await office.patch(`/personal/${target.id}`, userDoc({ beruf: 'x' })), 400).source
        ?.pointer,
    ).toBe('/data/id');
  });
});

describe('PUT /personal/{identifier_name}/{identifier_value}', () => {
  it('updates the person with that user id, or creates one with it', async () => {
    const target = sandbox.store.all('user')[5]!;
    const updated = await office.put(
      `/personal/user_id/${target.id}`,
      userDoc({ beruf: 'Bäcker' }),
    );
    expect(updated.status).toBe(200);
    expect(one(updated).attributes.beruf).toBe('Bäcker');
    const newId = 'ab'.repeat(16);
    const created = await office.put(
      `/personal/user_id/${newId}`,
      userDoc({ vorname: 'Per', nachname: 'Put' }, newId),
    );
    expect(created.status).toBe(201);
    expect(one(created).id).toBe(newId);
  });

  it('updates the person with that member number, or creates one carrying it', async () => {
    const target = sandbox.store.all('user').find((user) => user.attributes.mitgliednr !== '')!;
    const updated = one(
      await office.put(
        `/personal/mitgliednr/${target.attributes.mitgliednr}`,
        userDoc({ ort: 'Kassel' }),
      ),
    );
    expect(updated.id).toBe(target.id);
    expect(updated.attributes.ort).toBe('Kassel');
    const created = await office.put(
      '/personal/mitgliednr/M-999',
      userDoc({ vorname: 'Mia', nachname: 'Mitglied' }),
    );
    expect(created.status).toBe(201);
    expect(one(created).attributes.mitgliednr).toBe('M-999');
    expect(
      one(await office.put('/personal/mitgliednr/M-999', userDoc({ handy: '0170 1' }))).id,
    ).toBe(one(created).id);
  });

  it('requires both names when it creates, and knows only two identifiers', async () => {
    expect(
      expectError(await office.put('/personal/mitgliednr/M-1000', userDoc({ vorname: 'Nur' })), 422)
        .source?.pointer,
    ).toBe('/data/attributes/nachname');
    expect(
      expectError(
        await office.put('/personal/email/a@b.example', userDoc({ vorname: 'A', nachname: 'B' })),
        400,
      ).source?.parameter,
    ).toBe('identifier_name');
    expect(
      expectError(
        await office.put('/personal/user_id/xyz', userDoc({ vorname: 'A', nachname: 'B' })),
        400,
      ).source?.parameter,
    ).toBe('identifier_value');
  });
});

describe("a person's trainings, checks and honours", () => {
  const withTrainings = () =>
    sandbox.store
      .all('user')
      .find(
        (user) =>
          (user.attributes.ausbildungen as unknown[]).length >= 2 &&
          sandbox.store.get('account', user.id) === undefined,
      )!;

  it('lists the trainings the user resource embeds, with the user included on request', async () => {
    const user = withTrainings();
    const answer = await office.get(`/personal/${user.id}/ausbildungen?include=user`);
    const trainings = many(answer);
    expect(trainings.map((training) => training.id)).toEqual(
      (user.attributes.ausbildungen as { id: string }[]).map((t) => t.id),
    );
    expect(trainings[0]!.type).toBe('ausbildung');
    expect(answer.doc.included?.map((resource) => resource.id)).toEqual([user.id]);
    expect(trainings[0]!.links.self).toBe(
      `${sandbox.baseUrl}/personal/${user.id}/ausbildungen/${trainings[0]!.id}`,
    );
  });

  it('filters trainings and checks by change time', async () => {
    const user = withTrainings();
    const trainings = sandbox.store.related('ausbildung', 'user', user.id);
    const newest = [...trainings].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)).at(-1)!;
    const filtered = many(
      await office.get(
        `/personal/${user.id}/ausbildungen?filter[updated_since]=${encodeURIComponent(newest.updatedAt)}`,
      ),
    );
    expect(filtered.map((training) => training.id)).toEqual([newest.id]);
    const withChecks = sandbox.store.all('ueberpruefung')[0]!;
    const owner = relIdOf(withChecks);
    const checks = many(await office.get(`/personal/${owner}/ueberpruefungen?include=user`));
    expect(checks.length).toBe(sandbox.store.related('ueberpruefung', 'user', owner).length);
    expect(checks[0]!.attributes.pruefergebnis).toHaveProperty('bestanden');
    expect(
      many(
        await office.get(`/personal/${owner}/ueberpruefungen?filter[updated_since]=${sinceNow()}`),
      ),
    ).toHaveLength(0);
  });

  it('lists honours and takes no filter there', async () => {
    const honour = sandbox.store.all('ehrung')[0]!;
    const owner = relIdOf(honour);
    expect(many(await office.get(`/personal/${owner}/ehrungen`)).length).toBe(
      sandbox.store.related('ehrung', 'user', owner).length,
    );
    expectError(
      await office.get(`/personal/${owner}/ehrungen?filter[updated_since]=${sinceNow()}`),
      400,
    );
    expectError(await office.get(`/personal/${'0'.repeat(32)}/ehrungen`), 404);
  });

  it('deletes a training entry from the list and the person, and bumps the person', async () => {
    const user = withTrainings();
    const [first] = user.attributes.ausbildungen as { id: string }[];
    const since = sinceNow();
    expect((await office.delete(`/personal/${user.id}/ausbildungen/${first!.id}`)).status).toBe(
      204,
    );
    const trainings = many(await office.get(`/personal/${user.id}/ausbildungen`));
    expect(trainings.map((training) => training.id)).not.toContain(first!.id);
    const changed = many(await office.get(`/personal?filter[updated_since]=${since}`));
    expect(changed.map((person) => person.id)).toEqual([user.id]);
    expect((changed[0]!.attributes.ausbildungen as { id: string }[]).map((t) => t.id)).toEqual(
      trainings.map((t) => t.id),
    );
    expectError(await office.delete(`/personal/${user.id}/ausbildungen/${first!.id}`), 404);
    const other = sandbox.store
      .all('ausbildung')
      .find((training) => relIdOf(training) !== user.id)!;
    expectError(await office.delete(`/personal/${user.id}/ausbildungen/${other.id}`), 404);
  });

  it('lets a member read their own sub-resources only', async () => {
    const self = one(await member.get('/personal/selbst'));
    expect((await member.get(`/personal/${self.id}/ausbildungen`)).status).toBe(200);
    expect((await member.get(`/personal/${self.id}/ueberpruefungen`)).status).toBe(200);
    expect((await member.get(`/personal/${self.id}/ehrungen`)).status).toBe(200);
  });
});

function relIdOf(resource: { relationships: Record<string, unknown> }): string {
  return (resource.relationships.user as { id: string }).id;
}
