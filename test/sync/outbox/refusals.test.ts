// The service's refusals: each 4xx parks the operation with the service's own words; an edit
// (validated like a new command) or a retry sends it again; a discard shows the service's values
// again. A DELETE answered 404 is done. A 401 that no refresh can cure pauses the queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticToken } from '../../../sync/api';
import type { OutboxEntry } from '../../../sync/contract';
import { temporaryFiles } from '../../support/temp-files';
import {
  apiFor,
  call,
  outbox,
  push,
  row,
  startWorld,
  write,
  writesLogged,
  type World,
} from './world';

const tempFile = temporaryFiles('outbox-refusals');

let world: World;
const store = () => world.sandbox.store;

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
});
afterAll(() => world.close());

async function parkedEntry(operation: number | null): Promise<OutboxEntry> {
  const entry = (await outbox(world)).find((e) => e.id === operation);
  expect(entry?.state).toBe('parked');
  return entry!;
}

function courseWithRoom() {
  return store()
    .all('course')
    .filter((c) => c.attributes.status === 'ready')
    .map((c) => ({
      course: c,
      active: store()
        .all('participation')
        .filter(
          (p) =>
            (p.relationships.course as { id: string }).id === c.id &&
            p.attributes.status !== 'cancelled',
        ).length,
    }));
}

describe('4xx parks with the service’s words', () => {
  it('a participation on a full course: 409 parked, the other records go on; a retry once there is room sends it', async () => {
    const { course, active } = courseWithRoom()[0]!;
    store().put({ ...course, attributes: { ...course.attributes, max_participants: active } });
    const other = await write(world, 'kalender.create', { attributes: { name: 'Unbeirrt' } });
    const p = await write(world, 'participation.create', {
      courseId: course.id,
      attributes: { first_name: 'Voll', last_name: 'Besetzt' },
    });
    const summary = await push(world);
    expect(summary).toMatchObject({ parked: 1 });
    const entry = await parkedEntry(p.operation);
    expect(entry.error?.status).toBe(409);
    expect(entry.error?.message.en).toMatch(/refused \(409\).*full/);
    expect(entry.error?.message.de).toMatch(/abgelehnt \(409\).*full/);
    // The parked record blocks no other; it stays visible, still marked as local.
    expect((await outbox(world)).map((e) => e.id)).toEqual([p.operation]);
    expect(
      store()
        .all('kalender')
        .some((k) => k.attributes.name === 'Unbeirrt'),
    ).toBe(true);
    expect(row(world, 'kalender', other.id)).toBeUndefined();
    expect(row(world, 'participations', p.id)).toMatchObject({ local_state: 'created' });

    // A second push leaves it parked and sends nothing.
    world.sandbox.clearRequests();
    await push(world);
    expect(writesLogged(world)).toEqual([]);

    store().put({
      ...course,
      attributes: { ...course.attributes, max_participants: active + 5 },
    });
    await call(world, 'outbox.retry', { id: p.operation });
    expect(await push(world)).toMatchObject({ parked: 0 });
    expect(await outbox(world)).toEqual([]);
    expect(
      store()
        .all('participation')
        .filter((x) => x.attributes.last_name === 'Besetzt'),
    ).toHaveLength(1);
  });

  it('a participation on a cancelled course: 409 parked; discarding the create removes the row', async () => {
    const { course } = courseWithRoom()[1]!;
    const p = await write(world, 'participation.create', {
      courseId: course.id,
      attributes: { first_name: 'Ab', last_name: 'Gesagt' },
    });
    store().put({ ...course, attributes: { ...course.attributes, status: 'cancelled' } });
    await push(world);
    const entry = await parkedEntry(p.operation);
    expect(entry.error).toMatchObject({ status: 409 });
    expect(entry.error?.message.en).toContain('cancelled');
    await call(world, 'outbox.discard', { id: p.operation });
    expect(row(world, 'participations', p.id)).toBeUndefined();
    expect(await outbox(world)).toEqual([]);
    expect(
      store()
        .all('participation')
        .some((x) => x.attributes.last_name === 'Gesagt'),
    ).toBe(false);
  });

  it('an hour with a type deactivated on the service: 422 parked; outbox.edit (validated) fixes it and it is sent', async () => {
    store().put({
      ...store().get('helferstunden_typ', '5')!,
      attributes: { ...store().get('helferstunden_typ', '5')!.attributes, aktiv: false },
    });
    const hour = await write(world, 'helferstunden.create', {
      attributes: { von: '2026-11-17T10:00:00+01:00', stunden: 2, bemerkung: 'inaktiv' },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: '1' } },
        typ: { data: { type: 'helferstunden_typ', id: '5' } },
      },
    });
    await push(world);
    const entry = await parkedEntry(hour.operation);
    expect(entry.error?.status).toBe(422);
    expect(entry.error?.message.en).toContain('deactivated');

    const args = entry.arguments as {
      attributes: Record<string, unknown>;
      relationships: Record<string, unknown>;
    };
    const wrong = await world.dispatcher.call('outbox.edit', {
      id: hour.operation,
      arguments: { ...args, attributes: { ...args.attributes, erfunden: 1 } },
    });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) {
      expect(wrong.error.code).toBe('invalid_arguments');
      expect(JSON.stringify(wrong.error)).toContain('erfunden');
    }
    const missing = await world.dispatcher.call('outbox.edit', {
      id: hour.operation,
      arguments: { ...args, attributes: { von: args.attributes.von } },
    });
    expect(missing.ok).toBe(false);
    expect((await parkedEntry(hour.operation)).arguments).toEqual(args);

    const edited = await call<OutboxEntry>(world, 'outbox.edit', {
      id: hour.operation,
      arguments: {
        ...args,
        relationships: {
          ...args.relationships,
          typ: { data: { type: 'helferstunden_typ', id: '4' } },
        },
      },
    });
    expect(edited).toMatchObject({ state: 'pending', error: null });
    expect(await push(world)).toMatchObject({ parked: 0 });
    expect(await outbox(world)).toEqual([]);
    const sent = store()
      .all('helferstunden')
      .filter((h) => h.attributes.bemerkung === 'inaktiv');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.relationships.typ).toMatchObject({ id: '4' });
  });

  it('an hour with a type the service does not know: parked; discarding the update restores the base', async () => {
    const entry = store()
      .all('helferstunden')
      .find((h) => (h.relationships.user as { id: string } | null)?.id === world.officeId)!;
    const base = row(world, 'helferstunden', entry.id)!;
    const update = await write(world, 'helferstunden.update', {
      id: entry.id,
      attributes: { stunden: 9.75 },
      relationships: { typ: { data: { type: 'helferstunden_typ', id: '999' } } },
    });
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({
      stunden: 9.75,
      local_state: 'changed',
    });
    await push(world);
    const parked = await parkedEntry(update.operation);
    expect(parked.error?.status).toBeGreaterThanOrEqual(400);
    expect(parked.error?.status).toBeLessThan(500);
    expect(parked.error?.message.en).toContain('999');
    await call(world, 'outbox.discard', { id: update.operation });
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({
      stunden: base.stunden,
      typ_id: base.typ_id,
      local_state: null,
    });
    expect(store().get('helferstunden', entry.id)!.attributes.stunden).toBe(
      entry.attributes.stunden,
    );
  });

  it('a DELETE answered 404 is done', async () => {
    const entry = store()
      .all('helferstunden')
      .filter((h) => (h.relationships.user as { id: string } | null)?.id === world.officeId)[1]!;
    await write(world, 'helferstunden.delete', { id: entry.id });
    store().remove('helferstunden', entry.id);
    world.sandbox.clearRequests();
    const summary = await push(world);
    expect(writesLogged(world)).toEqual([`DELETE /helferstunden/${entry.id} 404`]);
    expect(summary).toMatchObject({ done: 1, parked: 0 });
    expect(await outbox(world)).toEqual([]);
    expect(row(world, 'helferstunden', entry.id)).toBeUndefined();
  });
});

describe('401 with no refresh possible', () => {
  it('pauses the queue for a login; nothing is lost, and with a valid token it goes on', async () => {
    const calendar = await write(world, 'kalender.create', { attributes: { name: 'Nach Login' } });
    const entry = store()
      .all('helferstunden')
      .find((h) => (h.relationships.user as { id: string } | null)?.id === world.officeId)!;
    await write(world, 'helferstunden.update', { id: entry.id, attributes: { stunden: 0.5 } });
    const stale = apiFor(world.sandbox, staticToken('abgelaufen'));
    const summary = await push(world, stale);
    expect(summary.pausedForLogin).toBe(true);
    const waiting = await outbox(world);
    expect(waiting).toHaveLength(2);
    expect(waiting.map((e) => e.state)).toEqual(['pending', 'pending']);
    expect(waiting[0]!.error?.status).toBe(401);
    expect(row(world, 'kalender', calendar.id)).toMatchObject({ local_state: 'created' });
    // Unrelated records go side by side: each request already in flight meets the 401 too, no more.
    const refused = world.sandbox.requests.filter((r) => r.status === 401).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(2);

    const resumed = await push(world);
    expect(resumed).toMatchObject({ pausedForLogin: false, parked: 0, done: 2 });
    expect(await outbox(world)).toEqual([]);
    expect(
      store()
        .all('kalender')
        .filter((k) => k.attributes.name === 'Nach Login'),
    ).toHaveLength(1);
    expect(store().get('helferstunden', entry.id)!.attributes.stunden).toBe(0.5);
  });
});
