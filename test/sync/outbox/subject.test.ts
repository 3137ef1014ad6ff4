// outbox.list says what record each operation concerns (its subject), so the sync centre can put
// it in words: the participant's name for a cancelled participation, the day, hours and occasion
// of an hours entry (created with an occasion made offline), a custom field's name with its
// course, an occasion's description; read from a real replica pulled from the sandbox, and kept
// by outbox.retry and outbox.edit's answers; conflicts.list names its records the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConflictEntry, OutboxEntry } from '../../../sync/contract';
import { temporaryFiles } from '../../support/temp-files';
import {
  call,
  outbox,
  push,
  row,
  serviceWrite,
  startWorld,
  syncFrom,
  write,
  type World,
} from './world';

const tempFile = temporaryFiles('outbox-subject');

let world: World;
const store = () => world.sandbox.store;

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
});
afterAll(() => world.close());

const entryOf = async (operation: number | null): Promise<OutboxEntry> => {
  const entry = (await outbox(world)).find((e) => e.id === operation);
  expect(entry, `operation ${operation} in outbox.list`).toBeDefined();
  return entry!;
};

describe('outbox.list names the record of each operation', () => {
  it('participations, hours with an occasion created offline, custom fields, occasions', async () => {
    // A course of the replica with an active participation (the replica's own names).
    const participation = world.replica.sqlite
      .prepare(
        `SELECT p.id, p.course_id, p.first_name, p.last_name, c.title FROM participations p
         JOIN courses c ON c.id = p.course_id
         WHERE p.status <> 'cancelled' AND p.first_name <> '' AND p.last_name <> '' LIMIT 1`,
      )
      .get() as {
      id: string;
      course_id: string;
      first_name: string;
      last_name: string;
      title: string;
    };
    expect(participation).toBeDefined();

    const cancel = await write(world, 'participation.cancel', {
      courseId: participation.course_id,
      id: participation.id,
      attributes: { reason: 'krank' },
    });
    const walkIn = await write(world, 'participation.create', {
      courseId: participation.course_id,
      attributes: { first_name: 'Mia', last_name: 'Spontan' },
    });
    const anlass = await write(world, 'helferstunden_anlass.create', {
      attributes: { typ: 'kurs', beschreibung: 'Erste Hilfe am Samstag', datum: '2026-11-21' },
    });
    const hours = await write(world, 'helferstunden.create', {
      attributes: {
        von: '2026-11-21T08:00:00+01:00',
        bis: '2026-11-21T12:00:00+01:00',
        stunden: 4,
      },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: anlass.id } },
        typ: { data: { type: 'helferstunden_typ', id: '2' } },
      },
    });
    const field = await write(world, 'customfield.create', {
      courseId: participation.course_id,
      attributes: { name: 'Schuhgröße', field_type: 'number' },
    });
    const calendar = await write(world, 'kalender.create', { attributes: { name: 'Dienste' } });

    expect((await entryOf(cancel.operation)).subject).toEqual({
      kind: 'participation',
      label: `${participation.first_name} ${participation.last_name}`,
      context: participation.title,
    });
    expect((await entryOf(walkIn.operation)).subject).toEqual({
      kind: 'participation',
      label: 'Mia Spontan',
      context: participation.title,
    });
    expect((await entryOf(anlass.operation)).subject).toEqual({
      kind: 'helferstunden_anlass',
      label: 'Erste Hilfe am Samstag',
      day: '2026-11-21',
    });
    // The occasion is the one created offline (a local- id in the relationship).
    expect(anlass.id).toMatch(/^local-/);
    expect((await entryOf(hours.operation)).subject).toEqual({
      kind: 'helferstunden',
      label: 'Erste Hilfe am Samstag',
      day: '2026-11-21',
      hours: 4,
    });
    expect((await entryOf(field.operation)).subject).toEqual({
      kind: 'customfield',
      label: 'Schuhgröße',
      context: participation.title,
    });
    expect((await entryOf(calendar.operation)).subject).toEqual({
      kind: 'kalender',
      label: 'Dienste',
    });
  });

  it('a name changed offline shows as changed; a deleted hours entry keeps its day and hours', async () => {
    const participation = world.replica.sqlite
      .prepare(
        "SELECT id, course_id FROM participations WHERE status <> 'cancelled' AND local_state IS NULL LIMIT 1",
      )
      .get() as { id: string; course_id: string };
    const renamed = await write(world, 'participation.update', {
      courseId: participation.course_id,
      id: participation.id,
      attributes: { first_name: 'Neuer', last_name: 'Name' },
    });
    expect((await entryOf(renamed.operation)).subject).toMatchObject({
      kind: 'participation',
      label: 'Neuer Name',
    });

    const entry = store()
      .all('helferstunden')
      .find(
        (h) => typeof h.attributes.stunden === 'number' && typeof h.attributes.von === 'string',
      )!;
    const deleted = await write(world, 'helferstunden.delete', { id: entry.id });
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({ local_state: 'deleted' });
    expect((await entryOf(deleted.operation)).subject).toMatchObject({
      kind: 'helferstunden',
      day: (entry.attributes.von as string).slice(0, 10),
      hours: entry.attributes.stunden,
    });
  });

  it('outbox.retry and outbox.edit answer the entry with its subject', async () => {
    const participation = world.replica.sqlite
      .prepare(
        "SELECT id, course_id FROM participations WHERE status <> 'cancelled' AND local_state IS NULL LIMIT 1",
      )
      .get() as { id: string; course_id: string };
    const created = await write(world, 'participation.create', {
      courseId: participation.course_id,
      attributes: { first_name: 'Ria', last_name: 'Retry' },
    });
    const retried = await call<OutboxEntry>(world, 'outbox.retry', { id: created.operation });
    expect(retried.subject).toMatchObject({ kind: 'participation', label: 'Ria Retry' });
    const edited = await call<OutboxEntry>(world, 'outbox.edit', {
      id: created.operation,
      arguments: {
        courseId: participation.course_id,
        attributes: { first_name: 'Ria', last_name: 'Richtig' },
      },
    });
    expect(edited.subject).toMatchObject({ kind: 'participation', label: 'Ria Richtig' });
  });

  it('an operation whose record the replica no longer shows is named from its arguments', async () => {
    const course = world.replica.sqlite
      .prepare('SELECT id FROM courses WHERE local_state IS NULL LIMIT 1')
      .pluck()
      .get() as string;
    const created = await write(world, 'participation.create', {
      courseId: course,
      attributes: { first_name: 'Olga', last_name: 'Ohnezeile' },
    });
    // As if the row were gone (a full resync that dropped it): the arguments still say who.
    world.replica.sqlite.prepare('DELETE FROM participations WHERE id = ?').run(created.id);
    expect((await entryOf(created.operation)).subject).toMatchObject({
      kind: 'participation',
      label: 'Olga Ohnezeile',
    });
    // Sent and accepted, it leaves the list (nothing left to name).
    await push(world);
  });

  it('conflicts.list names the record of each conflict', async () => {
    const entry = store()
      .all('helferstunden')
      .find(
        (h) =>
          (h.relationships.user as { id: string } | null)?.id === world.officeId &&
          typeof h.attributes.von === 'string' &&
          row(world, 'helferstunden', h.id)?.local_state === null,
      )!;
    const anlassId = (entry.relationships.anlass as { id: string } | null)?.id;
    const beschreibung = anlassId
      ? (row(world, 'helferstunden_anlaesse', anlassId)?.beschreibung ?? null)
      : null;
    await write(world, 'helferstunden.update', { id: entry.id, attributes: { stunden: 3.5 } });
    const answer = await serviceWrite(world, 'PATCH', `/helferstunden/${entry.id}`, {
      data: { type: 'helferstunden', id: entry.id, attributes: { stunden: 6 } },
    });
    expect(answer.status).toBe(200);
    await syncFrom(world.api, world.replica);
    const conflict = (await call<ConflictEntry[]>(world, 'conflicts.list', {})).find(
      (c) => c.recordId === entry.id,
    );
    expect(conflict).toMatchObject({
      field: 'stunden',
      subject: {
        kind: 'helferstunden',
        label: beschreibung,
        day: (entry.attributes.von as string).slice(0, 10),
        hours: 3.5,
      },
    });
  });
});
