// The client against the sandbox, over real HTTP: every read operation of the interface, with
// the base URL carrying a path as on the real service, paging, faults, rate limit, expired
// tokens and an unlicensed module.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Tests, unlike sync/ code, may start the real sandbox (DESIGN "Testing": no mocks of the service).
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server';
import { createApiClient, type ApiClient, type ApiClientOptions } from './client';
import { apiError } from './test-support/api-error';
import { indexIncluded, relatedIds } from './included';
import { collectPages, type Page } from './pages';
import type { Resource } from './schemas/common';
import { staticToken, type TokenSource } from './token-source';
import type { RequestEvent } from './transport';

const ANCHOR = { scale: 'small', seed: 7, anchorDate: '2026-03-01' } as const;
const EVERYTHING = { from: '2000-01-01', until: '2100-01-01' };

const running: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(running.map((sandbox) => sandbox.close()));
});

async function sandboxWith(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, ...ANCHOR, ...options });
  running.push(sandbox);
  return sandbox;
}

function accountOf(sandbox: RunningSandbox, role: 'office' | 'trainer' | 'member') {
  const account = sandbox.users.find((candidate) => candidate.role === role);
  if (!account) throw new Error(`The sandbox has no ${role} account`);
  return account;
}

function clientFor(
  sandbox: RunningSandbox,
  role: 'office' | 'trainer' | 'member' = 'office',
  options: Partial<ApiClientOptions> = {},
): ApiClient {
  return createApiClient({
    baseUrl: sandbox.baseUrl,
    oauthUrl: `${sandbox.origin}/oauth/v1`,
    tokens: staticToken(accountOf(sandbox, role).accessToken),
    backoff: { baseMs: 5, maxMs: 20 },
    ...options,
  });
}

/** Every to-one and to-many target of `name` is among the included resources. */
function expectIncluded(
  resources: readonly Resource[],
  name: string,
  type: string,
  included: Resource[],
) {
  const index = indexIncluded(included);
  let found = 0;
  for (const resource of resources) {
    for (const id of relatedIds(resource, name)) {
      expect(index.get(type, id), `${resource.type} ${resource.id} → ${name} ${id}`).toBeDefined();
      found += 1;
    }
  }
  return found;
}

describe('every read operation, office token, base URL with /core/v1', () => {
  let sandbox: RunningSandbox;
  let api: ApiClient;
  let officeId: string;

  beforeAll(async () => {
    sandbox = await sandboxWith({ prefix: '/core/v1' });
    expect(new URL(sandbox.baseUrl).pathname).toBe('/core/v1');
    api = clientFor(sandbox);
    officeId = accountOf(sandbox, 'office').id;
  });

  it('own record and personnel list, with filters and included organisations', async () => {
    const own = await api.getOwnUser();
    expect(own.data).toMatchObject({ type: 'user', id: officeId });
    expect(own.serverDate).toBeInstanceOf(Date);

    const all = await collectPages(api.listPersonal({ include: ['organisation'] }));
    expect(all.data.map((user) => user.id)).toContain(officeId);
    expect(expectIncluded(all.data, 'organisation', 'organisation', all.included)).toBe(
      all.data.length,
    );

    const active = await collectPages(api.listPersonal({ status: ['aktiv', 'extern'] }));
    const expected = all.data.filter((user) =>
      ['aktiv', 'extern'].includes(user.attributes.status ?? ''),
    );
    expect(active.data.map((user) => user.id).sort()).toEqual(
      expected.map((user) => user.id).sort(),
    );
    expect(expected.length).toBeLessThan(all.data.length);

    const future = await collectPages(
      api.listPersonal({ updatedSince: new Date(Date.now() + 3_600_000) }),
    );
    expect(future.data).toEqual([]);
    // A string with a "+" offset must arrive intact (a bare "+" would read as a space: 400).
    const past = await collectPages(
      api.listPersonal({ updatedSince: '2000-01-01T00:00:00+01:00' }),
    );
    expect(past.data).toHaveLength(all.data.length);
  });

  it('trainings, checks and honours of a person', async () => {
    const { data: people } = await collectPages(api.listPersonal());
    const person = people.find((user) => (user.attributes.ausbildungen ?? []).length > 0);
    if (!person) throw new Error('No person with trainings in the demo data');

    const trainings = await collectPages(api.listAusbildungen(person.id, { include: ['user'] }));
    expect(trainings.data.map((training) => training.id).sort()).toEqual(
      (person.attributes.ausbildungen ?? []).map((training) => training.id).sort(),
    );
    expect(expectIncluded(trainings.data, 'user', 'user', trainings.included)).toBe(
      trainings.data.length,
    );
    const none = await collectPages(
      api.listAusbildungen(person.id, { updatedSince: new Date(Date.now() + 3_600_000) }),
    );
    expect(none.data).toEqual([]);

    const checks = await collectPages(
      api.listUeberpruefungen(person.id, { updatedSince: new Date(0) }),
    );
    const honours = await collectPages(api.listEhrungen(person.id));
    for (const resource of [...checks.data, ...honours.data]) {
      expect(relatedIds(resource, 'user')).toEqual([person.id]);
    }
    const everyonesChecks = await Promise.all(
      people.slice(0, 10).map((user) => collectPages(api.listUeberpruefungen(user.id))),
    );
    expect(everyonesChecks.some((checksOfOne) => checksOfOne.data.length > 0)).toBe(true);
  });

  it('organisation master data and user-info (given and derived auth URL)', async () => {
    const orga = await api.getOrganisation();
    expect(orga.data.type).toBe('orga');
    expect(orga.data.attributes.name).not.toBe('');

    const info = await api.getUserInfo();
    expect(info.sub).toBe(officeId);
    const derived = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(accountOf(sandbox, 'office').accessToken),
    });
    expect((await derived.getUserInfo()).sub).toBe(officeId);
  });

  it('calendars', async () => {
    const { data } = await collectPages(api.listKalender());
    const first = data[0];
    if (!first) throw new Error('No calendar in the demo data');
    const one = await api.getKalender(first.id);
    expect(one.data).toEqual(first);
    expect((await apiError(api.getKalender('999999'))).kind).toBe('not_found');
  });

  it('volunteer hours with every include, one entry, and the own settings', async () => {
    const hours = await collectPages(
      api.listHelferstunden({
        eigene: false,
        von: '2000-01-01',
        include: ['anlass', 'typ', 'user', 'anlass.referenz'],
      }),
    );
    expect(hours.data.length).toBeGreaterThan(0);
    expect(expectIncluded(hours.data, 'anlass', 'helferstunden_anlass', hours.included)).toBe(
      hours.data.length,
    );
    expect(expectIncluded(hours.data, 'typ', 'helferstunden_typ', hours.included)).toBe(
      hours.data.length,
    );
    expect(expectIncluded(hours.data, 'user', 'user', hours.included)).toBe(hours.data.length);
    const references = hours.included.filter(
      (resource) => resource.type === 'dienst' || resource.type === 'termin',
    );
    expect(references.length).toBeGreaterThan(0);

    const own = await collectPages(api.listHelferstunden({ von: '2000-01-01' }));
    expect(own.data.every((entry) => relatedIds(entry, 'user')[0] === officeId)).toBe(true);
    expect(own.data.length).toBeLessThan(hours.data.length);

    const window = await collectPages(
      api.listHelferstunden({ eigene: false, von: '2026-01-01', bis: '2026-02-01' }),
    );
    expect(window.data.length).toBeLessThan(hours.data.length);
    const unchanged = await collectPages(
      api.listHelferstunden({
        eigene: false,
        von: '2000-01-01',
        changedSince: new Date(Date.now() + 3_600_000),
      }),
    );
    expect(unchanged.data).toEqual([]);

    const entry = hours.data[0];
    if (!entry) throw new Error('No hour entry');
    expect((await api.getHelferstunden(entry.id)).data).toEqual(entry);

    const settings = await api.getHelferstundenEinstellungen();
    expect(settings.data.type).toBe('helferstunden_einstellungen');
    const typen = relatedIds(settings.data, 'typen');
    expect(typen.length).toBeGreaterThan(0);
    expect(expectIncluded([settings.data], 'typen', 'helferstunden_typ', settings.included)).toBe(
      typen.length,
    );
  });

  it('notifications with meta.size, forms, tax rates', async () => {
    const pages = [];
    for await (const page of api.listBenachrichtigungen()) pages.push(page);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.meta?.size).toBe(pages[0]?.data.length);

    const forms = await api.listFormulare('u', officeId);
    expect(forms.length).toBeGreaterThan(0);
    expect(typeof forms[0]?.titel).toBe('string');

    const rates = await collectPages(api.listSteuersaetze());
    expect(rates.data.every((rate) => typeof rate.attributes.satz === 'number')).toBe(true);
  });

  it('courses with dates, locations and includes; one course; course types; UVTs', async () => {
    const courses = await collectPages(
      api.listCourses({ ...EVERYTHING, include: ['client', 'course_type'] }),
    );
    expect(courses.data.length).toBeGreaterThan(0);
    expect(expectIncluded(courses.data, 'dates', 'course_date', courses.included)).toBeGreaterThan(
      0,
    );
    expectIncluded(courses.data, 'location', 'address', courses.included);
    expect(expectIncluded(courses.data, 'course_type', 'course_type', courses.included)).toBe(
      courses.data.length,
    );
    expectIncluded(courses.data, 'client', 'client', courses.included);

    const narrow = await collectPages(api.listCourses());
    expect(narrow.data.length).toBeLessThanOrEqual(courses.data.length);

    const course = courses.data[0];
    if (!course) throw new Error('No course');
    const one = await api.getCourse(course.id, { include: ['course_type'] });
    expect(one.data.id).toBe(course.id);
    expect(
      indexIncluded(one.included).get('course_type', relatedIds(course, 'course_type')[0] ?? ''),
    ).toBeDefined();

    const types = await collectPages(api.listCourseTypes());
    expect(types.data.map((type) => type.id)).toEqual(
      expect.arrayContaining(relatedIds(course, 'course_type')),
    );
    const uvts = await collectPages(api.listUvts());
    expect(uvts.data.length).toBeGreaterThan(0);
  });

  it('participations and custom fields of courses', async () => {
    const { data: courses } = await collectPages(api.listCourses(EVERYTHING));
    let participationsSeen = 0;
    let customFieldsSeen = 0;
    for (const course of courses) {
      const participations = await collectPages(
        api.listParticipations(course.id, { include: ['company', 'uvt'] }),
      );
      expectIncluded(participations.data, 'company', 'company', participations.included);
      expectIncluded(participations.data, 'uvt', 'uvt', participations.included);
      const participation = participations.data[0];
      if (participation) {
        const one = await api.getParticipation(course.id, participation.id, {
          include: ['company'],
        });
        expect(one.data.attributes).toEqual(participation.attributes);
      }
      participationsSeen += participations.data.length;

      const fields = await collectPages(api.listCustomFields(course.id));
      const field = fields.data[0];
      if (field) expect((await api.getCustomField(course.id, field.id)).data).toEqual(field);
      customFieldsSeen += fields.data.length;
    }
    expect(participationsSeen).toBeGreaterThan(0);
    expect(customFieldsSeen).toBeGreaterThan(0);
  });

  it('clients, their courses and participants', async () => {
    const { data: clients } = await collectPages(api.listClients());
    const client = clients[0];
    if (!client) throw new Error('No client');
    expect((await api.getClient(client.id)).data).toEqual(client);

    let coursesSeen = 0;
    for (const candidate of clients) {
      const courses = await collectPages(
        api.listClientCourses(candidate.id, { include: ['course_type'] }),
      );
      const course = courses.data[0];
      if (course) {
        const one = await api.getClientCourse(candidate.id, course.id, { include: ['client'] });
        expect(one.data.id).toBe(course.id);
      }
      coursesSeen += courses.data.length;
      const participants = await collectPages(api.listClientParticipants(candidate.id));
      expect(participants.data.every((participant) => participant.type === 'participation')).toBe(
        true,
      );
    }
    expect(coursesSeen).toBeGreaterThan(0);
  });

  it('a trainer gets 403 with the service text where the role ends', async () => {
    const trainer = clientFor(sandbox, 'trainer');
    const trainerId = accountOf(sandbox, 'trainer').id;
    expect((await trainer.getOwnUser()).data.id).toBe(trainerId);

    for (const denied of [
      collectPages(trainer.listPersonal()),
      collectPages(trainer.listClients()),
      collectPages(trainer.listHelferstunden({ eigene: false })),
    ]) {
      const error = await apiError(denied);
      expect(error).toMatchObject({ kind: 'forbidden', status: 403 });
      expect(error.errors[0]?.detail).toBeTruthy();
      expect(error.message).toContain(`(403): ${error.errors[0]?.detail}`);
    }

    const own = await collectPages(
      trainer.listCourses({ ...EVERYTHING, trainerUserId: trainerId }),
    );
    expect(own.data.every((course) => relatedIds(course, 'trainers').includes(trainerId))).toBe(
      true,
    );
    const { data: all } = await collectPages(api.listCourses(EVERYTHING));
    const foreign = all.find((course) => !relatedIds(course, 'trainers').includes(trainerId));
    if (!foreign) throw new Error('Every course has this trainer');
    expect((await apiError(trainer.getCourse(foreign.id))).kind).toBe('forbidden');
  });
});

describe('base URL without a path', () => {
  it('works at the root and with a trailing slash', async () => {
    const sandbox = await sandboxWith();
    const token = staticToken(accountOf(sandbox, 'office').accessToken);
    for (const baseUrl of [sandbox.origin, `${sandbox.origin}/`]) {
      const api = createApiClient({ baseUrl, tokens: token });
      expect((await api.getOrganisation()).data.type).toBe('orga');
    }
  });
});

describe('paging', () => {
  it('gives the same data with pages of 7 as without paging', async () => {
    const [whole, paged] = await Promise.all([
      sandboxWith(),
      sandboxWith({ pageSize: 7, prefix: '/core/v1' }),
    ]);
    const pagesSeen: Record<string, number> = {};
    const read = async (sandbox: RunningSandbox, label: string) => {
      const api = clientFor(sandbox);
      const collect = async <R extends Resource>(name: string, pages: AsyncGenerator<Page<R>>) => {
        const data: R[] = [];
        const included = new Map<string, unknown>();
        let count = 0;
        for await (const page of pages) {
          count += 1;
          data.push(...page.data);
          for (const resource of page.included)
            included.set(`${resource.type}:${resource.id}`, withoutLinks(resource));
        }
        pagesSeen[`${label} ${name}`] = count;
        return { data: data.map(withoutLinks), included: [...included.keys()].sort() };
      };
      const courses = await collect('courses', api.listCourses(EVERYTHING));
      return {
        personal: await collect('personal', api.listPersonal({ include: ['organisation'] })),
        hours: await collect(
          'hours',
          api.listHelferstunden({ eigene: false, von: '2000-01-01', include: ['anlass'] }),
        ),
        courses,
        participations: await Promise.all(
          courses.data.map((course) =>
            collect('participations', api.listParticipations(course.id)),
          ),
        ),
      };
    };
    const [unpaged, paging] = await Promise.all([read(whole, 'whole'), read(paged, 'paged')]);
    expect(paging).toEqual(unpaged);
    expect(unpaged.personal.data.length).toBeGreaterThan(7);
    expect(pagesSeen['whole personal']).toBe(1);
    expect(pagesSeen['paged personal']).toBe(Math.ceil(unpaged.personal.data.length / 7));
    expect(pagesSeen['paged hours']).toBeGreaterThan(1);
  });
});

function withoutLinks(resource: Resource) {
  return {
    type: resource.type,
    id: resource.id,
    attributes: resource.attributes,
    relationships: resource.relationships,
  };
}

describe('faults', () => {
  it('a malformed (cut) body is malformed, never data', async () => {
    const sandbox = await sandboxWith({ faults: 'malformed=1' });
    const error = await apiError(clientFor(sandbox).getOwnUser());
    expect(error).toMatchObject({ kind: 'malformed', status: 200 });
  });

  it('a 500 is retried, then reported as server', async () => {
    const sandbox = await sandboxWith({ faults: 'error=1' });
    const events: RequestEvent[] = [];
    const api = clientFor(sandbox, 'office', {
      maxRetries: 2,
      onRequest: (event) => events.push(event),
    });
    const error = await apiError(api.getOrganisation());
    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect(error.errors.length).toBeGreaterThan(0);
    expect(events.map((event) => event.status)).toEqual([500, 500, 500]);
  });

  it('a 429 waits for Retry-After before each retry', async () => {
    const sandbox = await sandboxWith({ faults: 'throttle=1' });
    const started = Date.now();
    const error = await apiError(clientFor(sandbox, 'office', { maxRetries: 1 }).getOrganisation());
    expect(error).toMatchObject({ kind: 'throttled', status: 429, retryAfterSeconds: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('a lost answer is a network error; a GET is retried, a POST is not', async () => {
    const sandbox = await sandboxWith({ faults: 'lost=1' });
    const events: RequestEvent[] = [];
    const api = clientFor(sandbox, 'office', {
      maxRetries: 1,
      onRequest: (event) => events.push(event),
    });
    expect((await apiError(api.getOrganisation())).kind).toBe('network');
    expect(events).toHaveLength(2);
    const post = api.send('POST', '/kalender', {
      body: { data: { type: 'kalender', attributes: { name: 'Einmal' } } },
    });
    expect((await apiError(post)).kind).toBe('network');
    expect(events).toHaveLength(3);
  });

  it('a slow answer times out; the caller can cancel', async () => {
    const sandbox = await sandboxWith({ faults: 'slow=1', slowMs: 2000 });
    const api = clientFor(sandbox, 'office', { timeoutMs: 150, maxRetries: 0 });
    expect((await apiError(api.getOrganisation())).kind).toBe('timeout');
    const started = Date.now();
    const cancelled = clientFor(sandbox).getOrganisation({ signal: AbortSignal.timeout(100) });
    expect((await apiError(cancelled)).kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('rate limit', () => {
  it('429s of the service are waited out; the client-side rate avoids them', async () => {
    const sandbox = await sandboxWith({ rateLimit: '4/s' });
    const burst: RequestEvent[] = [];
    const eager = clientFor(sandbox, 'office', { onRequest: (event) => burst.push(event) });
    await Promise.all(Array.from({ length: 8 }, () => eager.getOrganisation()));
    expect(burst.filter((event) => event.status === 429).length).toBeGreaterThan(0);
    expect(burst.filter((event) => event.status === 200)).toHaveLength(8);

    const paced: RequestEvent[] = [];
    // Half the service's rate, so late arrivals cannot bunch up into its window.
    const polite = clientFor(sandbox, 'member', {
      pace: 120,
      onRequest: (event) => paced.push(event),
    });
    await Promise.all(Array.from({ length: 5 }, () => polite.getOrganisation()));
    expect(paced.map((event) => event.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe('tokens', () => {
  it('an expired token is refreshed once and the request succeeds', async () => {
    const sandbox = await sandboxWith({ tokenTtlSeconds: 1 });
    const office = accountOf(sandbox, 'office');
    let current = office.accessToken;
    let refreshes = 0;
    const tokens: TokenSource = {
      getAccessToken: async () => current,
      refreshAccessToken: async () => {
        refreshes += 1;
        current = sandbox.auth.issueAccessToken(office.id);
        return current;
      },
    };
    const api = createApiClient({ baseUrl: sandbox.baseUrl, tokens });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await api.getOwnUser()).data.id).toBe(office.id);
    expect(refreshes).toBe(1);
  });

  it('a wrong token without refresh is auth, with the service text', async () => {
    const sandbox = await sandboxWith();
    const api = createApiClient({ baseUrl: sandbox.baseUrl, tokens: staticToken('not-a-token') });
    const error = await apiError(api.getOwnUser());
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect(error.errors[0]?.code).toBe('token_invalid');
  });
});

describe('an organisation without the course module', () => {
  it('answers 423 for the module, which the client reports as unlicensed', async () => {
    const sandbox = await sandboxWith({ withoutCourses: true });
    const api = clientFor(sandbox);
    for (const locked of [
      collectPages(api.listCourses()),
      collectPages(api.listUvts()),
      collectPages(api.listClients()),
    ]) {
      const error = await apiError(locked);
      expect(error).toMatchObject({ kind: 'unlicensed', status: 423 });
    }
    expect((await api.getOwnUser()).data.type).toBe('user');
  });
});

describe('writes through send', () => {
  it('creates, reads and deletes a calendar', async () => {
    const sandbox = await sandboxWith();
    const api = clientFor(sandbox);
    const created = await api.send('POST', '/kalender', {
      body: {
        data: { type: 'kalender', attributes: { name: 'Sanitätsdienste', farbe: '#aa0000' } },
      },
    });
    expect(created?.status).toBe(201);
    const calendar = created?.data;
    if (!calendar || Array.isArray(calendar)) throw new Error('Expected one calendar');
    expect(calendar).toMatchObject({ type: 'kalender', attributes: { name: 'Sanitätsdienste' } });
    expect((await api.getKalender(calendar.id)).data.attributes.farbe).toBe('#aa0000');

    expect(await api.send('DELETE', `/kalender/${calendar.id}`)).toBeNull();
    expect((await apiError(api.getKalender(calendar.id))).kind).toBe('not_found');

    const invalid = await apiError(
      api.send('POST', '/kalender', { body: { data: { type: 'kalender', attributes: {} } } }),
    );
    expect(invalid.kind).toBe('invalid');
    expect(invalid.errors[0]?.detail).toBeTruthy();
  });
});
