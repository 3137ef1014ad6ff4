// What falls due as CSV and PDF (issue 22): the same people and entries as personnel.due, by
// person, the expired marked, each person's "checks read" day or "nie gelesen", in German and
// English; the PDF's text read with pdftotext and its pages rendered with pdftoppm into
// test-artifacts/export/ to be looked at. Checks are recorded on the sandbox for the test with
// dates around the export's day; a person created here has checks never read.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../sandbox/admin/test-admin-client';
import { addDays, serviceDay } from '../../sync/contract/service-time';
import { exportData } from '../../sync/export';
import { listDue } from '../../sync/queries/personnel-due';
import { temporaryFiles } from '../support/temp-files';
import { startWorld, syncFrom, write, type World } from '../sync/outbox/world';

const temp = temporaryFiles('export-due');
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export', 'due');
const poppler = spawnSync('pdftotext', ['-v']).error === undefined;
if (!poppler && process.env.CI)
  throw new Error('pdftotext is missing: apt-get install -y poppler-utils');

let world: World;
const NOW = new Date();
const today = serviceDay(NOW);
const until = addDays(today, 90);
let person: { id: string; nachname: string };

beforeAll(async () => {
  world = await startWorld(temp('replica.sqlite'), { admin: true }, false);
  const admin = AdminClient.of(world.sandbox);
  const office = world.sandbox.users.find((u) => u.role === 'office')!;
  for (const [name, days] of [
    ['Zyx-Atemschutz', -3],
    ['Zyx-Sehtest', 30],
  ] as const) {
    const made = await admin.post(`/personal/${office.id}/ueberpruefungen`, {
      attributes: { bezeichnung: name, naechste_pruefung: addDays(today, days) },
    });
    expect(made.status).toBe(201);
  }
  await syncFrom(world.api, world.replica);
  await write(world, 'user.create', { attributes: { vorname: 'Nora', nachname: 'Zyxneu' } });
  person = world.replica.sqlite
    .prepare('SELECT id, nachname FROM users WHERE id = ?')
    .get(office.id) as typeof person;
}, 60_000);
afterAll(() => world?.close());

const csv = async (separator: ';' | ',', language: 'de' | 'en', includeUnread = true) => {
  const result = await exportData(
    world.replica,
    { format: 'csv', what: 'due', until, separator, language, includeUnread },
    { now: NOW },
  );
  return { result, lines: new TextDecoder().decode(result.bytes).trim().split(/\r?\n/) };
};

describe('what falls due (CSV)', () => {
  it('has a row per entry, the expired marked, and the never read person saying so', async () => {
    const { result, lines } = await csv(';', 'de');
    const due = listDue(world.replica.sqlite, { until, today, unread: true, limit: -1, offset: 0 });
    expect(result.fileName).toBe(`faellig-${until}.csv`);
    expect(result.count).toBe(due.total);
    expect(result.counted.de).toBe(`${due.total} Personen`);
    expect(lines[0]).toContain(
      'Nachname;Vorname;Mitgliedsnummer;Status;Art;Beschreibung;Fällig am;Abgelaufen;Stand der Prüfungen',
    );
    const german = (iso: string) => iso.split('-').reverse().join('.');
    const mine = lines.filter((line) => line.startsWith(`${person.nachname};`));
    expect(mine.find((line) => line.includes('Zyx-Atemschutz'))).toMatch(
      new RegExp(
        `;Prüfung;Zyx-Atemschutz;${german(addDays(today, -3))};ja;\\d\\d\\.\\d\\d\\.\\d{4}$`,
      ),
    );
    expect(mine.find((line) => line.includes('Zyx-Sehtest'))).toContain(
      `;Zyx-Sehtest;${german(addDays(today, 30))};nein;`,
    );
    expect(lines.at(-1)).toBe('Zyxneu;Nora;;;;;;;nie gelesen');
    // One row per entry, one per person without any.
    const rows = due.items.reduce((sum, p) => sum + Math.max(1, p.entries.length), 0);
    expect(lines.length - 1).toBe(rows);
  });

  it('speaks English with ISO dates, and leaves the never read out when asked', async () => {
    const { lines } = await csv(',', 'en', false);
    expect(lines[0]).toContain('Last name,First name,Member number,Status,Kind,Description,Due on');
    expect(lines.find((line) => line.includes('Zyx-Atemschutz'))).toContain(
      `,Check,Zyx-Atemschutz,${addDays(today, -3)},yes,`,
    );
    expect(lines.some((line) => line.includes('Zyxneu'))).toBe(false);
  });

  it('refuses a due list without the day', async () => {
    await expect(
      exportData(world.replica, { format: 'csv', what: 'due' }, { now: NOW }),
    ).rejects.toMatchObject({ message: expect.stringContaining('--until') });
  });
});

describe('what falls due (PDF)', () => {
  it.runIf(poppler)(
    'prints each person with their entries, and the never read under a heading',
    async () => {
      rmSync(ARTIFACTS, { recursive: true, force: true, maxRetries: 2 });
      mkdirSync(ARTIFACTS, { recursive: true });
      for (const language of ['de', 'en'] as const) {
        const result = await exportData(
          world.replica,
          { format: 'pdf', what: 'due', until, language },
          { now: NOW },
        );
        const file = join(ARTIFACTS, `due-${language}.pdf`);
        writeFileSync(file, result.bytes);
        const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
        if (language === 'de') {
          expect(text).toContain('Fällige Ausbildungen und Prüfungen');
          expect(text).toContain('Zyx-Atemschutz');
          expect(text).toContain('abgelaufen');
          expect(text).toContain('Prüfungen nie gelesen');
          expect(text).toMatch(/Zyxneu, Nora\s+nie gelesen/);
          expect(text).toMatch(/Seite 1 von \d/);
        } else {
          expect(text).toContain('Trainings and checks due');
          expect(text).toContain('never read');
        }
        execFileSync('pdftoppm', ['-png', '-r', '60', file, join(ARTIFACTS, `due-${language}`)]);
      }
      expect(readdirSync(ARTIFACTS).filter((f) => f.endsWith('.png')).length).toBeGreaterThan(1);
    },
  );
});
