// `vorort export` and `vorort sync --feed-url` as a user runs them: child processes of the real
// command line. What they write, what they say, their exit codes for a missing course, an empty
// result, an unwritable path and a bad date, never a stack trace; and the feed's secret path never
// printed.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/bundled';
import { temporaryFiles } from '../support/temp-files';
import { exportWorld, type ExportWorld } from './fixture';

const temp = temporaryFiles('export-cli');
let world: ExportWorld;

beforeAll(async () => {
  world = await exportWorld(temp('replica.sqlite'));
  await world.replica.close();
}, 60_000);
afterAll(() => world?.sandbox.close());

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function vorort(args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      expect(stderr, 'no stack trace').not.toMatch(/\n\s+at /);
      resolve({ code, stdout, stderr });
    });
  });
}

const exportArgs = (...rest: string[]) => ['export', '--db', world.file, ...rest];

const eventsOf = (file: string) =>
  new ICAL.Component(ICAL.parse(readFileSync(file, 'utf8')) as unknown[]).getAllSubcomponents(
    'vevent',
  );

describe('vorort export', () => {
  it('writes the file and says how many entries went where', async () => {
    const out = temp('kurse.ics');
    const ran = await vorort(exportArgs('--format', 'ics', '--what', 'courses', '--out', out));
    expect(ran.code).toBe(0);
    const count = eventsOf(out).length;
    expect(count).toBeGreaterThan(5);
    expect(ran.stderr.trim()).toBe(`vorort export: ${count} Kurstermine nach ${out} geschrieben`);
  });

  it('says the same in English with --lang en, and as JSON with --json', async () => {
    const out = temp('hours.csv');
    const english = await vorort(
      exportArgs('--format', 'csv', '--what', 'hours', '--lang', 'en', '--out', out),
    );
    expect(english.code).toBe(0);
    expect(english.stderr).toMatch(/^vorort export: wrote [\d,]+ hour entries to /);
    const json = await vorort(
      exportArgs('--format', 'csv', '--what', 'hours', '--out', out, '--json'),
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, file: out, empty: false });
  });

  it('refuses a course that is not in the replica (exit 2), writing nothing', async () => {
    const out = temp('liste.pdf');
    const ran = await vorort(
      exportArgs('--format', 'pdf', '--what', 'participants', '--course', '999999', '--out', out),
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('Den Kurs 999999 gibt es im Replikat nicht');
    expect(existsSync(out)).toBe(false);
  });

  it('writes an empty but valid file for an empty result, and says so (exit 0)', async () => {
    const out = temp('leer.ics');
    const ran = await vorort(
      exportArgs(
        '--format',
        'ics',
        '--what',
        'courses',
        '--from',
        '1990-01-01',
        '--until',
        '1990-12-31',
        '--out',
        out,
      ),
    );
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain(`keine Treffer: leere, gültige Datei nach ${out} geschrieben`);
    expect(eventsOf(out)).toHaveLength(0);
  });

  it('refuses an unwritable path in words (exit 2): no folder, a folder, a full device', async () => {
    const missing = join(dirname(temp('x')), 'nicht-da', 'kurse.ics');
    const noFolder = await vorort(
      exportArgs('--format', 'ics', '--what', 'courses', '--out', missing),
    );
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toContain(`Kann nicht nach ${missing} schreiben: den Ordner`);
    const folder = dirname(temp('y'));
    mkdirSync(folder, { recursive: true });
    const isFolder = await vorort(
      exportArgs('--format', 'ics', '--what', 'courses', '--out', folder, '--lang', 'en'),
    );
    expect(isFolder.code).toBe(2);
    expect(isFolder.stderr).toContain(`Cannot write ${folder}: it is a folder`);
    if (existsSync('/dev/full')) {
      const full = await vorort(
        exportArgs('--format', 'ics', '--what', 'courses', '--out', '/dev/full'),
      );
      expect(full.code).toBe(2);
      expect(full.stderr).toContain('kein Platz mehr auf dem Datenträger');
    }
  });

  it('refuses a bad date, a bad combination and a file that is no replica (exit 2)', async () => {
    const out = temp('z.ics');
    const date = await vorort(
      exportArgs('--format', 'ics', '--what', 'courses', '--from', '2026-13-01', '--out', out),
    );
    expect(date.code).toBe(2);
    expect(date.stderr).toContain('from: erwartet ein Datum JJJJ-MM-TT');
    const combination = await vorort(
      exportArgs('--format', 'pdf', '--what', 'hours', '--out', out),
    );
    expect(combination.code).toBe(2);
    expect(combination.stderr).toContain('gibt es nicht als PDF');
    const noReplica = await vorort([
      'export',
      '--db',
      temp('none.sqlite'),
      '--format',
      'ics',
      '--what',
      'courses',
      '--out',
      out,
    ]);
    expect(noReplica.code).toBe(2);
    expect(noReplica.stderr).toContain('No replica at');
  });
});

describe('vorort sync --feed-url', () => {
  it('keeps the feed in the replica, fetches it with every sync, and never prints its path', async () => {
    const secret = new URL(world.sandbox.feedUrl).pathname;
    const sync = await vorort([
      'sync',
      '--server',
      world.sandbox.baseUrl,
      '--token',
      world.officeToken,
      '--db',
      world.file,
      '--feed-url',
      world.sandbox.feedUrl,
      '--json',
    ]);
    expect(sync.code).toBe(0);
    const summary = JSON.parse(sync.stdout.trim().split('\n').at(-1)!) as {
      collections: Record<string, { records: number; requests: number }>;
    };
    const served = (await (await fetch(world.sandbox.feedUrl)).text()).match(/BEGIN:VEVENT/g)!;
    expect(summary.collections.private_feed).toMatchObject({
      records: served.length,
      requests: 1,
    });
    const out = temp('termine.ics');
    const exported = await vorort(exportArgs('--format', 'ics', '--what', 'events', '--out', out));
    expect(exported.code).toBe(0);
    expect(eventsOf(out)).toHaveLength(served.length);
    // A wrong address is refused before anything is sent, naming its host only.
    const bad = await vorort([
      'sync',
      '--server',
      world.sandbox.baseUrl,
      '--token',
      world.officeToken,
      '--db',
      world.file,
      '--feed-url',
      `ftp://example.org${secret}`,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--feed-url: ');
    for (const ran of [sync, exported, bad])
      expect(`${ran.stdout}${ran.stderr}`).not.toContain(secret.slice(-20));
  });
});
