// `vorort sync` and `vorort status` as a user runs them: a child process, real HTTP, real files.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { missingLines } from '../../sync/cli/sync-command';
import { MIGRATIONS } from '../../sync/db/migrations';
import { openReplica } from '../../sync/db/open';
import { syncLockFile } from '../../sync/db/sync-lock';
import type { SyncSummary } from '../../sync/pull/engine';
import { expectOfficeReplica } from '../support/service-oracle';
import { CLI } from '../support/bundled';

interface Run {
  code: number | null;
  stdout: string[];
  stderr: string;
}

function vorort(
  args: string[],
  onLine?: (line: string, kill: (signal?: NodeJS.Signals) => void, closeStdout: () => void) => void,
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: string[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      stdout.push(line);
      onLine?.(
        line,
        (signal = 'SIGKILL') => child.kill(signal),
        () => {
          // As `| head -1` does: the reader goes away, the writer gets EPIPE.
          lines.close();
          child.stdout.destroy();
        },
      );
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Exactly one line on stderr, and no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
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
      '--full', // everything, outside the budget: long enough to be killed in the middle
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
      '--full',
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

  it("a trainer's token in the office profile (the default) exits 1 with a hint naming --profile trainer; with it, 0", async () => {
    const trainer = sandbox.users.find((u) => u.role === 'trainer')!;
    const base = ['sync', '--server', sandbox.baseUrl, '--token', trainer.accessToken];
    const office = await vorort([...base, '--db', join(dir, 'trainer-office.sqlite')]);
    expect(office.code).toBe(1);
    expect(office.stdout.join('\n')).toContain('no right to read people');
    expect(office.stderr).toMatch(
      /^vorort sync: this account may not read the staff, as a trainer’s: sync with --profile trainer /m,
    );
    const json = await vorort([...base, '--db', join(dir, 'trainer-json.sqlite'), '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout.at(-1)!)).toMatchObject({
      profile: 'office',
      hint: expect.stringContaining('--profile trainer'),
    });
    const right = await vorort([
      ...base,
      '--db',
      join(dir, 'trainer.sqlite'),
      '--profile',
      'trainer',
    ]);
    expect(right.code, right.stderr).toBe(0);
    expect(right.stderr).not.toContain('--profile trainer');
  });

  it('takes the token from VORORT_TOKEN or standard input (--token-file -), off the command line', async () => {
    const trainer = sandbox.users.find((u) => u.role === 'trainer')!;
    const run = (args: string[], env: NodeJS.ProcessEnv, input: string) =>
      new Promise<Run>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.stdin.end(input);
        child.on('close', (code) => resolve({ code, stdout: stdout.split('\n'), stderr }));
      });
    const base = ['sync', '--server', sandbox.baseUrl, '--profile', 'trainer'];
    const fromEnv = await run(
      [...base, '--db', join(dir, 'env-token.sqlite')],
      { VORORT_TOKEN: trainer.accessToken },
      '',
    );
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    const fromStdin = await run(
      [...base, '--db', join(dir, 'stdin-token.sqlite'), '--token-file', '-'],
      { VORORT_TOKEN: '' },
      `${trainer.accessToken}\n`,
    );
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const wrong = await run(
      [...base, '--db', join(dir, 'stdin-token.sqlite'), '--token-file', '-'],
      {},
      'wrong\n',
    );
    expect(wrong.code).toBe(4);
    const none = await run(
      [...base, '--db', join(dir, 'no-token.sqlite')],
      { VORORT_TOKEN: '' },
      '',
    );
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--token-file - \(standard input\) or VORORT_TOKEN/);
  }, 60_000);

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
    // Five processes one after the other, each loading the core (seconds each on a busy machine).
  }, 90_000);
});

describe('vorort: bad input exits 2 with one readable line', () => {
  let dir: string;
  const file = (name: string) => join(dir, name);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vorort-cli-input-'));
    writeFileSync(file('notes.txt'), 'not a database\n');
    writeFileSync(file('empty.sqlite'), '');
    mkdirSync(file('folder.sqlite'));
    const foreign = new BetterSqlite3(file('foreign.sqlite'));
    foreign.exec('CREATE TABLE recipes (name TEXT)');
    foreign.close();
    const newer = openReplica(file('newer.sqlite'));
    newer.sqlite.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    await newer.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.for([
    ['notes.txt', /notes\.txt is not a SQLite database/],
    ['folder.sqlite', /folder\.sqlite is a folder, not a replica file/],
    ['missing/x.sqlite', /No replica at .*x\.sqlite: the folder .*missing does not exist/],
    ['empty.sqlite', /empty\.sqlite is empty, not a replica/],
    ['foreign.sqlite', /foreign\.sqlite is a SQLite database of another program/],
    [
      'newer.sqlite',
      /newer\.sqlite was written by a newer Vorort \(schema \d+, this one knows \d+\)/,
    ],
    ['nothing.sqlite', /No replica at .*nothing\.sqlite \(run "vorort sync" first\)/],
  ] as const)('status --db %s', async ([name, message]) => {
    const before =
      existsSync(file(name)) && statSync(file(name)).isFile() ? readFileSync(file(name)) : null;
    const run = await vorort(['status', '--db', file(name)]);
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toMatch(new RegExp(`^vorort status: .*${message.source}`));
    expect(run.stdout).toEqual([]);
    // Nothing written into a file that is not a replica: no schema, no WAL beside it.
    if (before) expect(readFileSync(file(name))).toEqual(before);
    expect(existsSync(`${file(name)}-wal`)).toBe(false);
  });

  it.for([
    [['status'], /^vorort status: required option '--db <file>' not specified/],
    [['status', '--db', 'x.sqlite', 'extra'], /^vorort status: too many arguments/],
    [['status', '--db', 'x.sqlite', '--bogus'], /^vorort status: unknown option '--bogus'/],
    [
      ['sync', '--db', 'x.sqlite', '--token', 't'],
      /^vorort sync: required option '--server <url>'/,
    ],
    [
      ['sync', '--server', 'http://127.0.0.1:9', '--token', 't', '--db', 'x', 'y'],
      /^vorort sync: too many arguments/,
    ],
    [
      ['sync', '--server', 'not a url', '--token', 't', '--db', 'x'],
      /^vorort sync: --server must be a URL/,
    ],
    [
      ['sync', '--server', 'http://api.example.org/core/v1', '--token', 't', '--db', 'x'],
      /^vorort sync: --server: plain http is allowed only on this computer/,
    ],
    [
      ['sync', '--server', 'http://127.0.0.1:9', '--token', 't', '--db', 'x', '--profile', 'boss'],
      /^vorort sync: --profile must be office or trainer, not "boss"/,
    ],
    [
      [
        'sync',
        '--server',
        'http://127.0.0.1:9',
        '--token',
        't',
        '--db',
        'x',
        '--requests-per-minute',
        '0',
      ],
      /^vorort sync: --requests-per-minute must be a whole number of at least 1/,
    ],
    [
      [
        'sync',
        '--server',
        'http://127.0.0.1:9',
        '--token',
        't',
        '--db',
        'x',
        '--versioned-paths',
        'nowhere',
      ],
      /^vorort sync: --versioned-paths must be base or origin, not "nowhere"/,
    ],
    [['bogus'], /^vorort: unknown command 'bogus'/],
  ] as const)('%j', async ([args, message]) => {
    const run = await vorort([...args]);
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toMatch(message);
  });

  it.for([
    ['notes.txt', /notes\.txt is not a SQLite database/],
    ['folder.sqlite', /folder\.sqlite is a folder/],
    [
      'missing/x.sqlite',
      /Cannot create the replica .*x\.sqlite: the folder .*missing does not exist/,
    ],
    ['foreign.sqlite', /foreign\.sqlite is a SQLite database of another program/],
    ['newer.sqlite', /newer\.sqlite was written by a newer Vorort/],
  ] as const)('sync --db %s', async ([name, message]) => {
    // The file is checked before any request: the server need not exist.
    const run = await vorort([
      'sync',
      '--server',
      'http://127.0.0.1:9',
      '--token',
      't',
      '--db',
      file(name),
    ]);
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toMatch(new RegExp(`^vorort sync: .*${message.source}`));
    expect(existsSync(syncLockFile(file(name)))).toBe(false);
  });
});

describe('vorort sync: the lock, waits said, SIGTERM, broken pipes, status wording', () => {
  let fast: Awaited<ReturnType<typeof startSandbox>>;
  let throttled: Awaited<ReturnType<typeof startSandbox>>;
  let unlicensed: Awaited<ReturnType<typeof startSandbox>>;
  let dir: string;
  const tokenOf = (sandbox: typeof fast) =>
    sandbox.users.find((u) => u.role === 'office')!.accessToken;
  const syncArgs = (sandbox: typeof fast, db: string, ...more: string[]) => [
    'sync',
    '--server',
    sandbox.baseUrl,
    '--token',
    tokenOf(sandbox),
    '--db',
    db,
    ...more,
  ];

  beforeAll(async () => {
    [fast, throttled, unlicensed] = await Promise.all([
      startSandbox({ port: 0, host: '127.0.0.1', scale: 'small', seed: 5 }),
      startSandbox({ port: 0, host: '127.0.0.1', scale: 'small', seed: 5, rateLimit: '10/s' }),
      startSandbox({ port: 0, host: '127.0.0.1', scale: 'small', seed: 5, withoutCourses: true }),
    ]);
    dir = mkdtempSync(join(tmpdir(), 'vorort-cli-sync-'));
  });
  afterAll(async () => {
    await Promise.all([fast.close(), throttled.close(), unlicensed.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second sync into the same replica exits 5 naming the first; SIGTERM then stops the first with 143, keeping its data and releasing the lock; 429 waits are said', async () => {
    const db = join(dir, 'locked.sqlite');
    let second: Promise<Run> | undefined;
    let waited: { seconds: number; reason: string } | undefined;
    const first = await vorort(syncArgs(throttled, db, '--json', '--full'), (line, kill) => {
      const event = JSON.parse(line) as { type?: string; seconds?: number; reason?: string };
      if (event.type !== 'waiting' || second) return;
      waited = { seconds: event.seconds!, reason: event.reason! };
      second = vorort(syncArgs(throttled, db)).then((run) => {
        kill('SIGTERM');
        return run;
      });
    });
    expect(waited?.reason).toBe('service-limit');
    expect(waited?.seconds).toBeGreaterThanOrEqual(1);
    const busy = await second!;
    expect(busy.code).toBe(5);
    expect(oneLine(busy.stderr)).toMatch(
      /^vorort sync: another sync is using locked\.sqlite \(pid \d+ since \d\d:\d\d\); try again when it has finished$/,
    );
    expect(first.code).toBe(143);
    const last = JSON.parse(first.stdout.at(-1)!) as {
      ok: boolean;
      error: string;
      exitCode: number;
    };
    expect(last).toMatchObject({ ok: false, exitCode: 143 });
    expect(last.error).toMatch(/^cancelled \(SIGTERM\)\. What was synced so far is kept/);
    expect(existsSync(syncLockFile(db))).toBe(false);
    const status = await vorort(['status', '--db', db]);
    expect(status.code).toBe(0);
    expect(status.stdout[0]).toMatch(/synced in part: no sync has finished yet/);
  });

  it('the own pace is said as it waits, on a terminal line and as JSON', async () => {
    const db = join(dir, 'paced.sqlite');
    let pressed = false;
    const json = await vorort(
      syncArgs(fast, db, '--json', '--requests-per-minute', '30'),
      (line, kill) => {
        if (pressed || !line.includes('"type":"waiting"')) return;
        pressed = true;
        kill('SIGINT');
      },
    );
    const waiting = json.stdout
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.type === 'waiting');
    expect(waiting).toMatchObject({ type: 'waiting', reason: 'own-pace' });
    expect(waiting?.seconds).toBeGreaterThanOrEqual(1);
    expect(json.code).toBe(130);

    const child = spawn(
      process.execPath,
      [CLI, ...syncArgs(fast, db, '--requests-per-minute', '30')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/waiting \d+ s \(own pace\)/.test(stderr)) resolve();
      });
      child.on('close', () => resolve());
    });
    child.kill('SIGINT');
    await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toMatch(/^waiting \d+ s \(own pace\)$/m);
  });

  it('takes over a lock left by a process that is gone', async () => {
    const db = join(dir, 'stale.sqlite');
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(
      syncLockFile(db),
      JSON.stringify({
        pid: gone.pid,
        hostname: (await import('node:os')).hostname(),
        startedAt: new Date().toISOString(),
        command: 'vorort sync',
        token: 'old',
      }),
    );
    const run = await vorort(syncArgs(fast, db, '--json'));
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(syncLockFile(db))).toBe(false);
  });

  it('says "never synced" only when nothing was', async () => {
    const fresh = join(dir, 'fresh.sqlite');
    const replica = openReplica(fresh);
    await replica.close();
    expect((await vorort(['status', '--db', fresh])).stdout[0]).toMatch(/, never synced$/);

    const refused = join(dir, 'refused.sqlite');
    const failed = await vorort([
      'sync',
      '--server',
      fast.baseUrl,
      '--token',
      'wrong',
      '--db',
      refused,
    ]);
    expect(failed.code).toBe(4);
    expect(oneLine(failed.stderr)).toMatch(/^vorort sync: .*401/);
    const status = await vorort(['status', '--db', refused]);
    expect(status.code).toBe(0);
    expect(status.stdout[0]).toMatch(/synced, but no successful sync yet \(last error: .*401/);
  });

  it('ends quietly when the reader closes the pipe (| head)', async () => {
    const db = join(dir, 'piped.sqlite');
    const synced = await vorort(syncArgs(fast, db, '--json'), (_line, _kill, closeStdout) =>
      closeStdout(),
    );
    expect(synced.code).toBe(0);
    expect(synced.stderr).toBe('');
    const status = await vorort(['status', '--db', db], (_line, _kill, closeStdout) =>
      closeStdout(),
    );
    expect(status.code).toBe(0);
    expect(status.stderr).toBe('');
  });

  it('says which areas the account cannot use, without failing', async () => {
    const run = await vorort(syncArgs(unlicensed, join(dir, 'unlicensed.sqlite')));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.join('\n')).toMatch(/Still missing:\n(.*\n)* {2}course module not licensed/);
    expect(run.stdout.filter((l) => l.includes('not licensed')).length).toBeGreaterThan(0);
  });
});

describe('the summary of an incomplete sync', () => {
  const summary = (over: Partial<SyncSummary>): SyncSummary => ({
    ok: true,
    profile: 'office',
    collections: {},
    records: 0,
    requests: 0,
    seconds: 0,
    startedAt: '',
    finishedAt: '',
    quarantined: 0,
    unavailable: [],
    budget: { limit: 150, spent: 0, stoppedEarly: null, deferred: {} },
    ...over,
  });
  const result = { records: 0, deleted: 0, requests: 0, seconds: 0 };

  it('says what is still missing, in words', () => {
    expect(
      missingLines(
        summary({
          collections: {
            personal: { ...result, quarantined: 3 },
            person_details: {
              ...result,
              remaining: { done: 500, total: 1000, what: 'people' },
              failedItems: 2,
            },
          },
          quarantined: 5,
          unavailable: [
            { collection: 'courses', reason: 'forbidden', message: '' },
            { collection: 'course_types', reason: 'unlicensed', message: '' },
            { collection: 'uvts', reason: 'unlicensed', message: '' },
          ],
        }),
      ),
    ).toEqual([
      'checks and honours: 500 of 1,000 people so far (the next syncs continue)',
      'checks and honours: 2 requests failed (tried again next sync)',
      '3 unreadable records quarantined and asked for again next sync (vorort status --json counts them per collection)',
      'no right to read courses',
      'course module not licensed',
    ]);
    expect(missingLines(summary({}))).toEqual([]);
  });
});

describe('--help', () => {
  it('every command explains itself; sync lists the exit codes', async () => {
    const sync = await vorort(['sync', '--help']);
    expect(sync.code).toBe(0);
    const help = sync.stdout.join('\n');
    for (const code of ['0', '1', '2', '3', '4', '5', '130', '143'])
      expect(help).toMatch(new RegExp(`^ {2}${code} +\\S`, 'm'));
    expect(help).toContain('<db>.lock');
    for (const command of [[], ['status'], ['sandbox']]) {
      const run = await vorort([...command, '--help']);
      expect(run.code, command.join(' ')).toBe(0);
      expect(run.stdout[0]).toMatch(/^Usage: vorort/);
    }
  });
});
