// The contract's queries, answered from a replica synced from the sandbox, checked against what
// the service itself says (plain fetch), never against the replica's own tables.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { courseWindow } from '../../sync/pull/collections/courses';
import { runSync } from '../../sync/pull/engine';
import { DEFAULT_SYNC_OPTIONS, EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';
import { CallFailed, createDispatcher, typedCaller, type TypedCaller } from '../../sync/dispatch';
import { list, meaning, type OracleTarget } from '../support/service-oracle';
import { getPlainJson } from '../support/service-read';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let replica: Replica;
let queries: TypedCaller;
let api: ReturnType<typeof createApiClient>;
let target: OracleTarget;
let dir: string;
const window = courseWindow(DEFAULT_SYNC_OPTIONS);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 17 });
  const office = sandbox.users.find((u) => u.role === 'office')!;
  target = { baseUrl: sandbox.baseUrl, token: office.accessToken };
  dir = mkdtempSync(join(tmpdir(), 'vorort-queries-'));
  replica = openReplica(join(dir, 'replica.sqlite'));
  api = createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens: staticToken(office.accessToken),
  });
  const summary = await runSync({
    api,
    replica,
    options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
  });
  expect(summary.ok).toBe(true);
  queries = typedCaller(createDispatcher(replica));
});
afterAll(async () => {
  await replica.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('personnel', () => {
  it('lists people by name prefix (first or last name) and status, sorted by last name', async () => {
    const people = await list(target, '/personal');
    const someone = people.find((p) => p.attributes.status === 'aktiv')!;
    const prefix = String(someone.attributes.nachname).slice(0, 2);
    const expected = people.filter(
      (p) =>
        p.attributes.status === 'aktiv' &&
        [p.attributes.nachname, p.attributes.vorname].some((name) =>
          String(name).toLocaleLowerCase('de').startsWith(prefix.toLocaleLowerCase('de')),
        ),
    );
    const result = await queries.query('personnel.list', { search: prefix, status: ['aktiv'] });
    expect(result.total).toBe(expected.length);
    expect(result.items.map((i) => i.id).sort()).toEqual(expected.map((p) => p.id).sort());
    const lastNames = result.items.map((i) => i.nachname.toLocaleLowerCase('de'));
    expect(lastNames).toEqual([...lastNames].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('pages and counts the whole list, and filters by qualification', async () => {
    const all = await queries.query('personnel.list', { limit: 1000 });
    expect(all.total).toBe((await list(target, '/personal')).length);
    const page = await queries.query('personnel.list', { limit: 10, offset: 10 });
    expect(page.items.map((i) => i.id)).toEqual(all.items.slice(10, 20).map((i) => i.id));
    const qualified = all.items.find((i) => i.qualifikationen.length > 0)!;
    const byQualification = await queries.query('personnel.list', {
      qualification: qualified.qualifikationen[0]!,
      limit: 1000,
    });
    expect(byQualification.items.map((i) => i.id)).toContain(qualified.id);
    expect(
      byQualification.items.every((i) => i.qualifikationen.includes(qualified.qualifikationen[0]!)),
    ).toBe(true);
  });

  it('details a person with trainings, checks and honours as the service has them', async () => {
    const person = (await list(target, '/personal')).find(
      (p) => ((p.attributes.ausbildungen as unknown[]) ?? []).length > 0,
    )!;
    const detail = await queries.query('personnel.get', { id: person.id });
    expect(meaning(detail?.attributes)).toEqual(meaning(person.attributes));
    expect(detail?.ausbildungen.map((a) => a.id).sort()).toEqual(
      (person.attributes.ausbildungen as { id: string }[]).map((a) => String(a.id)).sort(),
    );
    expect(detail?.ueberpruefungen.length).toBe(
      (await list(target, `/personal/${person.id}/ueberpruefungen`)).length,
    );
    expect(detail?.ehrungen.length).toBe(
      (await list(target, `/personal/${person.id}/ehrungen`)).length,
    );
    expect(await queries.query('personnel.get', { id: 'nobody' })).toBeNull();
  });

  it('counts people by status', async () => {
    const people = await list(target, '/personal');
    const counts = await queries.query('personnel.countByStatus', {});
    expect(counts.aktiv).toBe(people.filter((p) => p.attributes.status === 'aktiv').length);
  });
});

describe('courses', () => {
  it('lists a trainer’s courses with participant counts that match the service', async () => {
    const trainer = sandbox.users.find((u) => u.role === 'trainer')!;
    const expected = (
      await list(
        target,
        `/courses?filter[from]=${window.from}&filter[until]=${window.until}&filter[trainer_user_id]=${trainer.id}`,
      )
    ).map((c) => c.id);
    const result = await queries.query('courses.list', { trainerId: trainer.id, limit: 500 });
    expect(result.items.map((c) => c.id).sort()).toEqual(expected.sort());
    for (const course of result.items) {
      const participations = await list(target, `/courses/${course.id}/participations`);
      expect(course.participants, course.id).toBe(
        participations.filter((p) => p.attributes.status !== 'cancelled').length,
      );
    }
    const dates = result.items.map((c) => c.firstDate ?? '');
    expect(dates).toEqual([...dates].sort());
  });

  it('details a course with dates, trainers, custom fields and participants', async () => {
    const [course] = await list(
      target,
      `/courses?filter[from]=${window.from}&filter[until]=${window.until}`,
    );
    const detail = await queries.query('courses.get', { id: course!.id });
    expect(meaning(detail?.attributes)).toEqual(meaning(course!.attributes));
    expect(detail?.dates.length).toBe(
      (course!.relationships as { dates: { data: unknown[] } }).dates.data.length,
    );
    expect(detail?.customfields.length).toBe(
      (await list(target, `/courses/${course!.id}/customfields`)).length,
    );
    const participants = await queries.query('participations.list', { courseId: course!.id });
    expect(participants.map((p) => p.id).sort()).toEqual(
      (await list(target, `/courses/${course!.id}/participations`)).map((p) => p.id).sort(),
    );
  });
});

describe('hours and the rest', () => {
  it('lists and sums hours per person and type', async () => {
    const hours = await list(
      target,
      `/helferstunden?filter[eigene]=false&filter[von]=${DEFAULT_SYNC_OPTIONS.hoursHistoryStart}`,
    );
    const user = (hours[0]!.relationships as { user: { data: { id: string } } }).user.data.id;
    const own = hours.filter(
      (h) => (h.relationships as { user: { data: { id: string } } }).user.data.id === user,
    );
    const listed = await queries.query('hours.list', { userId: user, limit: 1000 });
    expect(listed.total).toBe(own.length);
    const sum = own.reduce((total, h) => total + Number(h.attributes.stunden), 0);
    expect(listed.totalStunden).toBeCloseTo(sum, 6);
    const summary = await queries.query('hours.summary', { userId: user });
    expect(summary.totalStunden).toBeCloseTo(sum, 6);
    expect(summary.entries).toBe(own.length);
  });

  it('answers the small screens from the replica', async () => {
    expect((await queries.query('calendars.list', {})).length).toBe(
      (await list(target, '/kalender')).length,
    );
    const notifications = await list(target, '/benachrichtigungen');
    expect((await queries.query('notifications.list', {})).length).toBe(notifications.length);
    // The count beside the navigation: the unread ones, and the service's own count (meta.size).
    const size = ((await getPlainJson(target, '/benachrichtigungen')) as { meta: { size: number } })
      .meta.size;
    expect(await queries.query('notifications.count', {})).toEqual({
      unread: notifications.filter((n) => n.attributes.gelesen !== true).length,
      shown: notifications.length,
      service: size,
    });
    const reference = await queries.query('reference.get', {});
    expect(reference.organisation?.name).toBeTruthy();
    expect(reference.taxRates.length).toBe((await list(target, '/steuersaetze')).length);
    const clients = await queries.query('clients.list', {});
    expect(clients.length).toBe((await list(target, '/clients')).length);
    const client = clients.find((c) => c.participants > 0)!;
    expect((await queries.query('clients.participants', { clientId: client.id })).length).toBe(
      client.participants,
    );
    const detail = (await queries.query('clients.get', { id: client.id }))!;
    expect(detail).toMatchObject({
      id: client.id,
      name: client.name,
      participants: client.participants,
    });
    expect(await queries.query('clients.get', { id: '999999999' })).toBeNull();
    const status = await queries.query('sync.status', {});
    expect(status.counts.user).toBe((await list(target, '/personal')).length);
    expect(status.lastSync?.ok).toBe(true);
  });

  it("gives a client's courses as the service lists them, as far as the replica holds them", async () => {
    // A course of the replica's window made this client's on the service, as its web pages would.
    const [client] = await queries.query('clients.list', {});
    const [course] = (await queries.query('courses.list', { limit: 1 })).items;
    const stored = sandbox.store.get('course', course!.id)!;
    sandbox.store.put({
      ...stored,
      relationships: { ...stored.relationships, client: { type: 'client', id: client!.id } },
    });
    expect(
      (await runSync({ api, replica, options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC } }))
        .ok,
    ).toBe(true);
    const held = new Set(
      (await queries.query('courses.list', { limit: 1000 })).items.map((c) => c.id),
    );
    for (const { id } of await queries.query('clients.list', {})) {
      const served = (await list(target, `/clients/${id}/courses`)).map((c) => c.id);
      const shown = (await queries.query('clients.get', { id }))!.courses.map((c) => c.id);
      expect(shown.sort()).toEqual(served.filter((course) => held.has(course)).sort());
    }
    const detail = (await queries.query('clients.get', { id: client!.id }))!;
    expect(detail.courses.map((c) => c.id)).toContain(course!.id);
  });

  it('searches people, courses and participants with one text', async () => {
    const person = (await list(target, '/personal'))[0]!;
    const found = await queries.query('search', { text: String(person.attributes.nachname) });
    expect(found.people.map((p) => p.id)).toContain(person.id);
  });
});

describe('arguments', () => {
  it('refuses invalid arguments with a readable error before touching the replica', async () => {
    await expect(queries.query('personnel.list', { status: ['boss'] } as never)).rejects.toThrow(
      CallFailed,
    );
    await expect(queries.query('courses.list', { from: '1.1.2026' })).rejects.toThrow(
      /expected a date YYYY-MM-DD/,
    );
    await expect(queries.query('nonsense' as never, {} as never)).rejects.toThrow(/Unknown call/);
  });
});
