// The queries of the office's courses and clients (issue 23): courses.list by trainer, course
// type and client, courses.trainers, clients.get with each course's type, dates and address, and
// a course created here (not sent) that shows its place and takes a participation and a custom
// field at once. Answered from a replica synced from the sandbox, checked against what the
// service itself says (plain fetch), never against the replica's own tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import {
  createDispatcher,
  typedCaller,
  type Dispatcher,
  type TypedCaller,
} from '../../sync/dispatch';
import { courseFoundBy } from '../../sync/contract';
import { courseWindow } from '../../sync/pull/collections/courses';
import { runSync } from '../../sync/pull/engine';
import { DEFAULT_SYNC_OPTIONS, EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';
import { list, type OracleTarget } from '../support/service-oracle';
import { getJson, type Resource } from '../support/service-read';
import { temporaryFiles } from '../support/temp-files';

const file = temporaryFiles('office-course-queries');
const window = courseWindow(DEFAULT_SYNC_OPTIONS);

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let replica: Replica;
let dispatcher: Dispatcher;
let queries: TypedCaller;
let target: OracleTarget;
/** The courses of the sync's window as the service lists them. */
let served: Resource[];

const relatedId = (resource: Resource, name: string): string | null =>
  (resource.relationships?.[name] as { data?: { id: string } | null } | undefined)?.data?.id ??
  null;
const relatedIds = (resource: Resource, name: string): string[] =>
  ((resource.relationships?.[name] as { data?: { id: string }[] } | undefined)?.data ?? []).map(
    (ref) => ref.id,
  );
const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

async function admin(path: string, body: unknown, method = 'POST'): Promise<void> {
  const response = await fetch(`${sandbox.admin!.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.admin!.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  expect(response.ok, await response.clone().text()).toBe(true);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 23, admin: true });
  const office = sandbox.users.find((u) => u.role === 'office')!;
  target = { baseUrl: sandbox.baseUrl, token: office.accessToken };
  const windowed = `/courses?filter[from]=${window.from}&filter[until]=${window.until}`;
  // Small data may have no course with a client in the window: two get one, as the web interface would.
  const [client] = await list(target, '/clients');
  for (const course of (await list(target, windowed)).slice(0, 2))
    await admin(
      `/records/course/${course.id}`,
      { relationships: { client: { type: 'client', id: client!.id } } },
      'PATCH',
    );
  served = await list(target, windowed);
  replica = openReplica(file('replica.sqlite'));
  const summary = await runSync({
    api: createApiClient({ baseUrl: sandbox.baseUrl, tokens: staticToken(office.accessToken) }),
    replica,
    options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
  });
  expect(summary.ok).toBe(true);
  dispatcher = createDispatcher(replica);
  queries = typedCaller(dispatcher);
}, 60_000);

afterAll(async () => {
  await replica?.close();
  await sandbox?.close();
});

describe('courses.list for the office', () => {
  it('keeps the courses of a course type, a client, a trainer, and all three together', async () => {
    const all = await queries.query('courses.list', { limit: 1000 });
    expect(ids(all.items)).toEqual(ids(served));
    const type = relatedId(served[0]!, 'course_type')!;
    const byType = await queries.query('courses.list', { courseTypeId: type, limit: 1000 });
    expect(ids(byType.items)).toEqual(
      ids(served.filter((c) => relatedId(c, 'course_type') === type)),
    );
    expect(byType.total).toBe(byType.items.length);
    const client = served.map((c) => relatedId(c, 'client')).find(Boolean)!;
    const byClient = await queries.query('courses.list', { clientId: client, limit: 1000 });
    expect(byClient.items.length).toBeGreaterThan(0);
    expect(ids(byClient.items)).toEqual(
      ids(served.filter((c) => relatedId(c, 'client') === client)),
    );
    const trainer = served.map((c) => relatedIds(c, 'trainers')[0]).find(Boolean)!;
    const byTrainer = await queries.query('courses.list', { trainerId: trainer, limit: 1000 });
    expect(ids(byTrainer.items)).toEqual(
      ids(served.filter((c) => relatedIds(c, 'trainers').includes(trainer))),
    );
    const withClient = served.find((c) => relatedId(c, 'client') === client)!;
    const together = await queries.query('courses.list', {
      clientId: client,
      courseTypeId: relatedId(withClient, 'course_type')!,
      trainerId: relatedIds(withClient, 'trainers')[0] ?? 'nobody',
      limit: 1000,
    });
    expect(together.items.map((c) => c.id)).toContain(withClient.id);
    expect(
      await queries.query('courses.list', { clientId: 'no-such-client', limit: 10 }),
    ).toMatchObject({ total: 0, items: [] });
  });

  it("finds by a search exactly the courses the page's courseFoundBy keeps (a search typed further is narrowed in the page)", async () => {
    const all = (await queries.query('courses.list', { limit: 1000 })).items;
    const title = all.find((c) => c.title && c.title.length > 4)!.title!;
    const number = all.find((c) => c.courseNumber && c.courseNumber.length > 4)!.courseNumber!;
    const searches = [
      'k',
      'K',
      'ü',
      'ERSTE',
      ' hilfe ',
      title.slice(1, 5).toUpperCase(),
      number.slice(2, 6),
      number.slice(-3).toLowerCase(),
      'nothing like it',
    ];
    let found = 0;
    for (const search of searches) {
      const answered = await queries.query('courses.list', { search: search.trim(), limit: 1000 });
      expect(ids(all.filter(courseFoundBy(search))), search).toEqual(ids(answered.items));
      found += answered.total;
    }
    // The searches find something: the comparison is not of empty lists.
    expect(found).toBeGreaterThan(all.length / 2);
  });

  it('reads the courses by the date index, whatever the filter', () => {
    const plan = replica.sqlite
      .prepare(
        `EXPLAIN QUERY PLAN SELECT c.id FROM courses c WHERE c.first_date < ? AND c.last_date >= ?
           AND c.course_type_id = ? AND c.client_id = ?`,
      )
      .all('2027-01-01T99', '2026-01-01', '1', '1') as { detail: string }[];
    expect(plan.map((step) => step.detail).join('; ')).toMatch(/USING INDEX courses_first_date/);
  });
});

describe('courses.trainers', () => {
  it('names everyone who trains a course of the replica once, with their courses', async () => {
    const people = new Map(
      (await list(target, '/personal')).map((p) => [
        p.id,
        `${String(p.attributes.nachname)}, ${String(p.attributes.vorname)}`,
      ]),
    );
    const counts = new Map<string, number>();
    for (const course of served)
      for (const trainer of relatedIds(course, 'trainers'))
        counts.set(trainer, (counts.get(trainer) ?? 0) + 1);
    const trainers = await queries.query('courses.trainers', {});
    expect(ids(trainers)).toEqual([...counts.keys()].sort());
    for (const trainer of trainers) {
      expect(trainer.courses, trainer.id).toBe(counts.get(trainer.id));
      expect(trainer.name, trainer.id).toBe(people.get(trainer.id) ?? null);
    }
    const named = trainers.filter((t) => t.name !== null).map((t) => t.name!);
    expect(named).toEqual(
      [...named].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    );
  });
});

describe('clients.get', () => {
  it('gives the client’s data and its courses with type, dates and address as the service lists them', async () => {
    const clientId = served.map((c) => relatedId(c, 'client')).find(Boolean)!;
    const client = (await getJson(target, `/clients/${clientId}`)).data as Resource;
    const { data, included = [] } = await getJson(
      target,
      `/clients/${clientId}/courses?include=course_type,course_date,address`,
    );
    const answer = (await queries.query('clients.get', { id: clientId }))!;
    expect(answer.name).toBe(client.attributes.name);
    expect(answer.attributes).toMatchObject(client.attributes);
    const known = new Set(served.map((c) => c.id));
    const courses = (data as Resource[]).filter((c) => known.has(c.id));
    expect(courses.length).toBeGreaterThan(0);
    for (const course of courses) {
      const item = answer.courses.find((c) => c.id === course.id)!;
      expect(item, course.id).toBeDefined();
      const type = included.find(
        (r) => r.type === 'course_type' && r.id === relatedId(course, 'course_type'),
      );
      expect(item.courseType).toBe(type?.attributes.name ?? null);
      expect(item.dates).toBe(relatedIds(course, 'dates').length);
      const address = included.find(
        (r) => r.type === 'address' && r.id === relatedId(course, 'location'),
      );
      if (address?.attributes.city) expect(item.address).toContain(String(address.attributes.city));
      if (!address) expect(item.address).toBeNull();
    }
  });
});

describe('a course created here, not yet sent', () => {
  it('shows its dates and new location at once, is found by its type, and takes a participation and a custom field', async () => {
    const type = relatedId(served[0]!, 'course_type')!;
    const clientId = served.map((c) => relatedId(c, 'client')).find(Boolean)!;
    const created = await dispatcher.call('course.create', {
      attributes: { title: 'Zyx Büro-Kurs', max_participants: 12 },
      relationships: {
        course_type: { data: { type: 'course_type', id: type } },
        dates: { data: [{ type: 'course_date', id: 'new-1' }] },
        location: { data: { type: 'address', id: 'new-2' } },
        client: { data: { type: 'client', id: clientId } },
      },
      included: [
        {
          type: 'course_date',
          id: 'new-1',
          attributes: { from: '2027-03-06T09:00:00+01:00', to: '2027-03-06T16:30:00+01:00' },
        },
        {
          type: 'address',
          id: 'new-2',
          attributes: { description: 'Gemeindehaus', street: 'Kirchweg 1', city: 'Zyxstadt' },
        },
      ],
    });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const courseId = (created as { value: { id: string } }).value.id;
    const course = (await queries.query('courses.get', { id: courseId }))!;
    expect(course).toMatchObject({
      title: 'Zyx Büro-Kurs',
      localState: 'created',
      maxParticipants: 12,
    });
    expect(course.dates.map((d) => d.from)).toEqual(['2027-03-06T09:00:00+01:00']);
    expect(course.location).toMatchObject({ description: 'Gemeindehaus', city: 'Zyxstadt' });
    const byType = await queries.query('courses.list', { courseTypeId: type, limit: 1000 });
    expect(byType.items.map((c) => c.id)).toContain(courseId);
    const client = (await queries.query('clients.get', { id: clientId }))!;
    expect(client.courses.find((c) => c.id === courseId)).toMatchObject({
      title: 'Zyx Büro-Kurs',
      localState: 'created',
      dates: 1,
      city: 'Zyxstadt',
      address: 'Gemeindehaus, Kirchweg 1, Zyxstadt',
    });

    const participation = await dispatcher.call('participation.create', {
      courseId,
      attributes: { first_name: 'Zora', last_name: 'Zyxneu' },
    });
    expect(participation.ok, JSON.stringify(participation)).toBe(true);
    const field = await dispatcher.call('customfield.create', {
      courseId,
      attributes: { name: 'Raum', field_type: 'text', value: '1.12' },
    });
    expect(field.ok, JSON.stringify(field)).toBe(true);
    const participants = await queries.query('participations.list', { courseId });
    expect(participants.map((p) => p.lastName)).toEqual(['Zyxneu']);
    expect((await queries.query('courses.get', { id: courseId }))!.customfields).toMatchObject([
      { name: 'Raum', localState: 'created' },
    ]);
  });
});
