// `vorort sync --watch` as a user runs it: a child process against the sandbox that syncs at once,
// says each finished sync and each state, picks up a write of another process, and stops on Ctrl+C
// with exit 130 keeping what it applied.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { openReplica } from '../../sync/db/open';
import { CLI } from '../support/bundled';

/** A running `vorort` whose stdout lines can be awaited. */
function watch(args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, ...args]);
  const lines: string[] = [];
  let stderr = '';
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const waiter of [...waiters])
      if (waiter.match(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    /** The first line from now on (or already seen after `from`) that matches. */
    next(match: (line: string) => boolean, from = lines.length, ms = 20_000): Promise<string> {
      const seen = lines.slice(from).find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no such line; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`)),
          ms,
        );
        waiters.push({
          match,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
  };
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('vorort sync --watch', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let dir: string;
  let token: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', seed: 6 });
    token = sandbox.users.find((u) => u.role === 'office')!.accessToken;
    dir = mkdtempSync(join(tmpdir(), 'vorort-cli-watch-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const args = (db: string, ...more: string[]) => [
    'sync',
    '--watch',
    '--server',
    sandbox.baseUrl,
    '--token',
    token,
    '--db',
    db,
    ...more,
  ];

  it('syncs at once, says so, sends a write of another process, and stops on Ctrl+C with 130', async () => {
    const db = join(dir, 'watch.sqlite');
    const watching = watch(args(db));
    const first = await watching.next((line) => line.startsWith('synced:'));
    expect(first).toMatch(/^synced: \d+ requests, \d+ records?; next at \d\d:\d\d$/);

    // A second sync into the same replica meanwhile is refused, naming the watch.
    const busy = await run(['sync', '--server', sandbox.baseUrl, '--token', token, '--db', db]);
    expect(busy.code).toBe(5);
    expect(busy.stderr).toMatch(/another sync is using watch\.sqlite/);

    // A write through another process: the watch finds it in the outbox and pushes it.
    const from = watching.lines.length;
    const call = await run([
      'call',
      '--db',
      db,
      'kalender.create',
      JSON.stringify({ attributes: { name: 'Aus dem Terminal' } }),
    ]);
    expect(call.code, call.stderr).toBe(0);
    const pushed = await watching.next((line) => line.includes('1 local change sent'), from);
    expect(pushed).toMatch(/^synced: .*1 local change sent; next at/);
    expect(sandbox.store.all('kalender').map((k) => k.attributes.name)).toContain(
      'Aus dem Terminal',
    );

    watching.child.kill('SIGINT');
    expect(await watching.exited).toBe(130);
    expect(watching.stderr()).toMatch(/stopped \(Ctrl\+C\)\. What was synced is kept\./);
    const replica = openReplica(db);
    try {
      const open = replica.sqlite
        .prepare("SELECT count(*) FROM outbox WHERE state <> 'done'")
        .pluck()
        .get();
      expect(open).toBe(0);
      const users = replica.sqlite.prepare('SELECT count(*) FROM users').pluck().get() as number;
      expect(users).toBeGreaterThan(0);
    } finally {
      await replica.close();
    }
  }, 40_000);

  it('--json: a state line per change, a line per finished sync, and a stop line', async () => {
    const db = join(dir, 'watch-json.sqlite');
    const watching = watch(args(db, '--json', '--interval', '10'));
    const synced = JSON.parse(await watching.next((line) => line.includes('"type":"synced"'))) as {
      ok: boolean;
      outbox: unknown;
      nextAttemptAt: string;
      requests: number;
    };
    expect(synced.outbox).toBeDefined();
    expect(synced.requests).toBeGreaterThan(0);
    const next = Date.parse(synced.nextAttemptAt) - Date.now();
    expect(next).toBeGreaterThan(9 * 60_000);
    expect(next).toBeLessThanOrEqual(10 * 60_000);
    const states = watching.lines
      .map((line) => JSON.parse(line) as { type: string; state?: { phase: string } })
      .filter((line) => line.type === 'state')
      .map((line) => line.state!.phase);
    expect(states[0]).toBe('syncing');
    expect(states.at(-1)).toBe('idle');
    expect(watching.lines.some((line) => line.includes('"type":"progress"'))).toBe(true);

    watching.child.kill('SIGINT');
    expect(await watching.exited).toBe(130);
    expect(JSON.parse(watching.lines.at(-1)!)).toEqual({ type: 'stopped', signal: 'Ctrl+C' });
  }, 40_000);

  it('refuses --watch with --full, and a bad --interval, with exit 2', async () => {
    const full = await run(args(join(dir, 'x.sqlite'), '--full'));
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/--watch and --full do not go together/);
    const interval = await run(args(join(dir, 'x.sqlite'), '--interval', '0'));
    expect(interval.code).toBe(2);
    expect(interval.stderr).toMatch(/--interval must be a whole number/);
  }, 30_000);
});
