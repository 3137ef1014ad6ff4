// The web-interface changes of the admin interface for courses, volunteer hours, forms, the
// escape hatch and backups: each does what it says, with the service's updated_at bookkeeping,
// checked through the public interface where it shows. Real HTTP against startSandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredResource } from '../data/store';
import { ApiClient, many, one, type Res } from '../http/test-client';
import { startSandbox, type RunningSandbox } from '../server';
import { shiftBerlinDays } from './courses';
import type { JournalEntry } from './journal';
import { AdminClient } from './test-admin-client';

let sandbox: RunningSandbox;
let admin: AdminClient;
let office: ApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 5, admin: true });
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

function datesOf(course: StoredResource): StoredResource[] {
  const refs = course.relationships.dates as { id: string }[];
  return refs.map((ref) => sandbox.store.get('course_date', ref.id)!);
}

/** A course with dates and participations, not yet used by another test. */
const usedCourses = new Set<string>();
function aCourse(predicate: (course: StoredResource) => boolean = () => true): StoredResource {
  const course = sandbox.store
    .all('course')
    .find(
      (c) =>
        !usedCourses.has(c.id) &&
        datesOf(c).length > 0 &&
        sandbox.store.related('participation', 'course', c.id).length > 0 &&
        predicate(c),
    );
  if (!course) throw new Error('no such course in the demo data');
  usedCourses.add(course.id);
  return course;
}

async function journalAfter(seq: number): Promise<JournalEntry[]> {
  return (await admin.get(`/changes?after=${seq}`)).body.changes as JournalEntry[];
}

describe('course changes', () => {
  it('shifts a date by whole Berlin days, with the offset of the new day', () => {
    expect(shiftBerlinDays('2026-03-27T10:00:00+01:00', 3)).toBe('2026-03-30T10:00:00+02:00');
    expect(shiftBerlinDays('2026-10-24T18:30:00+02:00', 1)).toBe('2026-10-25T18:30:00+01:00');
    expect(shiftBerlinDays('2026-10-25T18:30:00+01:00', -1)).toBe('2026-10-24T18:30:00+02:00');
    expect(shiftBerlinDays('2026-06-01T00:15:00+02:00', 30)).toBe('2026-07-01T00:15:00+02:00');
  });

  it('moves a course date: the date changes, the course keeps its change time', async () => {
    const course = aCourse();
    const [date] = datesOf(course);
    const { last } = (await admin.get('/changes')).body;
    const moved = await admin.post(`/courses/${course.id}/dates/${date!.id}/move`, { days: 7 });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ changed: [{ type: 'course_date', id: date!.id, op: 'put' }] });

    const served = await office.get(`/courses/${course.id}`);
    const servedDate = served.doc.included!.find((r) => r.id === date!.id)!;
    expect(servedDate.attributes.from).toBe(shiftBerlinDays(String(date!.attributes.from), 7));
    expect(servedDate.attributes.to).toBe(shiftBerlinDays(String(date!.attributes.to), 7));
    expect(one(served).attributes.updated_at).toBe(course.attributes.updated_at);
    expect(sandbox.store.get('course', course.id)!.updatedAt).toBe(course.updatedAt);
    expect(sandbox.store.get('course_date', date!.id)!.updatedAt > date!.updatedAt).toBe(true);
    // The journal tells that the date concerns its course.
    const [entry] = await journalAfter(last);
    expect(entry).toMatchObject({ op: 'put', type: 'course_date', id: date!.id, touched: true });
    expect(entry!.refs).toContainEqual({ type: 'course', id: course.id });

    const to = await admin.post(`/courses/${course.id}/dates/${date!.id}/move`, {
      from: '2027-01-10T09:00:00+01:00',
      to: '2027-01-10T17:00:00+01:00',
    });
    expect(to.status).toBe(200);
    expect(sandbox.store.get('course_date', date!.id)!.attributes).toMatchObject({
      from: '2027-01-10T09:00:00+01:00',
      to: '2027-01-10T17:00:00+01:00',
    });
  });

  it('refuses a move that does not fit', async () => {
    const course = aCourse();
    const [date] = datesOf(course);
    const other = sandbox.store.all('course').find((c) => c.id !== course.id)!;
    const path = `/courses/${course.id}/dates/${date!.id}/move`;
    const backwards = await admin.post(path, {
      from: '2027-01-10T17:00:00+01:00',
      to: '2027-01-10T09:00:00+01:00',
    });
    expect(backwards.status).toBe(400);
    expect((await admin.post(path, { days: 1.5 })).status).toBe(400);
    expect((await admin.post(path, { days: 1, from: '2027-01-10T17:00:00+01:00' })).status).toBe(
      400,
    );
    expect(
      (await admin.post(`/courses/${other.id}/dates/${date!.id}/move`, { days: 1 })).status,
    ).toBe(404);
    expect((await admin.post(`/courses/${course.id}/dates/99999/move`, { days: 1 })).status).toBe(
      404,
    );
    expect(sandbox.store.get('course_date', date!.id)).toBe(date);
  });

  it('assigns and removes trainers: the course changes, the trainers see it or not', async () => {
    const trainers = sandbox.users.filter((user) => user.role === 'trainer');
    const course = aCourse((c) => {
      const ids = (c.relationships.trainers as { id: string }[]).map((ref) => ref.id);
      return ids.includes(trainers[0]!.id) && !ids.includes(trainers[1]!.id);
    });
    const [first, second] = [
      ApiClient.as(sandbox, 'trainer', 0),
      ApiClient.as(sandbox, 'trainer', 1),
    ];
    const window = '?filter[from]=2000-01-01&filter[until]=2100-01-01';
    const ids = async (client: ApiClient) =>
      many(await client.get(`/courses${window}`)).map((c) => c.id);
    expect(await ids(first)).toContain(course.id);
    expect(await ids(second)).not.toContain(course.id);

    const changed = await admin.post(`/courses/${course.id}/trainers`, {
      add: [trainers[1]!.id],
      remove: [trainers[0]!.id],
    });
    expect(changed.body).toEqual({ changed: [{ type: 'course', id: course.id, op: 'put' }] });
    expect(await ids(first)).not.toContain(course.id);
    expect(await ids(second)).toContain(course.id);
    expect((await first.get(`/courses/${course.id}`)).status).toBe(403);
    const served = one(await office.get(`/courses/${course.id}`));
    expect(served.attributes.updated_at > String(course.attributes.updated_at)).toBe(true);
    expect(sandbox.store.get('course', course.id)!.updatedAt > course.updatedAt).toBe(true);

    const unknown = await admin.post(`/courses/${course.id}/trainers`, { add: ['f'.repeat(32)] });
    expect(unknown.status).toBe(404);
    expect((await admin.post(`/courses/${course.id}/trainers`, { add: 'x' })).status).toBe(400);
  });

  it('deletes a course with its dates, participations, cancellations, custom fields and forms', async () => {
    const formFor = (id: string) =>
      sandbox.store
        .all('formular')
        .some((f) => f.attributes.objekt_typ === 'k' && f.attributes.objekt_id === id);
    const course = aCourse((c) => formFor(c.id));
    const { store } = sandbox;
    const participations = store.related('participation', 'course', course.id);
    const open = participations.find((p) => p.attributes.status !== 'cancelled')!;
    // A custom field and a cancellation of its own, so both are surely there.
    const field = one(
      await office.post(`/courses/${course.id}/customfields`, {
        data: { type: 'customfield', attributes: { name: 'Essen', field_type: 'text' } },
      }),
    );
    const cancelled = await office.post(`/courses/${course.id}/participations/${open.id}/cancel`, {
      data: { type: 'cancellation', attributes: { reason: 'krank' } },
    });
    expect(cancelled.status).toBe(201);
    const cancellation = store.related('cancellation', 'participation', open.id)[0]!;
    const dates = datesOf(course);

    const deleted = await admin.delete(`/courses/${course.id}`);
    expect(deleted.status).toBe(200);
    const removed = (deleted.body.changed as { type: string; id: string; op: string }[]).map(
      (c) => `${c.op} ${c.type} ${c.id}`,
    );
    expect(removed).toEqual(
      expect.arrayContaining([
        `remove course ${course.id}`,
        ...dates.map((d) => `remove course_date ${d.id}`),
        ...participations.map((p) => `remove participation ${p.id}`),
        `remove cancellation ${cancellation.id}`,
        `remove customfield ${field.id}`,
      ]),
    );
    expect(removed.some((line) => line.startsWith('remove formular '))).toBe(true);
    expect(removed.every((line) => line.startsWith('remove '))).toBe(true);
    expect((await office.get(`/courses/${course.id}`)).status).toBe(404);
    expect(store.related('participation', 'course', course.id)).toEqual([]);
    expect(formFor(course.id)).toBe(false);
    expect((await admin.delete(`/courses/${course.id}`)).status).toBe(404);
  });
});

describe('volunteer-hour changes', () => {
  const changedSince = async (since: string) =>
    many(
      await office.get(
        `/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&filter[changed_since]=${q(since)}`,
      ),
    ).map((entry) => entry.id);

  it('deactivates a type: it is no longer offered, its entries are not touched', async () => {
    const entry = sandbox.store.all('helferstunden')[0]!;
    const typId = (entry.relationships.typ as { id: string }).id;
    const since = await mark();
    const answer = await admin.patch(`/helferstunden/typen/${typId}`, {
      aktiv: false,
      bezeichnung: 'Alt',
    });
    expect(answer.body).toEqual({ changed: [{ type: 'helferstunden_typ', id: typId, op: 'put' }] });
    const settings = await office.get('/helferstunden/einstellungen/selbst');
    expect(settings.doc.included!.map((r: Res) => r.id)).not.toContain(typId);
    expect(sandbox.store.get('helferstunden_typ', typId)!.attributes).toEqual({
      bezeichnung: 'Alt',
      aktiv: false,
    });
    expect(await changedSince(since)).toEqual([]);
    expect((await admin.patch(`/helferstunden/typen/${typId}`, { aktiv: 'no' })).status).toBe(400);
    expect((await admin.patch('/helferstunden/typen/999', { aktiv: true })).status).toBe(404);
    await admin.patch(`/helferstunden/typen/${typId}`, { aktiv: true });
  });

  it('edits an occasion: it changes, the entries that refer to it do not', async () => {
    const entry = sandbox.store.all('helferstunden')[1]!;
    const anlassId = (entry.relationships.anlass as { id: string }).id;
    const before = sandbox.store.get('helferstunden_anlass', anlassId)!;
    const since = await mark();
    const answer = await admin.patch(`/helferstunden/anlaesse/${anlassId}`, {
      beschreibung: 'Umbenannt',
      datum: '2026-05-01',
    });
    expect(answer.body.changed).toEqual([
      { type: 'helferstunden_anlass', id: anlassId, op: 'put' },
    ]);
    const after = sandbox.store.get('helferstunden_anlass', anlassId)!;
    expect(after.attributes).toMatchObject({ beschreibung: 'Umbenannt', datum: '2026-05-01' });
    expect(String(after.attributes.updated_at) > String(before.attributes.updated_at)).toBe(true);
    expect(after.relationships).toEqual(before.relationships);
    expect(await changedSince(since)).toEqual([]);
    expect((await admin.patch(`/helferstunden/anlaesse/${anlassId}`, { ort: 'x' })).status).toBe(
      400,
    );
  });
});

describe('reference data changes', () => {
  const changedOnly = (type: string, id: string) => ({ changed: [{ type, id, op: 'put' }] });

  it('edits a course type; the courses of the type are not touched', async () => {
    const course = aCourse();
    const typeId = (course.relationships.course_type as { id: string }).id;
    const answer = await admin.patch(`/courses/types/${typeId}`, { name: 'Erste Hilfe neu' });
    expect(answer.body).toEqual(changedOnly('course_type', typeId));
    const listed = many(await office.get('/courses/types')).find((t) => t.id === typeId)!;
    expect(listed.attributes.name).toBe('Erste Hilfe neu');
    expect(sandbox.store.get('course', course.id)!.updatedAt).toBe(course.updatedAt);
    expect((await admin.patch(`/courses/types/${typeId}`, { units: -1 })).status).toBe(400);
    expect((await admin.patch('/courses/types/999', { name: 'x' })).status).toBe(404);
  });

  it('takes a UVT off the favourites (which /uvts lists) and back, and renames it', async () => {
    const listed = async () => many(await office.get('/uvts')).map((u) => u.id);
    const uvt = sandbox.store.all('uvt').find((u) => u.attributes.favorite === true)!;
    expect(await listed()).toContain(uvt.id);
    const answer = await admin.patch(`/uvts/${uvt.id}`, { favorite: false, name: 'BG Neu' });
    expect(answer.body).toEqual(changedOnly('uvt', uvt.id));
    expect(await listed()).not.toContain(uvt.id);
    await admin.patch(`/uvts/${uvt.id}`, { favorite: true });
    expect(await listed()).toContain(uvt.id);
    expect(sandbox.store.get('uvt', uvt.id)!.attributes.name).toBe('BG Neu');
  });

  it('edits a company and its UVT; the participations that name it are not touched', async () => {
    const participation = sandbox.store.all('participation').find((p) => p.relationships.company)!;
    const companyId = (participation.relationships.company as { id: string }).id;
    const uvtId = sandbox.store.all('uvt')[0]!.id;
    const answer = await admin.patch(`/companies/${companyId}`, { name: 'Firma Neu', uvt: uvtId });
    expect(answer.body).toEqual(changedOnly('company', companyId));
    const company = sandbox.store.get('company', companyId)!;
    expect(company.attributes.name).toBe('Firma Neu');
    expect(company.relationships.uvt).toEqual({ type: 'uvt', id: uvtId });
    expect(sandbox.store.get('participation', participation.id)!.updatedAt).toBe(
      participation.updatedAt,
    );
    expect((await admin.patch(`/companies/${companyId}`, { uvt: 'nobody' })).status).toBe(404);
    await admin.patch(`/companies/${companyId}`, { uvt: null });
    expect(sandbox.store.get('company', companyId)!.relationships.uvt).toBeNull();
  });

  it('edits a course location and a client; the courses are not touched', async () => {
    const course = aCourse((c) => Boolean(c.relationships.location && c.relationships.client));
    const locationId = (course.relationships.location as { id: string }).id;
    const clientId = (course.relationships.client as { id: string }).id;
    expect((await admin.patch(`/addresses/${locationId}`, { city: 'Neustadt' })).body).toEqual(
      changedOnly('address', locationId),
    );
    expect((await admin.patch(`/clients/${clientId}`, { name: 'Kunde Neu' })).body).toEqual(
      changedOnly('client', clientId),
    );
    const shown = await office.get(`/courses/${course.id}?include=client`);
    const included = (type: string) => shown.doc.included!.find((r: Res) => r.type === type)!;
    expect(included('address').attributes.city).toBe('Neustadt');
    expect(included('client').attributes.name).toBe('Kunde Neu');
    expect(sandbox.store.get('course', course.id)!.updatedAt).toBe(course.updatedAt);
    expect((await admin.patch(`/addresses/${locationId}`, { email: 'kein' })).status).toBe(400);
    expect((await admin.patch(`/clients/${clientId}`, { name: '' })).status).toBe(400);
  });
});

describe('forms', () => {
  it('adds and removes a form of an object', async () => {
    const course = sandbox.store.all('course')[0]!;
    const list = async () => (await office.get(`/formulare/v1/liste?typ=k&id=${course.id}`)).text;
    const added = await admin.post('/formulare', {
      objekt_typ: 'k',
      objekt_id: course.id,
      titel: 'Hygieneplan',
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      changed: [{ type: 'formular', id: added.body.id, op: 'put' }],
    });
    expect(JSON.parse(await list())).toContainEqual({
      titel: 'Hygieneplan',
      aktion: { typ: 'link', url: expect.stringMatching(/^https:/), methode: 'GET' },
    });
    const removed = await admin.delete(`/formulare/${added.body.id}`);
    expect(removed.body.changed).toEqual([{ type: 'formular', id: added.body.id, op: 'remove' }]);
    expect(await list()).not.toContain('Hygieneplan');

    const missing = { objekt_typ: 'k', objekt_id: '99999', titel: 'x' };
    expect((await admin.post('/formulare', missing)).status).toBe(404);
    expect((await admin.post('/formulare', { ...missing, objekt_typ: 'z' })).status).toBe(400);
    expect((await admin.delete(`/formulare/${added.body.id}`)).status).toBe(404);
  });
});

describe('the escape hatch', () => {
  it('changes any record, touched or not, and removes any record', async () => {
    const participation = sandbox.store.all('participation')[0]!;
    const path = `/records/participation/${participation.id}`;
    const { last } = (await admin.get('/changes')).body;

    const quiet = await admin.patch(path, { attributes: { comment: 'leise' }, touch: false });
    expect(quiet.body.changed).toEqual([
      { type: 'participation', id: participation.id, op: 'put' },
    ]);
    const afterQuiet = sandbox.store.get('participation', participation.id)!;
    expect(afterQuiet.updatedAt).toBe(participation.updatedAt);
    expect(afterQuiet.attributes.updated_at).toBe(participation.attributes.updated_at);
    expect(afterQuiet.attributes.comment).toBe('leise');

    await admin.patch(path, { attributes: { paid: true }, relationships: { company: null } });
    const touched = sandbox.store.get('participation', participation.id)!;
    expect(touched.updatedAt > participation.updatedAt).toBe(true);
    expect(
      String(touched.attributes.updated_at) > String(participation.attributes.updated_at),
    ).toBe(true);
    expect(touched.attributes).toMatchObject({ comment: 'leise', paid: true });
    expect(touched.relationships.company).toBeNull();
    expect(touched.relationships.course).toEqual(participation.relationships.course);
    expect((await journalAfter(last)).map((entry) => entry.touched)).toEqual([false, true]);

    expect((await admin.patch('/records/nonsense/1', {})).status).toBe(404);
    expect((await admin.patch('/records/participation/99999', {})).status).toBe(404);
    const badRef = { relationships: { course: { type: 'course' } } };
    expect((await admin.patch(path, badRef)).status).toBe(400);

    const kalender = sandbox.store.all('kalender')[0]!;
    const removed = await admin.delete(`/records/kalender/${kalender.id}`);
    expect(removed.body.changed).toEqual([{ type: 'kalender', id: kalender.id, op: 'remove' }]);
    expect(sandbox.store.get('kalender', kalender.id)).toBeUndefined();
  });
});

describe('backups', () => {
  it('restores the data but not the clock, hands out the same ids again, and journals it', async () => {
    const backup = await admin.post('/backups');
    expect(backup.status).toBe(201);
    const { id } = backup.body as { id: string };
    const entry = sandbox.store.all('helferstunden')[2]!;
    const newCalendar = { data: { type: 'kalender', attributes: { name: 'Nach dem Backup' } } };
    const created = one(await office.post('/kalender', newCalendar));
    expect((await office.delete(`/helferstunden/${entry.id}`)).status).toBe(204);
    await admin.post('/clock', { advanceMs: 3_600_000 });
    const clockBefore = (await admin.get('/clock')).body;
    const { last } = (await admin.get('/changes')).body;

    const restored = await admin.post(`/backups/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ restored: { put: 1, removed: 1 } });
    expect((await office.get(`/kalender/${created.id}`)).status).toBe(404);
    const back = one(await office.get(`/helferstunden/${entry.id}`));
    expect(back.attributes.updated_at).toBe(entry.attributes.updated_at);
    expect(sandbox.store.get('helferstunden', entry.id)!.updatedAt).toBe(entry.updatedAt);
    const clockAfter = (await admin.get('/clock')).body;
    expect(clockAfter.offsetMs).toBe(clockBefore.offsetMs);
    expect(clockAfter.now >= clockBefore.now).toBe(true);
    const journal = await journalAfter(last);
    expect(journal.map((e) => `${e.op} ${e.type} ${e.id} ${e.touched}`).sort()).toEqual(
      [`put helferstunden ${entry.id} false`, `remove kalender ${created.id} false`].sort(),
    );
    // A database restored from a dump hands out the same ids again.
    expect(one(await office.post('/kalender', newCalendar)).id).toBe(created.id);

    expect((await admin.post('/backups/999/restore')).status).toBe(404);
    expect((await admin.post('/backups', { name: 'x' })).status).toBe(400);
  });
});
