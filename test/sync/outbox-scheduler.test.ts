// Rule 12 in a long-running process: a local write starts a push by itself, a failed attempt is
// tried again when its retry time comes, with no one calling sync.
import { EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { callOrThrow, createDispatcher } from '../../sync/dispatch';
import { nextDue, pushOutbox } from '../../sync/outbox/replay';
import { OutboxScheduler } from '../../sync/outbox/scheduler';
import { runSync } from '../../sync/pull/engine';
import { temporaryFiles } from '../support/temp-files';

const tempFile = temporaryFiles('scheduler');
let sandbox: RunningSandbox;
let replica: Replica;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 12 });
  const token = sandbox.users.find((u) => u.role === 'office')!.accessToken;
  replica = openReplica(tempFile('replica.db'));
  const api = createApiClient({ baseUrl: sandbox.baseUrl, tokens: staticToken(token) });
  await runSync({ api, replica, options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC } });
}, 120_000);

afterAll(async () => {
  await replica?.close();
  await sandbox?.close();
});

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

it('sends a local write without anyone asking, and retries a throttled one when it is due', async () => {
  const token = sandbox.users.find((u) => u.role === 'office')!.accessToken;
  let throttle = 1;
  const api = createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens: staticToken(token),
    maxRetries: 0,
    // The first write meets one 429 with Retry-After: 1, as a throttled service answers.
    fetch: async (input, init) => {
      if (init?.method === 'POST' && throttle > 0) {
        throttle -= 1;
        return new Response(JSON.stringify({ errors: [{ status: '429', title: 'Too Many' }] }), {
          status: 429,
          headers: { 'content-type': 'application/vnd.api+json', 'retry-after': '1' },
        });
      }
      return fetch(input, init);
    },
  });
  const scheduler = new OutboxScheduler({
    push: () => pushOutbox({ api, sqlite: replica.sqlite, maxWaitMs: 0 }),
    nextDue: () => nextDue(replica.sqlite),
  });
  const dispatcher = createDispatcher(replica, { onCommand: () => scheduler.kick() });
  const receipt = await callOrThrow(dispatcher, 'kalender.create', {
    attributes: { name: 'Von selbst gesendet' },
  });
  const open = () =>
    replica.sqlite.prepare("SELECT count(*) FROM outbox WHERE state <> 'done'").pluck().get();
  await until(() => open() === 0);
  const mapped = replica.sqlite
    .prepare('SELECT service_id FROM id_map WHERE local_id = ?')
    .pluck()
    .get(receipt.id) as string;
  expect(sandbox.store.get('kalender', mapped)?.attributes.name).toBe('Von selbst gesendet');
  expect(throttle).toBe(0);
  scheduler.stop();
}, 60_000);
