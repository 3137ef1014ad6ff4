// The background scheduler against the sandbox over HTTP: never two syncs at once, a local write
// pushed after the debounce, and offline when the service stops: probes with backoff, no syncs,
// and a sync by itself once the service is back on the same port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createApiClient, type ApiClient } from '../../sync/api';
import type { SchedulerState } from '../../sync/contract';
import { openReplica, type Replica } from '../../sync/db/open';
import { callOrThrow, createDispatcher } from '../../sync/dispatch';
import { reachable, replicaCounts, syncOnce, SyncScheduler } from '../../sync/scheduler';
import { REAL_TIMERS, type SchedulerTimers } from '../../sync/scheduler/scheduler';
import { temporaryFiles } from '../support/temp-files';

const tempFile = temporaryFiles('scheduler-sandbox');
const dataFile = tempFile('service.sqlite');
const SANDBOX = { data: dataFile, scale: 'small', seed: 21 } as const;

let sandbox: RunningSandbox;
let replica: Replica;
let api: ApiClient;

/** The office token of the sandbox now running (a restarted sandbox issues new tokens). */
const officeToken = () => sandbox.users.find((u) => u.role === 'office')!.accessToken;

beforeAll(async () => {
  sandbox = await startSandbox(SANDBOX);
  replica = openReplica(tempFile('replica.sqlite'));
  api = createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens: { getAccessToken: async () => officeToken() },
    maxRetries: 1,
    backoff: { baseMs: 50, maxMs: 200 },
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  await replica?.close();
  await sandbox?.close();
});

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A scheduler on real timers (recording the delays it asks for) that counts its syncs and probes. */
function scheduler(options: Partial<ConstructorParameters<typeof SyncScheduler>[0]> = {}) {
  const states: SchedulerState[] = [];
  const delays: number[] = [];
  const probes: { at: number; answer: boolean }[] = [];
  const probeHeaders: Headers[] = [];
  let runs = 0;
  let active = 0;
  let maxActive = 0;
  const timers: SchedulerTimers = {
    ...REAL_TIMERS,
    setTimeout: (callback, ms) => {
      delays.push(ms);
      return REAL_TIMERS.setTimeout(callback, ms);
    },
  };
  const instance = new SyncScheduler({
    timers,
    random: () => 0.5,
    intervalMs: 10 * 60_000,
    writeDebounceMs: 300,
    probeStartMs: 200,
    probeMaxMs: 1_600,
    runOnce: async (signal, onProgress) => {
      runs += 1;
      active += 1;
      maxActive = Math.max(maxActive, active);
      try {
        return await syncOnce({
          api,
          replica,
          profile: 'office',
          signal,
          onProgress,
          pushMaxWaitMs: 0,
        });
      } finally {
        active -= 1;
      }
    },
    probe: async (signal) => {
      const answer = await reachable(sandbox.baseUrl, {
        signal,
        timeoutMs: 2_000,
        fetch: (input, init) => {
          probeHeaders.push(new Headers(init?.headers));
          return fetch(input, init);
        },
      });
      probes.push({ at: Date.now(), answer });
      return answer;
    },
    readCounts: () => replicaCounts(replica.sqlite),
    onState: (state) => states.push(state),
    ...options,
  });
  return {
    scheduler: instance,
    states,
    delays,
    probes,
    probeHeaders,
    runs: () => runs,
    maxActive: () => maxActive,
    last: () => states.at(-1),
  };
}

describe('the scheduler against the sandbox', () => {
  it('never runs two syncs at once: triggers during a sync make exactly one more', async () => {
    const s = scheduler();
    s.scheduler.start();
    await until('the first sync', () => s.last()?.phase === 'syncing');
    s.scheduler.syncNow();
    s.scheduler.syncNow();
    s.scheduler.localWrite();
    s.scheduler.loginChanged();
    s.scheduler.networkChanged(true);
    await s.scheduler.idle();
    expect(s.runs()).toBe(2);
    expect(s.maxActive()).toBe(1);
    expect(s.last()).toMatchObject({ phase: 'idle', problem: null, pending: 0, parked: 0 });
    expect(s.last()!.lastSuccessfulSyncAt).not.toBeNull();
    await s.scheduler.stop();
  }, 30_000);

  it('pushes local writes a debounce after the last one, in one sync', async () => {
    const s = scheduler();
    s.scheduler.start();
    await until('the first sync', () => s.runs() === 1 && s.last()?.phase === 'idle');
    const dispatcher = createDispatcher(replica, { onCommand: () => s.scheduler.localWrite() });
    sandbox.clearRequests();
    const names = ['Planung A', 'Planung B', 'Planung C'];
    for (const name of names)
      await callOrThrow(dispatcher, 'kalender.create', { attributes: { name } });
    expect(s.last()).toMatchObject({ phase: 'idle', pending: 3 });
    expect(s.delays.at(-1)).toBe(300);
    await until('the push', () => s.runs() === 2 && s.last()?.phase === 'idle');
    expect(s.last()).toMatchObject({ pending: 0, parked: 0 });
    const posts = sandbox.requests.filter(
      (r) => r.method === 'POST' && r.path.endsWith('/kalender'),
    );
    // Each created once (a 403 is this service refusing client-generated ids: sent again without).
    expect(posts.filter((r) => r.status === 201)).toHaveLength(3);
    expect(posts.every((r) => r.status === 201 || r.status === 403)).toBe(true);
    const onService = sandbox.store.all('kalender').map((k) => k.attributes.name);
    expect(onService).toEqual(expect.arrayContaining(names));
    await s.scheduler.stop();
  }, 30_000);

  it('goes offline when the service stops, probes with backoff (no token), and syncs by itself when it is back', async () => {
    const s = scheduler();
    s.scheduler.start();
    await until('the first sync', () => s.runs() === 1 && s.last()?.phase === 'idle');
    const port = Number(new URL(sandbox.origin).port);
    await sandbox.close();

    s.scheduler.syncNow();
    await until('offline', () => s.last()?.phase === 'offline');
    expect(s.last()!.problem).toMatchObject({ kind: 'network' });
    expect(s.runs()).toBe(2);
    const offlineFrom = s.delays.length - 1;
    await until('four failed probes', () => s.probes.filter((p) => !p.answer).length >= 4);
    // Only probes while offline, each twice as long after the last (at most probeMaxMs).
    expect(s.runs()).toBe(2);
    expect(s.delays.slice(offlineFrom, offlineFrom + 4)).toEqual([200, 400, 800, 1_600]);
    for (const headers of s.probeHeaders) expect(headers.has('authorization')).toBe(false);

    // The same service is back on the same port: nobody calls anything.
    sandbox = await startSandbox({ ...SANDBOX, port });
    await until('a sync without any action', () => s.last()?.phase === 'idle' && s.runs() === 3);
    expect(s.probes.at(-1)!.answer).toBe(true);
    expect(s.last()).toMatchObject({ problem: null, nextAttemptAt: expect.any(String) });
    expect(sandbox.requests.length).toBeGreaterThan(0);
    expect(s.maxActive()).toBe(1);
    await s.scheduler.stop();
  }, 30_000);

  it('stop() aborts a running sync and returns once it has; what was applied stays', async () => {
    const s = scheduler();
    s.scheduler.start();
    await until('syncing', () => s.last()?.phase === 'syncing');
    await s.scheduler.stop();
    expect(s.runs()).toBe(1);
    // The replica is usable and consistent afterwards: a sync completes it.
    const summary = await syncOnce({ api, replica, profile: 'office' });
    expect(summary.outbox.parked).toBe(0);
  }, 30_000);
});
