// Temporary ids and chains (a course created offline with a participation and a custom field of
// it, an occasion with an hour entry of it, create then delete before sending) and coalescing,
// seen in the requests the sandbox received and in the bodies the client sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryFiles } from '../../support/temp-files';
import {
  call,
  expectNoTemporaryIds,
  outbox,
  push,
  row,
  startWorld,
  write,
  writesLogged,
  type World,
} from './world';

const tempFile = temporaryFiles('outbox-chains');

let world: World;
const store = () => world.sandbox.store;

/** Writes the service carried out (the one-time 403 probe for client-generated ids left out). */
const carriedOut = () => writesLogged(world).filter((line) => !line.endsWith(' 403'));
const sentBodies = (method: string) =>
  world.sent
    .filter((s) => s.method === method)
    .map((s) => s.body as { data: { id?: string; attributes: Record<string, unknown> } });

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
});
afterAll(() => world.close());

describe('temporary ids and chains', () => {
  it('a course created offline, a participation and a custom field of it, an update of the participation', async () => {
    const course = await write(world, 'course.create', {
      attributes: { title: 'Kette offline' },
      relationships: {
        course_type: { data: { type: 'course_type', id: '2' } },
        dates: { data: [{ type: 'course_date', id: 'new-a' }] },
      },
      included: [
        {
          type: 'course_date',
          id: 'new-a',
          attributes: { from: '2026-12-10T09:00:00+01:00', to: '2026-12-10T17:00:00+01:00' },
        },
      ],
    });
    const participation = await write(world, 'participation.create', {
      courseId: course.id,
      attributes: { first_name: 'Kai', last_name: 'Kette' },
    });
    const field = await write(world, 'customfield.create', {
      courseId: course.id,
      attributes: { name: 'Schuhgröße', field_type: 'number' },
    });
    await write(world, 'participation.update', {
      courseId: course.id,
      id: participation.id,
      attributes: { comment: 'nachgetragen', phone: '0170 1' },
    });
    const waiting = await outbox(world);
    expect(waiting.filter((e) => e.waitingFor === course.id)).toHaveLength(2);
    const shown = await call<{ id: string; localState: string }[]>(world, 'participations.list', {
      courseId: course.id,
    });
    expect(shown).toMatchObject([{ id: participation.id, localState: 'created' }]);

    world.sandbox.clearRequests();
    const summary = await push(world);
    expect(summary).toMatchObject({ parked: 0, unknown: 0, waiting: 0 });
    expect(await outbox(world)).toEqual([]);
    expectNoTemporaryIds(world);

    const serviceCourse = store()
      .all('course')
      .find((c) => c.attributes.title === 'Kette offline')!;
    const participations = store()
      .all('participation')
      .filter((p) => p.attributes.last_name === 'Kette');
    expect(participations).toHaveLength(1);
    expect(participations[0]!.relationships.course).toMatchObject({ id: serviceCourse.id });
    expect(participations[0]!.attributes).toMatchObject({
      comment: 'nachgetragen',
      phone: '0170 1',
    });
    const fields = store()
      .all('customfield')
      .filter((f) => f.attributes.name === 'Schuhgröße');
    expect(fields).toHaveLength(1);
    expect(fields[0]!.relationships.course).toMatchObject({ id: serviceCourse.id });
    // The participation's update went with its POST: no PATCH at all.
    expect(carriedOut()).toEqual([
      'POST /courses 201',
      `POST /courses/${serviceCourse.id}/participations 201`,
      `POST /courses/${serviceCourse.id}/customfields 201`,
    ]);
    // The replica holds the records under their service ids; the old ids are translated.
    expect(row(world, 'courses', serviceCourse.id)).toMatchObject({ local_state: null });
    expect(row(world, 'participations', participations[0]!.id)).toMatchObject({
      course_id: serviceCourse.id,
      local_state: null,
    });
    expect(row(world, 'customfields', fields[0]!.id)).toMatchObject({
      course_id: serviceCourse.id,
    });
    expect(row(world, 'participations', participation.id)).toBeUndefined();
    expect(row(world, 'customfields', field.id)).toBeUndefined();
    const later = await write(world, 'participation.update', {
      courseId: course.id,
      id: participation.id,
      attributes: { paid: true },
    });
    expect(later.id).toBe(participations[0]!.id);
  });

  it('an occasion created offline and an hour entry of it', async () => {
    const anlass = await write(world, 'helferstunden_anlass.create', {
      attributes: { typ: 'sonstiges', beschreibung: 'Kettenanlass' },
    });
    const hour = await write(world, 'helferstunden.create', {
      attributes: { von: '2026-11-19T18:00:00+01:00', stunden: 1.5, bemerkung: 'an der Kette' },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: anlass.id } },
        typ: { data: { type: 'helferstunden_typ', id: '1' } },
      },
    });
    expect(row(world, 'helferstunden', hour.id)).toMatchObject({
      anlass_id: anlass.id,
      local_state: 'created',
    });
    const summary = await push(world);
    expect(summary).toMatchObject({ parked: 0, unknown: 0, waiting: 0 });
    expect(await outbox(world)).toEqual([]);
    expectNoTemporaryIds(world);
    const occasion = store()
      .all('helferstunden_anlass')
      .find((a) => a.attributes.beschreibung === 'Kettenanlass')!;
    const entries = store()
      .all('helferstunden')
      .filter((h) => h.attributes.bemerkung === 'an der Kette');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.relationships.anlass).toMatchObject({ id: occasion.id });
    expect(row(world, 'helferstunden', entries[0]!.id)).toMatchObject({
      anlass_id: occasion.id,
      local_state: null,
    });
  });

  it('create then delete before sending: nothing is sent', async () => {
    const calendar = await write(world, 'kalender.create', {
      attributes: { name: 'Nie gesendet' },
    });
    const deleted = await write(world, 'kalender.delete', { id: calendar.id });
    expect(deleted).toMatchObject({ operation: null, state: 'nothing to send' });
    const course = store()
      .all('course')
      .find((c) => c.attributes.status === 'ready')!;
    const p = await write(world, 'participation.create', {
      courseId: course.id,
      attributes: { first_name: 'Eben', last_name: 'Weg' },
    });
    await write(world, 'participation.update', {
      courseId: course.id,
      id: p.id,
      attributes: { comment: 'doch nicht' },
    });
    const field = await write(world, 'customfield.create', {
      courseId: course.id,
      attributes: { name: 'Flüchtig', field_type: 'text' },
    });
    await write(world, 'customfield.delete', { courseId: course.id, id: field.id });
    expect(row(world, 'kalender', calendar.id)).toBeUndefined();
    expect(row(world, 'customfields', field.id)).toBeUndefined();
    // A participation has no delete: discarding its create drops its queued update with it.
    await call(world, 'outbox.discard', { id: (await outbox(world))[0]!.id });
    expect(row(world, 'participations', p.id)).toBeUndefined();
    expect(await outbox(world)).toEqual([]);

    world.sandbox.clearRequests();
    const summary = await push(world);
    expect(summary.requests).toBe(0);
    expect(world.sandbox.requests).toEqual([]);
    expect(
      store()
        .all('kalender')
        .filter((k) => k.attributes.name === 'Nie gesendet'),
    ).toEqual([]);
  });
});

describe('coalescing', () => {
  it('POST + PATCH: one POST with the final values', async () => {
    const hour = await write(world, 'helferstunden.create', {
      attributes: { von: '2026-11-18T08:00:00+01:00', stunden: 1, bemerkung: 'erst' },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: '1' } },
        typ: { data: { type: 'helferstunden_typ', id: '3' } },
      },
    });
    const update = await write(world, 'helferstunden.update', {
      id: hour.id,
      attributes: { stunden: 3.5, bemerkung: 'zuletzt' },
    });
    expect(update.operation).toBe(hour.operation);
    world.sandbox.clearRequests();
    world.clearSent();
    await push(world);
    expect(carriedOut()).toEqual(['POST /helferstunden 201']);
    const posts = sentBodies('POST');
    expect(posts.at(-1)!.data.attributes).toEqual({
      von: '2026-11-18T08:00:00+01:00',
      stunden: 3.5,
      bemerkung: 'zuletzt',
    });
    const entries = store()
      .all('helferstunden')
      .filter((h) => h.attributes.bemerkung === 'zuletzt');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.attributes.stunden).toBe(3.5);
  });

  it('PATCH + PATCH: one PATCH with only the changed attributes', async () => {
    const participation = store()
      .all('participation')
      .find((p) => p.attributes.status === 'registered' && p.attributes.paid === false)!;
    const courseId = (participation.relationships.course as { id: string }).id;
    const before = participation.attributes;
    await write(world, 'participation.update', {
      courseId,
      id: participation.id,
      attributes: { comment: 'eins', first_name: before.first_name },
    });
    await write(world, 'participation.update', {
      courseId,
      id: participation.id,
      attributes: { paid: true, comment: 'zwei' },
    });
    expect(await outbox(world)).toHaveLength(1);
    world.sandbox.clearRequests();
    world.clearSent();
    await push(world);
    expect(carriedOut()).toEqual([
      `PATCH /courses/${courseId}/participations/${participation.id} 200`,
    ]);
    expect(sentBodies('PATCH')[0]!.data.attributes).toEqual({ comment: 'zwei', paid: true });
    expect(store().get('participation', participation.id)!.attributes).toMatchObject({
      comment: 'zwei',
      paid: true,
      first_name: before.first_name,
      last_name: before.last_name,
    });
  });

  it('a PATCH of the values the service already has sends nothing', async () => {
    const entry = store()
      .all('helferstunden')
      .find((h) => (h.relationships.user as { id: string } | null)?.id === world.officeId)!;
    const receipt = await write(world, 'helferstunden.update', {
      id: entry.id,
      attributes: { stunden: entry.attributes.stunden, bemerkung: entry.attributes.bemerkung },
    });
    expect(receipt.operation).not.toBeNull();
    world.sandbox.clearRequests();
    const summary = await push(world);
    expect(summary).toMatchObject({ requests: 0, done: 1 });
    expect(world.sandbox.requests).toEqual([]);
    expect(await outbox(world)).toEqual([]);
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({ local_state: null });
  });
});
