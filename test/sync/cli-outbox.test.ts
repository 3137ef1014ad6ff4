// `vorort call`, `vorort queue` and the push of `vorort sync` as a user runs them: child
// processes, real HTTP against the sandbox, a real replica file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { CLI } from '../support/bundled';

function vorort(
  args: string[],
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(input ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let sandbox: RunningSandbox;
let folder: string;
let db: string;
let token: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 8 });
  folder = mkdtempSync(join(tmpdir(), 'vorort-cli-outbox-'));
  db = join(folder, 'replica.db');
  token = sandbox.users.find((u) => u.role === 'office')!.accessToken;
  const first = await vorort(['sync', '--server', sandbox.baseUrl, '--token', token, '--db', db]);
  expect(first.code, first.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('vorort call and vorort queue', () => {
  it('vorort call calendars.list never prints a private feed address whole; calendars.icalUrl does, asked', async () => {
    const listed = await vorort(['call', '--db', db, 'calendars.list', '{}']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toMatch(/private-/);
    const calendars = JSON.parse(listed.stdout) as { id: string; icalAddress: string | null }[];
    const own = calendars.find((calendar) => calendar.icalAddress !== null);
    expect(own?.icalAddress).toBe(`${new URL(sandbox.baseUrl).origin}/…`);
    const whole = await vorort([
      'call',
      '--db',
      db,
      'calendars.icalUrl',
      JSON.stringify({ id: own!.id }),
    ]);
    expect(whole.code, whole.stderr).toBe(0);
    const url = JSON.parse(whole.stdout) as string;
    expect(url.startsWith(new URL(sandbox.baseUrl).origin)).toBe(true);
    expect(new URL(url).pathname).toMatch(/private-[0-9a-f]+/);

    // Set as the feed with its arguments from standard input (-), off the command line.
    const set = await vorort(['call', '--db', db, 'feed.set', '-'], JSON.stringify({ url }));
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).not.toContain(new URL(url).pathname);
    expect(JSON.parse(set.stdout)).toMatchObject({ configured: true });
    const forget = await vorort(['call', '--db', db, 'feed.set', '-'], '{"url":null}');
    expect(JSON.parse(forget.stdout)).toMatchObject({ configured: false });
  });

  it('queues a write offline, lists it, and vorort sync sends it once', async () => {
    const empty = await vorort(['queue', '--db', db, 'list', '--json']);
    expect(empty.code).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);

    const created = await vorort([
      'call',
      '--db',
      db,
      'kalender.create',
      JSON.stringify({ attributes: { name: 'Kurs-Kalender CLI', farbe: '#336699' } }),
    ]);
    expect(created.code, created.stderr).toBe(0);
    const receipt = JSON.parse(created.stdout) as {
      id: string;
      state: string;
      record: Record<string, unknown>;
    };
    expect(receipt.id).toMatch(/^local-/);
    expect(receipt.state).toBe('pending');
    // The record as the replica holds it now, as calendars.list gives it.
    expect(receipt.record).toMatchObject({
      id: receipt.id,
      name: 'Kurs-Kalender CLI',
      farbe: '#336699',
      localState: 'created',
    });

    const listed = await vorort(['call', '--db', db, 'calendars.list', '{}']);
    const calendars = JSON.parse(listed.stdout) as { id: string; localState: string | null }[];
    expect(calendars.find((c) => c.id === receipt.id)?.localState).toBe('created');

    const queued = await vorort(['queue', '--db', db, 'list', '--json']);
    const entries = JSON.parse(queued.stdout) as Record<string, unknown>[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ command: 'kalender.create', state: 'pending', attempts: 0 });
    expect(Object.keys(entries[0]!)).toEqual(
      expect.arrayContaining(['id', 'command', 'state', 'attempts', 'error']),
    );

    const status = await vorort(['status', '--db', db]);
    expect(status.stdout).toMatch(/Outbox: 1 not yet sent \(1 pending\)/);

    sandbox.clearRequests();
    const sync = await vorort([
      'sync',
      '--server',
      sandbox.baseUrl,
      '--token',
      token,
      '--db',
      db,
      '--push-only',
      '--json',
    ]);
    expect(sync.code, sync.stderr).toBe(0);
    const summary = JSON.parse(sync.stdout.trim().split('\n').at(-1)!) as {
      outbox: { done: number; parked: number; unknown: number };
    };
    expect(summary.outbox).toMatchObject({ done: 1, parked: 0, unknown: 0 });
    const created201 = sandbox.requests.filter(
      (r) => r.method === 'POST' && r.path.endsWith('/kalender') && r.status === 201,
    );
    expect(created201).toHaveLength(1);
    const after = await vorort(['queue', '--db', db, 'list', '--json']);
    expect(JSON.parse(after.stdout)).toEqual([]);
  }, 120_000);

  it('refuses bad arguments with exit 2 and a message naming the problem', async () => {
    const unknownAttribute = await vorort([
      'call',
      '--db',
      db,
      'kalender.create',
      JSON.stringify({ attributes: { name: 'x', colour: 'red' } }),
    ]);
    expect(unknownAttribute.code).toBe(2);
    expect(unknownAttribute.stderr).toMatch(/colour/);
    expect(JSON.parse(unknownAttribute.stdout)).toMatchObject({
      error: { code: 'invalid_arguments' },
    });

    const notJson = await vorort(['call', '--db', db, 'kalender.create', '{name']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/not JSON/);

    const unknownName = await vorort(['call', '--db', db, 'kalender.rename', '{}']);
    expect(unknownName.code).toBe(2);
    expect(unknownName.stderr).toMatch(/Unknown call "kalender.rename"/);

    const missing = await vorort(['queue', '--db', db, 'retry', '99999']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No open operation 99999/);
  }, 60_000);

  it("reaches the host calls that need the replica alone, and names the app's own", async () => {
    const call = async (name: string, args: unknown) => {
      const run = await vorort(['call', '--db', db, name, JSON.stringify(args)]);
      return { ...run, value: JSON.parse(run.stdout) as Record<string, unknown> };
    };
    expect((await call('feed.get', {})).value).toMatchObject({ configured: false, events: 0 });
    const set = await call('feed.set', { url: 'https://example.org/kalender/geheim.ics' });
    expect(set.code, set.stderr).toBe(0);
    // Stored (fetched by the next vorort sync); its secret path never shown.
    expect(set.value).toMatchObject({ configured: true, address: 'https://example.org/…' });
    expect((await call('feed.get', {})).value).toMatchObject({ configured: true });
    expect(set.stdout).not.toContain('geheim');

    const written = await call('kalender.create', { attributes: { name: 'Noch nicht gesendet' } });
    expect(written.code, written.stderr).toBe(0);
    const loss = await call('account.pendingLoss', {});
    expect(loss.code, loss.stderr).toBe(0);
    expect(loss.value).toEqual({ pending: 1, parked: 0 });

    const exported = await call('export.create', {
      request: { format: 'csv', what: 'courses', language: 'en' },
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.value).toMatchObject({ fileName: expect.stringMatching(/\.csv$/) });
    const csv = Buffer.from(String(exported.value.base64), 'base64').toString('utf8');
    expect(csv.split('\n').length - 1).toBeGreaterThan(Number(exported.value.count));

    const appOnly = await call('app.state', {});
    expect(appOnly.code).toBe(2);
    expect(appOnly.value).toMatchObject({ error: { code: 'not_allowed' } });
    expect(appOnly.stderr).toMatch(/belongs to the app/);
  }, 240_000);

  it('lists every name with its arguments in call --help', async () => {
    const help = await vorort(['call', '--help']);
    expect(help.code).toBe(0);
    for (const name of ['user.upsert', 'participation.cancel', 'outbox.edit', 'personnel.list'])
      expect(help.stdout).toContain(name);
    expect(help.stdout).toMatch(/helferstunden\.create\s+\{ attributes, relationships \}/);
    expect(help.stdout).toMatch(/export\.create\s+\{ request, deliver\? \}/);
    expect(help.stdout).toMatch(/Not here[^]*account\.login/);
  }, 30_000);
});
