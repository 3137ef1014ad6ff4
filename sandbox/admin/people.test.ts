// The web-interface changes of the admin interface for people: an edit, checks and honours
// (which do not touch the person), and merging two records of one person. Real HTTP against
// startSandbox, the change times checked through the interface's filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredResource } from '../data/store';
import { ApiClient, many, one } from '../http/test-client';
import { startSandbox, type RunningSandbox } from '../server';
import { AdminClient } from './test-admin-client';

let sandbox: RunningSandbox;
let admin: AdminClient;
let office: ApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 6, admin: true });
  admin = AdminClient.of(sandbox);
  office = ApiClient.as(sandbox, 'office');
});
afterAll(() => sandbox.close());

/** The service's now after a second passed: every change after this is "since" it. */
async function mark(): Promise<string> {
  await admin.post('/clock', { advanceMs: 1000 });
  const { now } = (await admin.get('/clock')).body as { now: string };
  await admin.post('/clock', { advanceMs: 1000 });
  return now;
}

const q = encodeURIComponent;

async function peopleChangedSince(since: string): Promise<string[]> {
  return many(await office.get(`/personal?filter[updated_since]=${q(since)}`)).map((u) => u.id);
}

function pointingAt(userId: string, type: 'helferstunden' | 'ausbildung' | 'ueberpruefung') {
  return sandbox.store.related(type, 'user', userId);
}

/** A person without a login, with hours, trainings and checks. */
function aPerson(except: string[] = []): StoredResource {
  const person = sandbox.store
    .all('user')
    .find(
      (user) =>
        !except.includes(user.id) &&
        !sandbox.store.get('account', user.id) &&
        pointingAt(user.id, 'helferstunden').length > 0 &&
        pointingAt(user.id, 'ausbildung').length > 0 &&
        pointingAt(user.id, 'ueberpruefung').length > 0,
    );
  if (!person) throw new Error('no such person in the demo data');
  return person;
}

describe('people', () => {
  it('edits a person in the web form: the person changes', async () => {
    const person = aPerson();
    const since = await mark();
    const answer = await admin.patch(`/personal/${person.id}`, {
      attributes: { nachname: 'Neumann', bemerkung: 'aus dem Web' },
    });
    expect(answer.body).toEqual({ changed: [{ type: 'user', id: person.id, op: 'put' }] });
    expect(await peopleChangedSince(since)).toEqual([person.id]);
    const self = many(await office.get(`/personal?filter[updated_since]=${q(since)}`))[0]!;
    expect(self.attributes).toMatchObject({
      nachname: 'Neumann',
      name: `Neumann, ${person.attributes.vorname}`,
      bemerkung: 'aus dem Web',
    });
    expect((await admin.patch(`/personal/${person.id}`, { attributes: { x: 1 } })).status).toBe(
      400,
    );
    expect((await admin.patch(`/personal/${person.id}`, { nachname: 'x' })).status).toBe(400);
    expect((await admin.patch('/personal/nobody', { attributes: {} })).status).toBe(404);
  });

  it('records, edits and removes checks: each its own change, the person untouched', async () => {
    const person = aPerson();
    const checks = `/personal/${person.id}/ueberpruefungen`;
    const since = await mark();
    const created = await admin.post(checks, {
      attributes: { bezeichnung: 'G26.3 Atemschutz', naechste_pruefung: '2027-05-01' },
    });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    expect(created.body.changed).toEqual([{ type: 'ueberpruefung', id, op: 'put' }]);
    const fresh = many(await office.get(`${checks}?filter[updated_since]=${q(since)}`));
    expect(fresh.map((check) => check.id)).toEqual([id]);
    expect(fresh[0]!.attributes).toMatchObject({
      bezeichnung: 'G26.3 Atemschutz',
      pruefergebnis: { bestanden: true, einschraenkungen: '' },
      letzte_pruefung: '',
      naechste_pruefung: '2027-05-01',
    });
    expect(await peopleChangedSince(since)).toEqual([]);

    const since2 = await mark();
    const edited = await admin.patch(`/ueberpruefungen/${id}`, {
      attributes: { pruefergebnis: { bestanden: false, einschraenkungen: 'Brille' } },
    });
    expect(edited.body.changed).toEqual([{ type: 'ueberpruefung', id, op: 'put' }]);
    const changed = many(await office.get(`${checks}?filter[updated_since]=${q(since2)}`));
    expect(changed.map((check) => check.id)).toEqual([id]);
    expect(Date.parse(changed[0]!.attributes.updated_at)).toBeGreaterThan(Date.parse(since2));

    expect((await admin.delete(`/ueberpruefungen/${id}`)).body.changed).toEqual([
      { type: 'ueberpruefung', id, op: 'remove' },
    ]);
    expect(many(await office.get(checks)).map((check) => check.id)).not.toContain(id);
    expect(await peopleChangedSince(since)).toEqual([]);
    expect((await admin.post(checks, { attributes: {} })).status).toBe(400);
    expect((await admin.patch(`/ueberpruefungen/${id}`, { attributes: {} })).status).toBe(404);
  });

  it('records, edits and removes honours', async () => {
    const person = aPerson();
    const honours = `/personal/${person.id}/ehrungen`;
    const since = await mark();
    const created = await admin.post(honours, {
      attributes: { bezeichnung: 'Ehrennadel in Gold', jahre: 25, stufe: 'gold' },
    });
    const { id } = created.body as { id: string };
    const listed = () => office.get(honours).then((answer) => many(answer));
    expect((await listed()).find((h) => h.id === id)!.attributes).toMatchObject({
      bezeichnung: 'Ehrennadel in Gold',
      jahre: 25,
      stufe: 'gold',
      datum: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    await admin.patch(`/ehrungen/${id}`, { attributes: { datum: '2026-04-01' } });
    expect((await listed()).find((h) => h.id === id)!.attributes.datum).toBe('2026-04-01');
    expect((await admin.patch(`/ehrungen/${id}`, { attributes: { stufe: 'platin' } })).status).toBe(
      400,
    );
    await admin.delete(`/ehrungen/${id}`);
    expect((await listed()).map((h) => h.id)).not.toContain(id);
    expect(await peopleChangedSince(since)).toEqual([]);
  });

  it('merges a person into another: everything pointing at them moves and changes', async () => {
    // The second trainer: a login, courses to train, calendars, notifications, hours.
    const trainer = sandbox.users.filter((user) => user.role === 'trainer')[1]!;
    const from = sandbox.store.get('user', trainer.id)!;
    const into = aPerson([from.id]);
    const { store } = sandbox;
    const hours = store.related('helferstunden', 'user', from.id);
    const trainings = store.related('ausbildung', 'user', from.id);
    const courses = store.related('course', 'trainers', from.id);
    const calendars = store.related('kalender', 'user', from.id);
    const notifications = store.all('benachrichtigung').filter((n) => n.id.endsWith(from.id));
    expect(hours.length * courses.length * calendars.length * notifications.length).toBeGreaterThan(
      0,
    );
    const hoursOfInto = store.related('helferstunden', 'user', into.id).length;

    expect((await admin.post(`/personal/${from.id}/merge`, { into: from.id })).status).toBe(400);
    expect((await admin.post(`/personal/${from.id}/merge`, { into: 'f'.repeat(32) })).status).toBe(
      404,
    );
    expect((await admin.post(`/personal/${'f'.repeat(32)}/merge`, { into: into.id })).status).toBe(
      404,
    );

    const since = await mark();
    const merged = await admin.post(`/personal/${from.id}/merge`, { into: into.id });
    expect(merged.status).toBe(200);
    const changed = (merged.body.changed as { type: string; id: string; op: string }[]).map(
      (c) => `${c.op} ${c.type} ${c.id}`,
    );
    expect(changed).toEqual(
      expect.arrayContaining([
        `remove user ${from.id}`,
        `remove account ${from.id}`,
        `put user ${into.id}`,
        ...hours.map((h) => `put helferstunden ${h.id}`),
        ...courses.map((c) => `put course ${c.id}`),
        ...calendars.map((k) => `put kalender ${k.id}`),
      ]),
    );

    // The person is gone, with their login; `into` changed.
    expect(await peopleChangedSince(since)).toEqual([into.id]);
    expect(store.get('user', from.id)).toBeUndefined();
    expect(
      (await new ApiClient(sandbox.baseUrl, trainer.accessToken).get('/personal/selbst')).status,
    ).toBe(401);
    // Hours moved and changed.
    const movedHours = many(
      await office.get(
        `/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&filter[changed_since]=${q(since)}`,
      ),
    );
    expect(movedHours.map((h) => h.id).sort()).toEqual(hours.map((h) => h.id).sort());
    expect(store.related('helferstunden', 'user', into.id)).toHaveLength(
      hoursOfInto + hours.length,
    );
    // Trainings moved, into `into`'s embedded list too, and changed.
    const intoTrainings = many(
      await office.get(`/personal/${into.id}/ausbildungen?filter[updated_since]=${q(since)}`),
    );
    expect(intoTrainings.map((t) => t.id).sort()).toEqual(trainings.map((t) => t.id).sort());
    const intoServed = many(await office.get(`/personal?filter[updated_since]=${q(since)}`)).find(
      (user) => user.id === into.id,
    )!;
    const embedded = (intoServed.attributes.ausbildungen as { id: string }[]).map((t) => t.id);
    expect(embedded).toEqual(expect.arrayContaining(trainings.map((t) => t.id)));
    // Courses now have `into` as trainer, once, and changed.
    for (const course of courses) {
      const served = one(await office.get(`/courses/${course.id}`));
      const trainerIds = (served.relationships!.trainers!.data as { id: string }[]).map(
        (r) => r.id,
      );
      expect(trainerIds).toContain(into.id);
      expect(trainerIds).not.toContain(from.id);
      expect(new Set(trainerIds).size).toBe(trainerIds.length);
      expect(served.attributes.updated_at > String(course.attributes.updated_at)).toBe(true);
    }
    // Calendars and notifications belong to `into` now.
    for (const calendar of calendars)
      expect(store.get('kalender', calendar.id)!.relationships.user).toEqual({
        type: 'user',
        id: into.id,
      });
    expect(store.all('benachrichtigung').filter((n) => n.id.endsWith(from.id))).toEqual([]);
    expect(
      store.all('benachrichtigung').filter((n) => n.id.endsWith(into.id)).length,
    ).toBeGreaterThanOrEqual(notifications.length);
  });
});
