// `vorort sync` and `vorort status` as a user runs them: a child process, real HTTP, real files.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { openReplica } from '../../sync/db/open';
import { expectOfficeReplica } from '../support/service-oracle';

const CLI = fileURLToPath(new URL('../../bin/vorort.mjs', import.meta.url));

interface Run {
  code: number | null;
  stdout: string[];
  stderr: string;
}

function vorort(
  args: string[],
  onLine?: (line: string, kill: (signal?: NodeJS.Signals) => void) => void,
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: string[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      stdout.push(line);
      onLine?.(line, (signal = 'SIGKILL') => child.kill(signal));
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('vorort sync / status', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let dir: string;
  let office: { id: string; accessToken: string };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', seed: 4 });
    office = sandbox.users.find((u) => u.role === 'office')!;
    dir = mkdtempSync(join(tmpdir(), 'vorort-cli-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a sync killed mid-pull leaves a replica that the next sync completes', async () => {
    const db = join(dir, 'killed.sqlite');
    const args = [
      'sync',
      '--server',
      sandbox.baseUrl,
      '--token',
      office.accessToken,
      '--db',
      db,
      '--json',
    ];
    const killed = await vorort(args, (line, kill) => {
      if (line.includes('"collection":"participations"')) kill();
    });
    expect(killed.code).toBe(null); // killed by the signal, before the summary
    expect(killed.stdout.some((l) => l.includes('"ok"'))).toBe(false);

    const resumed = await vorort(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout.at(-1)!) as {
      ok: boolean;
      requests: number;
      seconds: number;
    };
    expect(summary.ok).toBe(true);
    expect(summary.requests).toBeGreaterThan(0);

    const replica = openReplica(db);
    try {
      const target = { baseUrl: sandbox.baseUrl, token: office.accessToken };
      await expectOfficeReplica(replica.sqlite, target);
    } finally {
      await replica.close();
    }

    const status = await vorort(['status', '--db', db, '--json']);
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout[0]!) as {
      counts: Record<string, number>;
      lastSync: { ok: boolean } | null;
    };
    expect(parsed.counts.user).toBeGreaterThan(40);
    for (const type of [
      'course',
      'participation',
      'helferstunden',
      'helferstunden_anlass',
      'kalender',
      'benachrichtigung',
      'customfield',
      'client',
    ]) {
      expect(parsed.counts[type], type).toBeGreaterThan(0);
    }
    expect(parsed.lastSync?.ok).toBe(true);
  });

  it('stops on Ctrl+C, saying so, and keeps what was synced', async () => {
    const db = join(dir, 'interrupted.sqlite');
    const args = [
      'sync',
      '--server',
      sandbox.baseUrl,
      '--token',
      office.accessToken,
      '--db',
      db,
      '--json',
    ];
    let pressed = false; // once, as a person would: a second Ctrl+C ends the process at once
    const interrupted = await vorort(args, (line, kill) => {
      if (pressed || !line.includes('"collection":"person_details"')) return;
      pressed = true;
      kill('SIGINT');
    });
    expect(interrupted.code).toBe(130);
    const last = JSON.parse(interrupted.stdout.at(-1)!) as { ok: boolean; error: string };
    expect(last.ok).toBe(false);
    expect(last.error).toMatch(/cancelled/);
    const replica = openReplica(db);
    try {
      expect(replica.sqlite.prepare('SELECT count(*) FROM users').pluck().get()).toBeGreaterThan(
        40,
      );
    } finally {
      await replica.close();
    }
  });

  it('tells success, bad input, auth failure and network failure apart by exit code', async () => {
    const db = join(dir, 'codes.sqlite');
    const base = ['sync', '--server', sandbox.baseUrl, '--db', db];
    const badProfile = await vorort([...base, '--token', office.accessToken, '--profile', 'boss']);
    expect(badProfile.code).toBe(2);
    expect(badProfile.stderr).toMatch(/--profile must be office or trainer/);

    const badUrl = await vorort(['sync', '--server', 'not a url', '--db', db, '--token', 'x']);
    expect(badUrl.code).toBe(2);

    const wrongToken = await vorort([...base, '--token', 'wrong']);
    expect(wrongToken.code).toBe(4);
    expect(wrongToken.stderr).toMatch(/401/);

    const unreachable = await vorort([
      'sync',
      '--server',
      'http://127.0.0.1:9/core/v1',
      '--db',
      db,
      '--token',
      'x',
    ]);
    expect(unreachable.code).toBe(3);

    const missing = await vorort(['status', '--db', join(dir, 'nothing.sqlite')]);
    expect(missing.code).toBe(2);
  });
});
