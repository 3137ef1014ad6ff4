// A PATCH whose answer was lost: the service may have carried it out while the replica's base
// still holds the value before it. A later change of the same record must still reach the
// service, even when it sets the field back to the base's value (a notification marked read,
// its answer lost, then marked unread again). Found by the chaos test (seed 11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRates } from '../../../sandbox/http/faults';
import { temporaryFiles } from '../../support/temp-files';
import { call, outbox, push, startWorld, write, type World } from './world';

const tempFile = temporaryFiles('outbox-lost-answers');

/** The sandbox keeps this object: a test switches the lost answers on and off in place. */
const faults: { -readonly [K in keyof FaultRates]: FaultRates[K] } = {
  error: 0,
  throttle: 0,
  slow: 0,
  malformed: 0,
  lost: 0,
};

let world: World;
/** Two notifications of the demo data, one per case. */
let notificationIds: string[];
beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'), { faults });
  notificationIds = (await call<{ id: string }[]>(world, 'notifications.list', {})).map(
    (n) => n.id,
  );
  expect(notificationIds.length, 'two notifications in the demo data').toBeGreaterThanOrEqual(2);
});
afterAll(() => world.close());

/** Pushes with every answer lost: the service carries the requests out, the client hears nothing. */
async function pushAnswersLost() {
  faults.lost = 1;
  try {
    await push(world);
  } finally {
    faults.lost = 0;
  }
}

/** Everything due now, then pushed until the outbox is empty. */
async function pushAll() {
  for (const entry of await outbox(world)) await call(world, 'outbox.retry', { id: entry.id });
  await push(world, world.api, 15_000);
  expect(await outbox(world)).toEqual([]);
}

describe('a change after a PATCH whose answer was lost', () => {
  it.each([
    { label: 'sets the field back to the base value', back: true, index: 0 },
    { label: 'sets the field to the value sent before', back: false, index: 1 },
  ])('reaches the service when it $label', async ({ back, index }) => {
    const id = notificationIds[index]!;
    const before = world.sandbox.store.get('benachrichtigung', id)!.attributes.gelesen === true;
    await write(world, 'benachrichtigung.update', { id, attributes: { gelesen: !before } });
    await pushAnswersLost();
    expect(world.sandbox.store.get('benachrichtigung', id)!.attributes.gelesen).toBe(!before);
    const [sent] = await outbox(world);
    expect(sent).toMatchObject({ recordId: id, attempts: 1 });
    expect(sent!.state).not.toBe('done');

    const last = back ? before : !before;
    await write(world, 'benachrichtigung.update', { id, attributes: { gelesen: last } });
    await pushAll();
    expect(world.sandbox.store.get('benachrichtigung', id)!.attributes.gelesen).toBe(last);
    const shown = await call<{ id: string; gelesen: boolean; localState: string | null }[]>(
      world,
      'notifications.list',
      {},
    );
    expect(shown.find((n) => n.id === id)).toMatchObject({ gelesen: last, localState: null });
  });
});
