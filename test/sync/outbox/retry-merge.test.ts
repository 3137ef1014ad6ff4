// An operation whose earlier attempt may have reached the service, changed before its retry
// (DESIGN rules 5, 7): the answer to a PATCH is lost after the service committed it, so the
// operation waits to be retried; it is edited in the sync centre back to the value the replica's
// base still holds. The retry must send that value: the service may hold the first attempt's.
// (A later write no longer folds into it: test/sync/outbox/lost-answers.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticToken } from '../../../sync/api';
import { pushOutbox } from '../../../sync/outbox/replay';
import { temporaryFiles } from '../../support/temp-files';
import { outbox, push, startWorld, write, type World } from './world';

const tempFile = temporaryFiles('outbox-retry-merge');
let world: World;

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
});
afterAll(() => world.close());

/** The service's notification as plain HTTP reads it. */
async function served(id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${world.sandbox.baseUrl}/benachrichtigungen`, {
    headers: { authorization: `Bearer ${world.officeToken}` },
  });
  expect(response.status).toBe(200);
  const list = (await response.json()) as {
    data: { id: string; attributes: Record<string, unknown> }[];
  };
  return list.data.find((item) => item.id === id)!.attributes;
}

describe('an update whose answer was lost, edited before its retry', () => {
  it('sends the later value even where it equals the base: the service may hold the first', async () => {
    const notification = world.replica.sqlite
      .prepare('SELECT id, gelesen FROM benachrichtigungen WHERE gelesen = 0 LIMIT 1')
      .get() as { id: string };
    expect((await served(notification.id)).gelesen).toBe(false);

    await write(world, 'benachrichtigung.update', {
      id: notification.id,
      attributes: { gelesen: true },
    });
    // The service commits the PATCH; its answer never arrives (the connection drops).
    const losesTheAnswer = createApiClient({
      baseUrl: world.sandbox.baseUrl,
      tokens: staticToken(world.officeToken),
      maxRetries: 0,
      fetch: async (input, init) => {
        await fetch(input, init);
        throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
      },
    });
    await pushOutbox({ api: losesTheAnswer, sqlite: world.replica.sqlite, maxWaitMs: 0 });
    expect((await served(notification.id)).gelesen).toBe(true);
    const [waiting] = (await outbox(world)).filter((op) => op.state !== 'done');
    expect(waiting?.state).toBe('retrying');

    // The waiting operation edited in the sync centre to unread again: the base's value.
    const edited = await world.dispatcher.call('outbox.edit', {
      id: waiting!.id,
      arguments: { id: notification.id, attributes: { gelesen: false } },
    });
    expect(edited.ok, JSON.stringify(edited)).toBe(true);
    world.replica.sqlite.prepare('UPDATE outbox SET next_attempt_at = NULL').run();
    await push(world);
    expect((await outbox(world)).filter((op) => op.state !== 'done')).toEqual([]);
    expect((await served(notification.id)).gelesen).toBe(false);
  });
});
