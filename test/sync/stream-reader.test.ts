// Issue 25's streaming reader in a sync. A `/personal` answer read as a stream and cut off changes
// nothing of the replica (DESIGN rule 14: nothing of a document is applied before it ended
// cleanly, though most of its people were read, checked and mapped by then). And the office's
// first sync at scale `large` fits a heap on which reading `/personal` whole does not.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica } from '../../sync/db/open';
import { runSync } from '../../sync/pull/engine';
import { spawnSandbox, type SandboxProcess } from '../support/sandbox-process';
import { snapshotReplica } from '../support/replica-snapshot';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('a /personal answer cut off while it is read as a stream', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', seed: 25 });
    dir = mkdtempSync(join(tmpdir(), 'vorort-stream-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The office's client, reading every list answer as a stream; with `cut`, every answer of
   * `/personal` arrives whole in its headers but ends after half its body (as a transfer cut off
   * by a proxy would), on every attempt.
   */
  function office(cut: { bytes: number; answers: number } | null) {
    const token = sandbox.users.find((u) => u.role === 'office')!.accessToken;
    const cutting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (cut === null || !url.pathname.endsWith('/personal')) return response;
      const body = new Uint8Array(await response.arrayBuffer());
      cut.answers += 1;
      cut.bytes = body.byteLength;
      return new Response(body.subarray(0, Math.floor(body.byteLength / 2)), {
        status: response.status,
        headers: { 'content-type': response.headers.get('content-type') ?? '' },
      });
    };
    return createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(token),
      fetch: cutting,
      streamAnswersFromBytes: 0,
      backoff: { baseMs: 1, maxMs: 5 },
    });
  }

  it('changes nothing: no person, qualification or training, no quarantine, no watermark', async () => {
    const replica = openReplica(join(dir, 'cut.sqlite'));
    try {
      const first = await runSync({ api: office(null), replica, options: { profile: 'office' } });
      expect(first.ok, JSON.stringify(first.collections)).toBe(true);
      const before = snapshotReplica(replica.sqlite);
      // The collection's state (its watermark, its last scan), but for the error it notes.
      const personalState = () => {
        const state = replica.sqlite
          .prepare("SELECT * FROM sync_state WHERE collection = 'personal'")
          .get() as Record<string, unknown>;
        const { last_error: _error, ...rest } = state;
        return rest;
      };
      const stateBefore = personalState();
      const quarantineBefore = replica.sqlite.prepare('SELECT * FROM quarantine').all();

      // The service changes: every person renamed, so a whole answer changes every row. (None is
      // removed: a person's own requests, their checks, would find them gone and remove them.)
      for (const person of sandbox.store.all('user'))
        sandbox.store.put({
          ...person,
          attributes: { ...person.attributes, nachname: `Neu ${String(person.id)}` },
        });

      const cut = { bytes: 0, answers: 0 };
      const broken = await runSync({
        api: office(cut),
        replica,
        options: { profile: 'office', full: true },
      });
      expect(cut.answers).toBeGreaterThan(1); // fetched again, and cut again
      expect(cut.bytes).toBeGreaterThan(20_000); // half of it is many people read before the cut
      expect(broken.collections.personal?.error).toContain('cut off');
      expect(snapshotReplica(replica.sqlite).users).toEqual(before.users);
      expect(snapshotReplica(replica.sqlite).qualifikationen).toEqual(before.qualifikationen);
      expect(snapshotReplica(replica.sqlite).ausbildungen).toEqual(before.ausbildungen);
      expect(personalState()).toEqual(stateBefore);
      expect(replica.sqlite.prepare('SELECT * FROM quarantine').all()).toEqual(quarantineBefore);

      // The same answer whole is applied: the cut was all that held the changes back.
      const whole = await runSync({
        api: office(null),
        replica,
        options: { profile: 'office', full: true },
      });
      expect(whole.collections.personal?.error, JSON.stringify(whole.collections)).toBeUndefined();
      const names = replica.sqlite.prepare('SELECT id, nachname FROM users').all() as {
        id: string;
        nachname: string;
      }[];
      for (const person of names) expect(person.nachname).toBe(`Neu ${person.id}`);
    } finally {
      await replica.close();
    }
  });
});

/**
 * The office's first sync at scale `large` in a child process (test/bench/sync-child.ts, bundled)
 * whose heap is capped at HEAP_MB: the people's list (21 MB) read whole takes about 150 MB while
 * other lanes run and does not fit; read as a stream it does.
 */
const HEAP_MB = 96;

describe('the office first sync at scale large on a small heap', () => {
  let sandbox: SandboxProcess;
  let dir: string;
  let child: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vorort-stream-heap-'));
    // Beside node_modules, as the bench builds it, so that its packages resolve.
    const bundles = fileURLToPath(new URL('../../dist/test-stream/', import.meta.url));
    mkdirSync(bundles, { recursive: true });
    child = join(mkdtempSync(join(bundles, 'run-')), 'sync-child.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('../bench/sync-child.ts', import.meta.url))],
      outfile: child,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'error',
    });
    sandbox = await spawnSandbox(['--scale', 'large', '--seed', '1'], 300_000);
  }, 360_000);
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(child, '..'), { recursive: true, force: true });
  });

  let runs = 0;
  /** The child's sync, its heap capped at `heapMB` (null: Node's own limit). */
  async function syncInChild(flags: string[], heapMB: number | null = HEAP_MB) {
    const token = sandbox.users.find((u) => u.role === 'office')!.accessToken;
    // A new replica each time: a first sync, never one on top of an earlier run's.
    const file = join(dir, `replica-${(runs += 1)}.sqlite`);
    const process_ = spawn(
      process.execPath,
      [
        ...(heapMB === null ? [] : [`--max-old-space-size=${heapMB}`]),
        child,
        sandbox.baseUrl,
        token,
        file,
        ...flags,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    process_.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => process_.once('close', resolve));
    const last = stdout.trim().split('\n').at(-1) ?? '';
    return {
      code,
      stderr,
      figures: code === 0 ? (JSON.parse(last) as { ok: boolean; records: number }) : null,
    };
  }

  it(`completes with the streaming reader, where reading every answer whole runs out of heap`, async () => {
    // What the same sync brings with room to spare: the demo data and the sync's windows follow
    // the calendar, so the number of records is the day's, not a constant.
    const ample = await syncInChild(['--whole-answers'], null);
    expect(ample.code, ample.stderr.slice(-2000)).toBe(0);
    expect(ample.figures?.records).toBeGreaterThan(30_000);

    const streamed = await syncInChild([]);
    expect(streamed.code, streamed.stderr.slice(-2000)).toBe(0);
    expect(streamed.figures).toMatchObject({ ok: true, records: ample.figures?.records });

    const whole = await syncInChild(['--whole-answers']);
    expect(whole.code).not.toBe(0);
    expect(whole.stderr).toMatch(/heap out of memory|Allocation failed/i);
  }, 900_000);
});
