// Every write operation of the contract done offline: visible at once in the replica's queries
// and marked as local, a push with no service reachable changes nothing, then the push against
// the sandbox leaves the service holding exactly the intended state and the outbox empty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryFiles } from '../../support/temp-files';
import {
  call,
  expectNoTemporaryIds,
  outbox,
  push,
  row,
  serviceWrite,
  startWorld,
  syncFrom,
  write,
  type World,
} from './world';

const tempFile = temporaryFiles('outbox-writes');

type Paged<T> = { items: T[] };
type Local = { id: string; localState: string | null } & Record<string, unknown>;

let world: World;
const store = () => world.sandbox.store;
const attrs = (type: Parameters<World['sandbox']['store']['get']>[0], id: string) =>
  store().get(type, id)?.attributes;

/**
 * Pushes first with no service reachable (nothing may get lost or done, and the push stops at
 * its first failure instead of waiting for the retries due within its minute), then for real.
 */
async function pushOfflineThenOnline() {
  const before = await outbox(world);
  const offline = await push(world, world.offline, 60_000);
  expect(offline).toMatchObject({ done: 0, parked: 0, unreachable: true });
  const after = await outbox(world);
  expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
  for (const entry of after) expect(entry.attempts).toBeLessThanOrEqual(1);
  world.sandbox.clearRequests();
  // The service is back: the retries fall due after their backoff (well under a second here).
  const online = await push(world, world.api, 15_000);
  expect(online, JSON.stringify(await outbox(world))).toMatchObject({
    parked: 0,
    unknown: 0,
    retrying: 0,
    waiting: 0,
  });
  expect(await outbox(world)).toEqual([]);
  expectNoTemporaryIds(world);
  return online;
}

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
});
afterAll(() => world.close());

describe('people', () => {
  it('user.create, user.update, user.upsert (creating and updating by mitgliednr, by user_id)', async () => {
    const [someone, other] = store()
      .all('user')
      .filter((u) => u.attributes.mitgliednr);
    const created = await write(world, 'user.create', {
      attributes: { vorname: 'Olga', nachname: 'Offline', ort: 'Funkloch' },
    });
    expect(created.id).toMatch(/^local-/);
    await write(world, 'user.update', { id: someone!.id, attributes: { beruf: 'Förster' } });
    const upserted = await write(world, 'user.upsert', {
      identifierName: 'mitgliednr',
      identifierValue: '99001',
      attributes: { vorname: 'Peer', nachname: 'Put', ort: 'Neudorf' },
    });
    expect(upserted.id).toMatch(/^local-/);
    const byNumber = await write(world, 'user.upsert', {
      identifierName: 'mitgliednr',
      identifierValue: String(other!.attributes.mitgliednr),
      attributes: { bemerkung: 'per Mitgliednummer' },
    });
    expect(byNumber.id).toBe(other!.id);
    const byId = await write(world, 'user.upsert', {
      identifierName: 'user_id',
      identifierValue: someone!.id,
      attributes: { telpriv: '0123 4567' },
    });
    expect(byId.id).toBe(someone!.id);

    const people = await call<Paged<Local>>(world, 'personnel.list', { limit: 200 });
    const local = (id: string) => people.items.find((p) => p.id === id);
    expect(local(created.id)).toMatchObject({ localState: 'created', nachname: 'Offline' });
    expect(local(upserted.id)).toMatchObject({ localState: 'created', mitgliednr: '99001' });
    const detail = await call<Local & { attributes: Record<string, unknown> }>(
      world,
      'personnel.get',
      { id: someone!.id },
    );
    expect(detail.localState).toBe('changed');
    expect(detail.attributes).toMatchObject({ beruf: 'Förster', telpriv: '0123 4567' });
    expect(local(other!.id)?.localState).toBe('changed');

    const usersBefore = store().count('user');
    await pushOfflineThenOnline();
    expect(store().count('user')).toBe(usersBefore + 2);
    const olga = store()
      .all('user')
      .filter((u) => u.attributes.nachname === 'Offline');
    expect(olga).toHaveLength(1);
    expect(olga[0]!.attributes).toMatchObject({ vorname: 'Olga', ort: 'Funkloch' });
    const peer = store()
      .all('user')
      .filter((u) => u.attributes.mitgliednr === '99001');
    expect(peer).toHaveLength(1);
    expect(peer[0]!.attributes).toMatchObject({ vorname: 'Peer', nachname: 'Put', ort: 'Neudorf' });
    expect(attrs('user', someone!.id)).toMatchObject({ beruf: 'Förster', telpriv: '0123 4567' });
    expect(attrs('user', other!.id)).toMatchObject({
      bemerkung: 'per Mitgliednummer',
      vorname: other!.attributes.vorname,
    });
    // The replica holds the service's ids and values, no longer marked as local.
    expect(row(world, 'users', olga[0]!.id)).toMatchObject({ local_state: null, ort: 'Funkloch' });
    expect(row(world, 'users', peer[0]!.id)).toMatchObject({ local_state: null });
  });

  it('ausbildung.delete', async () => {
    const training = store().all('ausbildung')[0]!;
    const userId = (training.relationships.user as { id: string }).id;
    await write(world, 'ausbildung.delete', { userId, id: training.id });
    const person = await call<{ ausbildungen: { id: string }[] }>(world, 'personnel.get', {
      id: userId,
    });
    expect(person.ausbildungen.map((a) => a.id)).not.toContain(training.id);
    expect(row(world, 'ausbildungen', training.id)?.local_state).toBe('deleted');
    await pushOfflineThenOnline();
    expect(store().get('ausbildung', training.id)).toBeUndefined();
    expect(row(world, 'ausbildungen', training.id)).toBeUndefined();
  });
});

describe('calendars and notifications', () => {
  it('kalender.create and kalender.delete', async () => {
    const made = await serviceWrite(world, 'POST', '/kalender', {
      data: { type: 'kalender', attributes: { name: 'Wegwerf' } },
    });
    expect(made.status).toBe(201);
    await syncFrom(world.api, world.replica);
    const doomed = made.json!.data!.id;
    const created = await write(world, 'kalender.create', {
      attributes: { name: 'Offline-Kalender', farbe: '#123456', beschreibung: 'ohne Netz' },
    });
    await write(world, 'kalender.delete', { id: doomed });
    const calendars = await call<Local[]>(world, 'calendars.list', {});
    expect(calendars.find((c) => c.id === created.id)).toMatchObject({
      localState: 'created',
      name: 'Offline-Kalender',
    });
    expect(calendars.map((c) => c.id)).not.toContain(doomed);
    await pushOfflineThenOnline();
    expect(store().get('kalender', doomed)).toBeUndefined();
    const mine = store()
      .all('kalender')
      .filter((k) => k.attributes.name === 'Offline-Kalender');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.attributes).toMatchObject({ farbe: '#123456', beschreibung: 'ohne Netz' });
  });

  it('benachrichtigung.update and benachrichtigung.delete', async () => {
    // The demo data follows the calendar (older notifications are read): any two, one toggled.
    const [read, gone] = await call<Local[]>(world, 'notifications.list', {});
    expect(gone, 'two notifications in the demo data').toBeDefined();
    const gelesen = read!.gelesen !== true;
    await write(world, 'benachrichtigung.update', { id: read!.id, attributes: { gelesen } });
    await write(world, 'benachrichtigung.delete', { id: gone!.id });
    const notifications = await call<Local[]>(world, 'notifications.list', {});
    expect(notifications.find((n) => n.id === read!.id)).toMatchObject({
      gelesen,
      localState: 'changed',
    });
    expect(notifications.map((n) => n.id)).not.toContain(gone!.id);
    await pushOfflineThenOnline();
    expect(attrs('benachrichtigung', read!.id)?.gelesen).toBe(gelesen);
    expect(store().get('benachrichtigung', gone!.id)).toBeUndefined();
  });
});

describe('volunteer hours', () => {
  it('helferstunden_anlass.create/update, helferstunden.create/update/delete', async () => {
    const [changedEntry, deletedEntry] = store()
      .all('helferstunden')
      .filter((h) => (h.relationships.user as { id: string } | null)?.id === world.officeId);
    const occasion = store().all('helferstunden_anlass')[0]!;
    const anlass = await write(world, 'helferstunden_anlass.create', {
      attributes: { typ: 'sonstiges', beschreibung: 'Offline-Anlass', datum: '2026-11-20' },
    });
    await write(world, 'helferstunden_anlass.update', {
      id: occasion.id,
      attributes: { beschreibung: 'Umbenannt ohne Netz' },
    });
    const hour = await write(world, 'helferstunden.create', {
      attributes: { von: '2026-11-20T08:00:00+01:00', stunden: 2.5, bemerkung: 'offline' },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: occasion.id } },
        typ: { data: { type: 'helferstunden_typ', id: '2' } },
      },
    });
    await write(world, 'helferstunden.update', {
      id: changedEntry!.id,
      attributes: { stunden: 4.25, bemerkung: 'korrigiert' },
    });
    await write(world, 'helferstunden.delete', { id: deletedEntry!.id });

    const hours = await call<Paged<Local>>(world, 'hours.list', { limit: 500 });
    const shown = (id: string) => hours.items.find((h) => h.id === id);
    expect(shown(hour.id)).toMatchObject({
      localState: 'created',
      stunden: 2.5,
      anlass: 'Umbenannt ohne Netz',
    });
    expect(shown(changedEntry!.id)).toMatchObject({ localState: 'changed', stunden: 4.25 });
    expect(shown(deletedEntry!.id)).toBeUndefined();
    expect(row(world, 'helferstunden_anlaesse', anlass.id)?.local_state).toBe('created');

    await pushOfflineThenOnline();
    expect(attrs('helferstunden_anlass', occasion.id)?.beschreibung).toBe('Umbenannt ohne Netz');
    const occasions = store()
      .all('helferstunden_anlass')
      .filter((a) => a.attributes.beschreibung === 'Offline-Anlass');
    expect(occasions).toHaveLength(1);
    expect(occasions[0]!.attributes).toMatchObject({ typ: 'sonstiges', datum: '2026-11-20' });
    const entries = store()
      .all('helferstunden')
      .filter((h) => h.attributes.bemerkung === 'offline');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.attributes.stunden).toBe(2.5);
    expect(entries[0]!.relationships).toMatchObject({
      anlass: { id: occasion.id },
      typ: { id: '2' },
    });
    expect(attrs('helferstunden', changedEntry!.id)).toMatchObject({
      stunden: 4.25,
      bemerkung: 'korrigiert',
    });
    expect(store().get('helferstunden', deletedEntry!.id)).toBeUndefined();
  });
});

describe('courses', () => {
  it('course.create with dates, participation.create/update/cancel, customfield.create/update/delete', async () => {
    // The demo data follows the calendar: pick a course the replica holds with two participants,
    // and give it the two custom fields the test needs through the service if it lacks them.
    const ofCourse = (type: 'participation' | 'customfield', courseId: string) =>
      store()
        .all(type)
        .filter((r) => (r.relationships.course as { id: string }).id === courseId);
    const activeParticipants = (courseId: string) =>
      ofCourse('participation', courseId).filter((p) => p.attributes.status !== 'cancelled');
    const course = store()
      .all('course')
      .find(
        (c) =>
          c.attributes.status === 'ready' &&
          row(world, 'courses', c.id) !== undefined &&
          activeParticipants(c.id).length >= 2,
      )!;
    expect(course, 'a ready course in the replica with two participants').toBeDefined();
    for (let n = ofCourse('customfield', course.id).length; n < 2; n++) {
      const made = await serviceWrite(world, 'POST', `/courses/${course.id}/customfields`, {
        data: { type: 'customfield', attributes: { name: `Feld ${n}`, field_type: 'text' } },
      });
      expect(made.status).toBe(201);
    }
    await syncFrom(world.api, world.replica);
    const [changed, cancelled] = activeParticipants(course.id);
    const [fieldChanged, fieldDeleted] = ofCourse('customfield', course.id);

    const newCourse = await write(world, 'course.create', {
      attributes: { title: 'Erste Hilfe offline', max_participants: 12, price: 45 },
      relationships: {
        course_type: { data: { type: 'course_type', id: '1' } },
        dates: {
          data: [
            { type: 'course_date', id: 'new-1' },
            { type: 'course_date', id: 'new-2' },
          ],
        },
      },
      included: [
        {
          type: 'course_date',
          id: 'new-1',
          attributes: { from: '2026-12-05T09:00:00+01:00', to: '2026-12-05T16:00:00+01:00' },
        },
        {
          type: 'course_date',
          id: 'new-2',
          attributes: { from: '2026-12-06T09:00:00+01:00', to: '2026-12-06T13:00:00+01:00' },
        },
      ],
    });
    const participation = await write(world, 'participation.create', {
      courseId: course.id,
      attributes: { first_name: 'Paula', last_name: 'Ohnenetz', email: 'paula@example.org' },
    });
    await write(world, 'participation.update', {
      courseId: course.id,
      id: changed!.id,
      attributes: { comment: 'vor Ort geändert', paid: true },
    });
    await write(world, 'participation.cancel', {
      courseId: course.id,
      id: cancelled!.id,
      attributes: { reason: 'krank' },
    });
    const field = await write(world, 'customfield.create', {
      courseId: course.id,
      attributes: { name: 'Offline-Feld', field_type: 'text', value: 'x' },
    });
    await write(world, 'customfield.update', {
      courseId: course.id,
      id: fieldChanged!.id,
      attributes: { name: 'Umbenanntes Feld' },
    });
    await write(world, 'customfield.delete', { courseId: course.id, id: fieldDeleted!.id });

    const detail = await call<Local & { dates: unknown[]; customfields: Local[] }>(
      world,
      'courses.get',
      { id: newCourse.id },
    );
    expect(detail).toMatchObject({ localState: 'created', title: 'Erste Hilfe offline' });
    expect(detail.dates).toHaveLength(2);
    expect(detail.firstDate).toMatch(/^2026-12-05/);
    const participations = await call<Local[]>(world, 'participations.list', {
      courseId: course.id,
    });
    const shown = (id: string) => participations.find((p) => p.id === id);
    expect(shown(participation.id)).toMatchObject({ localState: 'created', lastName: 'Ohnenetz' });
    expect(shown(changed!.id)).toMatchObject({ localState: 'changed' });
    expect(shown(changed!.id)?.attributes).toMatchObject({ comment: 'vor Ort geändert' });
    expect(shown(cancelled!.id)).toMatchObject({ localState: 'changed', status: 'cancelled' });
    const fields = (await call<{ customfields: Local[] }>(world, 'courses.get', { id: course.id }))
      .customfields;
    expect(fields.find((f) => f.id === field.id)).toMatchObject({ localState: 'created' });
    expect(fields.find((f) => f.id === fieldChanged!.id)).toMatchObject({
      localState: 'changed',
      name: 'Umbenanntes Feld',
    });
    expect(fields.map((f) => f.id)).not.toContain(fieldDeleted!.id);

    await pushOfflineThenOnline();
    const courses = store()
      .all('course')
      .filter((c) => c.attributes.title === 'Erste Hilfe offline');
    expect(courses).toHaveLength(1);
    expect(courses[0]!.attributes).toMatchObject({ max_participants: 12, price: 45 });
    const dates = (courses[0]!.relationships.dates as { id: string }[]).map(
      (d) => attrs('course_date', d.id)?.from,
    );
    expect(dates.map((d) => Date.parse(String(d))).sort()).toEqual([
      Date.parse('2026-12-05T09:00:00+01:00'),
      Date.parse('2026-12-06T09:00:00+01:00'),
    ]);
    const paula = store()
      .all('participation')
      .filter((p) => p.attributes.last_name === 'Ohnenetz');
    expect(paula).toHaveLength(1);
    expect(paula[0]!.relationships.course).toMatchObject({ id: course.id });
    expect(attrs('participation', changed!.id)).toMatchObject({
      comment: 'vor Ort geändert',
      paid: true,
    });
    expect(attrs('participation', cancelled!.id)?.status).toBe('cancelled');
    // The replica too, right after the push: the service answers a cancellation, not the
    // participation, and the course's list may come again only much later.
    expect(row(world, 'participations', cancelled!.id)).toMatchObject({
      status: 'cancelled',
      local_state: null,
    });
    const offlineFields = store()
      .all('customfield')
      .filter((f) => f.attributes.name === 'Offline-Feld');
    expect(offlineFields).toHaveLength(1);
    expect(attrs('customfield', fieldChanged!.id)?.name).toBe('Umbenanntes Feld');
    expect(store().get('customfield', fieldDeleted!.id)).toBeUndefined();
    // The replica's new course row has the service's id and its dates.
    expect(row(world, 'courses', courses[0]!.id)).toMatchObject({ local_state: null });
  });
});

describe('what a write needs of the replica (the resource modules’ hooks)', () => {
  const refusal = async (name: string, args: unknown) => {
    const outcome = await world.dispatcher.call(name as 'participation.create', args);
    return outcome.ok ? null : outcome.error.code;
  };

  it('a participation or a custom field needs its course in the replica; a new one takes it', async () => {
    const missing = 'local-00000000-0000-4000-8000-000000000000';
    expect(
      await refusal('participation.create', {
        courseId: missing,
        attributes: { first_name: 'Ohne', last_name: 'Kurs' },
      }),
    ).toBe('not_found');
    expect(
      await refusal('customfield.create', {
        courseId: missing,
        attributes: { name: 'Ohne Kurs', field_type: 'text' },
      }),
    ).toBe('not_found');
    const course = world.replica.sqlite
      .prepare("SELECT id FROM courses WHERE local_state IS NULL AND id NOT LIKE 'local-%' LIMIT 1")
      .get() as { id: string };
    const made = await write(world, 'customfield.create', {
      courseId: course.id,
      attributes: { name: 'Unter dem Kurs', field_type: 'text' },
    });
    expect(row(world, 'customfields', made.id)).toMatchObject({ course_id: course.id });
  });

  it('a cancelled participation refuses any further change', async () => {
    const open = world.replica.sqlite
      .prepare(
        "SELECT id, course_id FROM participations WHERE coalesce(status, '') <> 'cancelled' AND local_state IS NULL LIMIT 1",
      )
      .get() as { id: string; course_id: string };
    await write(world, 'participation.cancel', { courseId: open.course_id, id: open.id });
    expect(
      await refusal('participation.update', {
        courseId: open.course_id,
        id: open.id,
        attributes: { comment: 'zu spät' },
      }),
    ).toBe('not_allowed');
  });
});
