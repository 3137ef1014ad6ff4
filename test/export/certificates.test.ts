// Certificates of attendance (issue 23) from the replica: one A4 page for each participant the
// service has as present, none for the absent or cancelled, one alone on request; read back with
// pdftotext (names with umlauts, certificate numbers, the course, its place, the trainers, the
// line to sign) and rendered to PNG with pdftoppm into test-artifacts/export/ to be looked at.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportData } from '../../sync/export';
import { temporaryFiles } from '../support/temp-files';
import { COURSE_TITLE, PEOPLE, exportWorld, type ExportWorld } from './fixture';

const temp = temporaryFiles('export-certificates');
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export');
const poppler = spawnSync('pdftoppm', ['-v']).error === undefined;
if (!poppler && process.env.CI)
  throw new Error('pdftoppm is missing: apt-get install -y poppler-utils');

let world: ExportWorld;
const NOW = new Date('2026-11-02T09:30:00Z');
/** Present with a certificate number, present without one, absent. */
let present: { id: string; first: string; last: string; number: string }[] = [];
let absentId = '';

const pageCount = (bytes: Uint8Array) =>
  (
    Buffer.from(bytes)
      .toString('latin1')
      .match(/\/Type \/Page\b(?!s)/g) ?? []
  ).length;

const certificates = (extra: Record<string, unknown> = {}, language: 'de' | 'en' = 'de') =>
  exportData(
    world.replica,
    { format: 'pdf', what: 'certificates', courseId: world.courseId, language, ...extra },
    { now: NOW },
  );

const textOf = (bytes: Uint8Array, name: string) => {
  const file = temp(name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

beforeAll(async () => {
  world = await exportWorld(temp('replica.sqlite'));
}, 60_000);
afterAll(() => world?.close());

describe('certificates of attendance (PDF)', () => {
  it('refuses, in words, a course where nobody is marked present', async () => {
    await expect(certificates()).rejects.toMatchObject({
      code: 'invalid_arguments',
      messages: { de: expect.stringMatching(/niemand als anwesend/) },
    });
  });

  it('makes one page for each participant marked present, the same bytes for the same export time', async () => {
    // The service is told who came (as a trainer's app or its web pages would), then synced.
    const rows = world.replica.sqlite
      .prepare(
        "SELECT id, first_name AS first, last_name AS last FROM participations WHERE course_id = ? AND coalesce(status, '') <> 'cancelled' ORDER BY last_name, first_name",
      )
      .all(world.courseId) as { id: string; first: string; last: string }[];
    const umlaut = rows.find((row) => row.last === PEOPLE[0]!.last)!;
    const others = rows.filter((row) => row !== umlaut);
    present = [
      { ...umlaut, number: 'TB-2026-0017' },
      { ...others[0]!, number: 'TB-2026-0018' },
      { ...others[1]!, number: '' },
    ];
    absentId = others[2]!.id;
    const mark = (id: string, attributes: Record<string, unknown>) =>
      world.write('PATCH', `/courses/${world.courseId}/participations/${id}`, {
        data: { type: 'participation', id, attributes },
      });
    for (const person of present)
      await mark(person.id, { attended: true, certificate_number: person.number });
    await mark(absentId, { attended: false });
    expect((await world.sync()).ok).toBe(true);

    const result = await certificates();
    expect(result.mimeType).toBe('application/pdf');
    expect(result.count).toBe(3);
    expect(result.counted.de).toBe('3 Teilnahmebescheinigungen');
    expect(pageCount(result.bytes)).toBe(3);
    expect(result.fileName).toMatch(/^teilnahmebescheinigungen-.+\.pdf$/);
    const again = await certificates();
    expect(Buffer.from(again.bytes).equals(Buffer.from(result.bytes))).toBe(true);
  });

  it.skipIf(!poppler)(
    'says on each page who attended which course, when and where, with its number, trainers and a line to sign',
    async () => {
      const file = temp('all.pdf');
      writeFileSync(file, (await certificates()).bytes);
      const pages = [1, 2, 3].map((page) =>
        execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-layout', file, '-'], {
          encoding: 'utf8',
        }),
      );
      // By last name, as the participants are listed.
      const order = [...present].sort((a, b) => a.last.localeCompare(b.last, 'de'));
      for (const [index, page] of pages.entries()) {
        const person = order[index]!;
        expect(page).toContain('Teilnahmebescheinigung');
        expect(page).toContain(`${person.first} ${person.last}`);
        expect(page.replace(/\s+/g, ' ')).toContain(COURSE_TITLE);
        expect(page).toContain('Übersee');
        expect(page).toContain('Unterschrift Ausbilder/in');
        expect(page).toMatch(/Ausbilder\/in:\s+\S/);
        if (person.number)
          expect(page).toMatch(new RegExp(`Bescheinigungs-Nr\\.:\\s+${person.number}`));
        else expect(page).not.toContain('Bescheinigungs-Nr.');
        expect(page).toContain(`Seite ${index + 1} von 3`);
      }
      const all = pages.join('\n');
      expect(all).not.toContain(PEOPLE.find((p) => p.last === 'Storniert')?.last ?? 'Storniert');
      mkdirSync(ARTIFACTS, { recursive: true });
      for (const old of readdirSync(ARTIFACTS).filter((f) => f.startsWith('certificates')))
        rmSync(join(ARTIFACTS, old));
      const kept = join(ARTIFACTS, 'certificates.pdf');
      writeFileSync(kept, (await certificates()).bytes);
      execFileSync('pdftoppm', ['-r', '80', '-png', kept, join(ARTIFACTS, 'certificates')]);
      expect(readdirSync(ARTIFACTS).filter((f) => /^certificates-\d+\.png$/.test(f))).toHaveLength(
        3,
      );
    },
  );

  it('makes one participant’s alone, in English too; refuses one not marked present', async () => {
    const [umlaut] = present;
    const one = await certificates({ participationId: umlaut!.id });
    expect(one.count).toBe(1);
    expect(pageCount(one.bytes)).toBe(1);
    expect(one.fileName).toContain('MüllerLüdenscheidt'.slice(0, 6));
    if (poppler) {
      const english = textOf(
        (await certificates({ participationId: umlaut!.id }, 'en')).bytes,
        'en.pdf',
      );
      expect(english).toContain('Certificate of attendance');
      expect(english).toMatch(/Certificate no\.:\s+TB-2026-0017/);
      expect(english).toContain(`${umlaut!.first} ${umlaut!.last}`);
    }
    await expect(certificates({ participationId: absentId })).rejects.toMatchObject({
      code: 'invalid_arguments',
      messages: { en: expect.stringMatching(/not one of the course marked present/) },
    });
    await expect(
      exportData(world.replica, {
        format: 'pdf',
        what: 'participants',
        courseId: world.courseId,
        participationId: absentId,
      }),
    ).rejects.toMatchObject({ code: 'invalid_arguments' });
  });
});
