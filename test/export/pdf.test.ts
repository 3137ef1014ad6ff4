// The attendance list as PDF for a course with 30 participants (and one cancelled): two A4 pages,
// the same bytes for the same export time, its text (pdftotext) with every name, umlauts and all,
// "Seite 1 von 2"; rendered to PNG with pdftoppm into test-artifacts/export/ to be looked at.
// poppler-utils (pdftotext, pdftoppm) is needed for the text and the pictures: without it those
// checks are skipped, saying so (apt-get install -y poppler-utils), except in CI.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../sync/dispatch';
import { exportData } from '../../sync/export';
import { temporaryFiles } from '../support/temp-files';
import { CANCELLED, COURSE_TITLE, PEOPLE, exportWorld, type ExportWorld } from './fixture';

const temp = temporaryFiles('export-pdf');
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export');
const poppler = spawnSync('pdftoppm', ['-v']).error === undefined;
if (!poppler) {
  if (process.env.CI) throw new Error('pdftoppm is missing: apt-get install -y poppler-utils');
  console.warn(
    'pdftoppm/pdftotext missing: the PDF is not rendered (apt-get install -y poppler-utils)',
  );
}

let world: ExportWorld;
const NOW = new Date('2026-11-02T09:30:00Z');

beforeAll(async () => {
  world = await exportWorld(temp('replica.sqlite'));
}, 60_000);
afterAll(() => world?.close());

/** Pages as the file declares them (/Type /Page objects), without any PDF reader. */
const pageCount = (bytes: Uint8Array) =>
  (
    Buffer.from(bytes)
      .toString('latin1')
      .match(/\/Type \/Page\b(?!s)/g) ?? []
  ).length;

const attendance = (courseId: string, language: 'de' | 'en' = 'de') =>
  exportData(
    world.replica,
    { format: 'pdf', what: 'participants', courseId, language },
    { now: NOW },
  );

describe('attendance list (PDF)', () => {
  it('lists 30 participants on two A4 pages, the same bytes for the same export time', async () => {
    const result = await attendance(world.courseId);
    expect(result.mimeType).toBe('application/pdf');
    expect(result.count).toBe(30);
    expect(Buffer.from(result.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(pageCount(result.bytes)).toBe(2);
    expect(Buffer.from(result.bytes).toString('latin1')).toContain('/MediaBox [0 0 595.28 841.89]');
    const again = await attendance(world.courseId);
    expect(Buffer.from(again.bytes).equals(Buffer.from(result.bytes))).toBe(true);
    expect(result.fileName).toMatch(/^anwesenheitsliste-.+\.pdf$/);
  });

  it.skipIf(!poppler)(
    'has every name, the course’s header on each page and "Seite n von 2"',
    async () => {
      const file = temp('list.pdf');
      writeFileSync(file, (await attendance(world.courseId)).bytes);
      const pages = [1, 2].map((page) =>
        execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-layout', file, '-'], {
          encoding: 'utf8',
        }),
      );
      const text = pages.join('\n');
      // In reading order, cell by cell (-layout interleaves a wrapped name with its neighbours).
      const raw = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
      for (const [index, page] of pages.entries()) {
        expect(page).toContain('Anwesenheitsliste');
        expect(page).toContain('Übersee');
        expect(page).toContain('Unterschrift');
        expect(page).toContain(`Seite ${index + 1} von 2`);
      }
      // Names are set in one or two lines (long ones wrap): compare without the breaks and spaces.
      const squeezed = raw.replace(/\s+/g, '');
      for (const person of PEOPLE)
        expect(squeezed, person.last).toContain(person.last.replace(/\s+/g, ''));
      for (const name of [
        'Łukasz',
        'Şükrü',
        'Ægidius',
        'Zoë',
        'Müller-Lüdenscheidt',
        'Schmidt;Sohn',
      ])
        expect(squeezed).toContain(name);
      expect(squeezed).not.toContain(CANCELLED.last);
      expect(squeezed).toContain(COURSE_TITLE.replace(/\s+/g, ''));
      expect(text).toContain('14.02.1970');
    },
  );

  it.skipIf(!poppler)('renders to two PNG pages (test-artifacts/export/)', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const old of readdirSync(ARTIFACTS).filter((f) => f.startsWith('attendance-')))
      rmSync(join(ARTIFACTS, old));
    const file = join(ARTIFACTS, 'attendance.pdf');
    writeFileSync(file, (await attendance(world.courseId)).bytes);
    execFileSync('pdftoppm', ['-r', '80', '-png', file, join(ARTIFACTS, 'attendance')]);
    const pngs = readdirSync(ARTIFACTS).filter((f) => /^attendance-\d+\.png$/.test(f));
    expect(pngs.sort()).toEqual(['attendance-1.png', 'attendance-2.png']);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+2/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
  });

  it('is one page with the course and empty rows for a course without participants', async () => {
    const result = await attendance(world.dstCourseId, 'en');
    expect(result.empty).toBe(true);
    expect(result.count).toBe(0);
    expect(pageCount(result.bytes)).toBe(1);
    expect(result.fileName).toMatch(/^attendance-list-.+\.pdf$/);
  });

  it('is refused for a course that is not in the replica, in words', async () => {
    await expect(attendance('999999')).rejects.toMatchObject({
      code: 'not_found',
      messages: { de: expect.stringContaining('Den Kurs 999999 gibt es im Replikat nicht') },
    });
  });
});

describe('names as the service has them, and walk-ins added offline', () => {
  /** Walk-ins added here (not yet sent), each with a new company; discarded again afterwards. */
  const WALK_INS = [
    { first: 'Ǆemal', last: 'Ñúñez 日本', company: 'Ōsaka Bau 大阪 GmbH' },
    { first: 'さくら', last: '张伟', company: 'Neue Firma Zugang' },
    { first: 'Min-jun 민준', last: 'Kim', company: 'Seoul Handel' },
  ];
  const queued: number[] = [];

  beforeAll(async () => {
    const dispatcher = createDispatcher(world.replica);
    for (const [index, person] of WALK_INS.entries()) {
      const companyId = `new-${index + 1}`;
      const outcome = await dispatcher.call('participation.create', {
        courseId: world.courseId,
        attributes: { first_name: person.first, last_name: person.last },
        relationships: { company: { data: { type: 'company', id: companyId } } },
        included: [{ type: 'company', id: companyId, attributes: { name: person.company } }],
      });
      expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
      const id = (outcome as { value: { id: string } }).value.id;
      queued.push(
        world.replica.sqlite
          .prepare("SELECT id FROM outbox WHERE record_id = ? AND state <> 'done'")
          .pluck()
          .get(id) as number,
      );
    }
  });
  afterAll(async () => {
    const dispatcher = createDispatcher(world.replica);
    for (const id of queued) await dispatcher.call('outbox.discard', { id });
  });

  it.skipIf(!poppler)(
    'prints every name and new company, a fallback font for what DejaVu lacks',
    async () => {
      const result = await attendance(world.courseId);
      expect(result.count).toBe(PEOPLE.length + WALK_INS.length);
      const file = join(ARTIFACTS, 'attendance-scripts.pdf');
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(file, result.bytes);
      execFileSync('pdftoppm', ['-r', '80', '-png', file, join(ARTIFACTS, 'attendance-scripts')]);
      // pdftotext writes compatibility forms apart (Ǆ as DŽ): compared in that form.
      const squeeze = (text: string) => text.normalize('NFKC').replace(/\s+/g, '');
      const raw = squeeze(execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }));
      // The new companies live only in the queued walk-ins until the service has them.
      expect(raw).toContain(squeeze('Neue Firma Zugang'));
      expect(raw).toContain(squeeze('Seoul Handel'));
      for (const text of ['Ǆemal', 'Ñúñez 日本', 'Ōsaka Bau 大阪 GmbH', 'さくら', '张伟'])
        expect(raw, text).toContain(squeeze(text));
    },
  );

  it.skipIf(!poppler)(
    'marks what no font has and says so, never dropping it in silence',
    async () => {
      const result = await attendance(world.courseId);
      const file = temp('marked.pdf');
      writeFileSync(file, result.bytes);
      const raw = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
      expect(raw.replace(/\s+/g, '')).toContain('Min-jun\uFFFD\uFFFD');
      expect(result.note?.de).toContain('민 준');
      expect(result.note?.en).toContain('민 준');
      const english = await attendance(world.courseId, 'en');
      expect(english.note).toEqual(result.note);
    },
  );
});
