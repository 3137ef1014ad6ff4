// Unknown outcomes: a crash after the service committed a POST leaves the operation in flight in
// the database; the next push looks for the record and adopts it instead of creating it twice,
// or, where the service takes client-generated ids, sends it again and reads 409 as "created".
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryFiles } from '../../support/temp-files';
import {
  expectNoTemporaryIds,
  outbox,
  push,
  row,
  startWorld,
  write,
  writesLogged,
  type World,
} from './world';

const tempFile = temporaryFiles('outbox-unknown');

/** The service assigns its own ids for this type (as the probe would have found). */
function clientIdsRefused(world: World, type: string) {
  world.replica.sqlite
    .prepare(
      'INSERT OR REPLACE INTO client_ids (record_type, accepted, probed_at) VALUES (?, 0, ?)',
    )
    .run(type, new Date().toISOString());
}

/** The request left and the service committed it; then the process died before the answer was saved. */
async function crashAfterCommit(world: World, operation: number, clientId: string | null) {
  const op = world.replica.sqlite.prepare('SELECT * FROM outbox WHERE id = ?').get(operation) as {
    command: string;
    args: string;
  };
  const args = JSON.parse(op.args) as { courseId?: string; attributes: Record<string, unknown> };
  const path =
    op.command === 'kalender.create' ? '/kalender' : `/courses/${args.courseId}/participations`;
  const type = op.command === 'kalender.create' ? 'kalender' : 'participation';
  const body = {
    data: { type, ...(clientId ? { id: clientId } : {}), attributes: args.attributes },
  };
  const sentAt = new Date().toISOString();
  world.replica.sqlite
    .prepare(
      `UPDATE outbox SET state = 'in_flight', attempts = 1, sent_at = ?, fingerprint = ?, client_id = ?
       WHERE id = ?`,
    )
    .run(sentAt, JSON.stringify(body), clientId, operation);
  await world.api.send('POST', path, { body });
}

describe('a POST whose answer was lost, on a service without client ids', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(tempFile('replica.sqlite'));
  });
  afterAll(() => world.close());

  it.each([
    { label: 'a calendar', command: 'kalender.create' },
    { label: 'a participation', command: 'participation.create' },
  ])('$label is looked for and adopted, not created twice', async ({ command }) => {
    const type = command.split('.')[0]!;
    clientIdsRefused(world, type);
    const course = world.sandbox.store.all('course').find((c) => c.attributes.status === 'ready')!;
    const receipt =
      command === 'kalender.create'
        ? await write(world, command, { attributes: { name: 'Verlorene Antwort' } })
        : await write(world, command, {
            courseId: course.id,
            attributes: { first_name: 'Ver', last_name: 'Loren' },
          });
    await crashAfterCommit(world, receipt.operation!, null);
    const before = world.sandbox.store.count(type as 'kalender');
    world.sandbox.clearRequests();
    const summary = await push(world);
    expect(summary).toMatchObject({ parked: 0, unknown: 0, done: 1 });
    expect(writesLogged(world)).toEqual([]);
    expect(world.sandbox.store.count(type as 'kalender')).toBe(before);
    expect(await outbox(world)).toEqual([]);
    expectNoTemporaryIds(world);
    const created = world.sandbox.store
      .all(type as 'kalender')
      .filter(
        (r) => r.attributes.name === 'Verlorene Antwort' || r.attributes.last_name === 'Loren',
      );
    expect(created).toHaveLength(1);
    const table = type === 'kalender' ? 'kalender' : 'participations';
    expect(row(world, table, created[0]!.id)).toMatchObject({ local_state: null });
    expect(row(world, table, receipt.id)).toBeUndefined();
  });

  it('an occasion tried while the service was unreachable goes once it is back (a refused connection delivered nothing)', async () => {
    clientIdsRefused(world, 'helferstunden_anlass');
    await write(world, 'helferstunden_anlass.create', {
      attributes: { typ: 'sonstiges', beschreibung: 'Nie angekommen' },
    });
    await push(world, world.offline);
    const summary = await push(world, world.api, 15_000);
    expect(summary, JSON.stringify(await outbox(world))).toMatchObject({ unknown: 0, parked: 0 });
    expect(await outbox(world)).toEqual([]);
    expect(
      world.sandbox.store
        .all('helferstunden_anlass')
        .filter((a) => a.attributes.beschreibung === 'Nie angekommen'),
    ).toHaveLength(1);
  });
});

describe('a POST whose answer was lost, on a service that takes client ids', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(tempFile('replica.sqlite'), { clientIds: true });
  });
  afterAll(() => world.close());

  it('is sent again with the same client id; 409 means created, and the record is adopted', async () => {
    const receipt = await write(world, 'kalender.create', {
      attributes: { name: 'Mit Client-Id' },
    });
    await crashAfterCommit(world, receipt.operation!, randomUUID());
    world.sandbox.clearRequests();
    const summary = await push(world);
    expect(summary).toMatchObject({ parked: 0, unknown: 0, done: 1 });
    expect(writesLogged(world)).toEqual(['POST /kalender 409']);
    const created = world.sandbox.store
      .all('kalender')
      .filter((k) => k.attributes.name === 'Mit Client-Id');
    expect(created).toHaveLength(1);
    expect(await outbox(world)).toEqual([]);
    expectNoTemporaryIds(world);
    expect(row(world, 'kalender', created[0]!.id)).toMatchObject({ local_state: null });
  });

  it('a new create carries a client id and is accepted at once', async () => {
    await write(world, 'kalender.create', { attributes: { name: 'Neu mit Id' } });
    world.sandbox.clearRequests();
    world.clearSent();
    await push(world);
    expect(writesLogged(world)).toEqual(['POST /kalender 201']);
    const body = world.sent[0]!.body as { data: { id?: string } };
    expect(body.data.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
