// A sync in a worker thread: same replica as in-process, progress and errors reach the caller.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { ApiError } from '../../sync/api';
import { openReplica } from '../../sync/db/open';
import { EVERY_ITEM_EVERY_SYNC, type SyncProgress } from '../../sync/pull/options';
import { pathToFileURL } from 'node:url';
import { runSyncInWorker, SYNC_WORKER_HEAP_MB } from '../../sync/pull/worker';
import { expectOfficeReplica } from '../support/service-oracle';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 9 });
  dir = mkdtempSync(join(tmpdir(), 'vorort-worker-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('runSyncInWorker', () => {
  it('fills the replica as an in-process sync would, reporting progress', async () => {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    const file = join(dir, 'worker.sqlite');
    const progress: SyncProgress[] = [];
    const summary = await runSyncInWorker({
      replicaFile: file,
      token: office.accessToken,
      client: { baseUrl: sandbox.baseUrl },
      options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
      onProgress: (event) => progress.push(event),
    });
    expect(summary.ok).toBe(true);
    expect(new Set(progress.map((p) => p.collection))).toContain('helferstunden');
    const replica = openReplica(file);
    try {
      const target = { baseUrl: sandbox.baseUrl, token: office.accessToken };
      await expectOfficeReplica(replica.sqlite, target);
    } finally {
      await replica.close();
    }
  });

  it('hands the service’s refusal back as an ApiError', async () => {
    const error = await runSyncInWorker({
      replicaFile: join(dir, 'refused.sqlite'),
      token: 'wrong',
      client: { baseUrl: sandbox.baseUrl },
      options: { profile: 'office' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('auth');
    expect((error as ApiError).message).toMatch(/401/);
  });

  it('says in words when a sync needed more memory than the worker may use', async () => {
    // A worker that keeps everything it allocates: it reaches the limit as a runaway sync would.
    const hungry = join(dir, 'hungry.mjs');
    writeFileSync(
      hungry,
      'const kept = []; for (;;) kept.push(new Array(100_000).fill(kept.length));',
    );
    const error = await runSyncInWorker({
      replicaFile: join(dir, 'hungry.sqlite'),
      token: 'unused',
      client: { baseUrl: sandbox.baseUrl },
      options: { profile: 'office' },
      workerUrl: pathToFileURL(hungry),
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `it needed more than the ${SYNC_WORKER_HEAP_MB} MB of memory it may use and stopped; what it had written is kept and the next sync goes on from there`,
    );
  }, 60_000);

  it('stops when cancelled', async () => {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    const abort = new AbortController();
    const run = runSyncInWorker({
      replicaFile: join(dir, 'cancelled.sqlite'),
      token: office.accessToken,
      client: { baseUrl: sandbox.baseUrl },
      options: { profile: 'office' },
      signal: abort.signal,
      onProgress: () => abort.abort(),
    });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('cancelled');
  });
});
