// CSV exports read back with a CSV parser (csv-parse) and compared with the replica's rows:
// participants (umlauts, a name with `;` and a quote, formulas kept harmless, a walk-in's new
// company added offline), volunteer hours as the hours screen filters them, and course dates, in
// the German style (;, decimal comma, dd.mm.yyyy) and the other (,, decimal point, ISO dates),
// with words where the replica holds codes.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../sync/dispatch';
import { exportData } from '../../sync/export';
import { temporaryFiles } from '../support/temp-files';
import { CANCELLED, PEOPLE, exportWorld, type ExportWorld } from './fixture';

const temp = temporaryFiles('export-csv');
let world: ExportWorld;

beforeAll(async () => {
  world = await exportWorld(temp('replica.sqlite'));
}, 60_000);
afterAll(() => world?.close());

function readCsv(bytes: Uint8Array, delimiter: ';' | ','): Record<string, string>[] {
  // UTF-8 with a byte order mark, as Excel needs it to read UTF-8.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  expect(text.endsWith('\r\n')).toBe(true);
  return parse(text, { bom: true, delimiter, columns: true }) as Record<string, string>[];
}

/** What a spreadsheet shows for a cell the export guarded against running as a formula. */
const guarded = (value: string) => (/^[=+\-@]/.test(value) ? `'${value}` : value);

const germanDate = (iso: string) => iso.split('-').reverse().join('.');

describe('participants CSV', () => {
  it('has every participant not cancelled, as the replica holds them, names intact', async () => {
    const result = await exportData(world.replica, {
      format: 'csv',
      what: 'participants',
      courseId: world.courseId,
    });
    const rows = readCsv(result.bytes, ';');
    const replicaRows = world.replica.sqlite
      .prepare(
        `SELECT p.first_name, p.last_name, co.name AS company, p.base FROM participations p
         LEFT JOIN companies co ON co.id = p.company_id
         WHERE p.course_id = ? AND p.status <> 'cancelled'`,
      )
      .all(world.courseId) as {
      first_name: string;
      last_name: string;
      company: string | null;
      base: string;
    }[];
    expect(replicaRows).toHaveLength(30);
    expect(result.count).toBe(30);
    expect(rows).toHaveLength(30);
    expect(Object.keys(rows[0]!)).toEqual([
      'Nr.',
      'Nachname',
      'Vorname',
      'Firma',
      'Geburtsdatum',
      'E-Mail',
      'Telefon',
      'Status',
      'Anwesend',
    ]);
    const byName = new Map(rows.map((r) => [`${r.Nachname}|${r.Vorname}`, r]));
    for (const person of replicaRows) {
      const row = byName.get(`${guarded(person.last_name)}|${guarded(person.first_name)}`);
      expect(row, `${person.last_name}, ${person.first_name}`).toBeDefined();
      expect(row!.Firma).toBe(person.company ?? '');
      const birthday = (JSON.parse(person.base) as { attributes: { birthday?: string } }).attributes
        .birthday;
      expect(row!.Geburtsdatum).toBe(birthday ? germanDate(birthday) : '');
    }
    // The names as they were entered on the service: umlauts, ß, Ł, ş, the `;` and the quote.
    for (const person of PEOPLE) {
      const row = byName.get(`${guarded(person.last)}|${guarded(person.first)}`);
      expect(row, person.last).toBeDefined();
      if (person.company) expect(row!.Firma).toBe(person.company);
    }
    expect(byName.get('Schmidt; Sohn|Anna "Anni"')).toBeDefined();
    expect(byName.get('Formel|\'=HYPERLINK("http://example.org")')).toBeDefined();
    expect(byName.get("'+Plus|'@Mara")).toBeDefined();
    expect(rows.map((r) => r.Nachname)).not.toContain(CANCELLED.last);
    // Numbered 1..30 in German alphabetical order of last names.
    expect(rows.map((r) => r['Nr.'])).toEqual(rows.map((_, i) => String(i + 1)));
    expect(result.fileName).toMatch(/^teilnehmende-.+\.csv$/);
  });

  it('has the cancelled ones too when asked, with their status', async () => {
    const rows = readCsv(
      (
        await exportData(world.replica, {
          format: 'csv',
          what: 'participants',
          courseId: world.courseId,
          includeCancelled: true,
        })
      ).bytes,
      ';',
    );
    expect(rows).toHaveLength(31);
    expect(rows.find((r) => r.Nachname === CANCELLED.last)?.Status).toBe('storniert');
  });

  it('has the new company of a walk-in added offline, before the service has it', async () => {
    const dispatcher = createDispatcher(world.replica);
    const created = await dispatcher.call('participation.create', {
      courseId: world.courseId,
      attributes: { first_name: 'Erika', last_name: 'Zugang' },
      relationships: { company: { data: { type: 'company', id: 'new-1' } } },
      included: [{ type: 'company', id: 'new-1', attributes: { name: 'Neue Firma Größe GmbH' } }],
    });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const id = (created as { value: { id: string } }).value.id;
    try {
      const rows = readCsv(
        (
          await exportData(world.replica, {
            format: 'csv',
            what: 'participants',
            courseId: world.courseId,
          })
        ).bytes,
        ';',
      );
      expect(rows.find((r) => r.Nachname === 'Zugang')?.Firma).toBe('Neue Firma Größe GmbH');
    } finally {
      // Gone again for the tests after this one.
      await dispatcher.call('outbox.discard', {
        id: world.replica.sqlite
          .prepare("SELECT id FROM outbox WHERE record_id = ? AND state <> 'done'")
          .pluck()
          .get(id) as number,
      });
    }
  });

  it('writes commas, points and ISO dates with the "," separator, headers in English', async () => {
    const rows = readCsv(
      (
        await exportData(world.replica, {
          format: 'csv',
          what: 'participants',
          courseId: world.courseId,
          separator: ',',
          language: 'en',
        })
      ).bytes,
      ',',
    );
    const jurgen = rows.find((r) => r['Last name'] === 'Müller-Lüdenscheidt')!;
    expect(jurgen['Date of birth']).toBe('1970-02-14');
    expect(jurgen.Company).toBe('Bäckerei Groß & Söhne');
    expect(rows.find((r) => r['Last name'] === 'Schmidt; Sohn')?.['First name']).toBe(
      'Anna "Anni"',
    );
  });
});

describe('volunteer hours CSV', () => {
  interface HourRow {
    id: string;
    von: string;
    bis: string | null;
    stunden: number;
    freigegeben: number;
    user: string | null;
  }
  const replicaHours = (where: string, ...params: unknown[]) =>
    world.replica.sqlite
      .prepare(
        `SELECT h.id, h.von, h.bis, h.stunden, h.freigegeben, u.nachname || ', ' || u.vorname AS user
         FROM helferstunden h LEFT JOIN users u ON u.id = h.user_id WHERE ${where} ORDER BY h.von, h.id`,
      )
      .all(...params) as HourRow[];

  it('has the entries of the filter (a person, a range, approved), hours with a decimal comma', async () => {
    const all = replicaHours('1');
    const someone = all.find((h) => h.freigegeben === 1)!;
    const userId = world.replica.sqlite
      .prepare('SELECT user_id FROM helferstunden WHERE id = ?')
      .pluck()
      .get(someone.id) as string;
    const years = all.map((h) => h.von.slice(0, 4)).sort();
    const [from, until] = [`${years[0]}-01-01`, `${years.at(-1)}-12-31`];
    const expected = replicaHours(
      'h.user_id = ? AND h.freigegeben = 1 AND h.von >= ? AND h.von < ?',
      userId,
      from,
      `${until}T99`,
    );
    expect(expected.length).toBeGreaterThan(0);
    const result = await exportData(world.replica, {
      format: 'csv',
      what: 'hours',
      userId,
      approved: true,
      from,
      until,
    });
    const rows = readCsv(result.bytes, ';');
    expect(rows).toHaveLength(expected.length);
    rows.forEach((row, index) => {
      const hour = expected[index]!;
      const start = hour.von.match(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})/)!;
      expect(row.Datum).toBe(`${start[3]}.${start[2]}.${start[1]}`);
      expect(row.Beginn).toBe(start[4]);
      if (hour.bis) expect(row.Ende).toMatch(new RegExp(`${hour.bis.slice(11, 16)}$`));
      expect(Number(row.Stunden!.replace(',', '.'))).toBe(hour.stunden);
      expect(row.Person).toBe(hour.user);
      expect(row.Freigegeben).toBe('ja');
    });
  });

  it('has one’s own entries made offline, which have no person until the service takes them, as the screen shows them', async () => {
    const dispatcher = createDispatcher(world.replica);
    const created = await dispatcher.call('helferstunden.create', {
      attributes: { von: '2026-11-21T09:00:00+01:00', stunden: 3.5, bemerkung: 'offline' },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: '1' } },
        typ: { data: { type: 'helferstunden_typ', id: '1' } },
      },
    });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const id = (created as { value: { id: string } }).value.id;
    const screen = await dispatcher.call('hours.list', { userId: 'self', limit: 1000 });
    const shown = screen.ok ? (screen.value as { items: { id: string }[] }).items : [];
    expect(shown.some((h) => h.id === id)).toBe(true);
    const result = await exportData(world.replica, {
      format: 'csv',
      what: 'hours',
      userId: 'self',
    });
    const rows = readCsv(result.bytes, ';');
    expect(rows).toHaveLength(shown.length);
    expect(rows.some((r) => r.Datum === '21.11.2026' && r.Stunden === '3,5')).toBe(true);
    // Gone again for the tests after this one.
    await dispatcher.call('outbox.discard', {
      id: world.replica.sqlite
        .prepare("SELECT id FROM outbox WHERE record_id = ? AND state <> 'done'")
        .pluck()
        .get(id) as number,
    });
  });

  it('writes every entry for everyone, and ISO dates with the "," separator', async () => {
    const expected = replicaHours('1');
    const rows = readCsv(
      (await exportData(world.replica, { format: 'csv', what: 'hours', separator: ',' })).bytes,
      ',',
    );
    expect(rows).toHaveLength(expected.length);
    expect(rows[0]!.Datum).toBe(expected[0]!.von.slice(0, 10));
    expect(rows.every((r) => !r.Stunden!.includes(','))).toBe(true);
    expect(rows.map((r) => Number(r.Stunden))).toEqual(expected.map((h) => h.stunden));
  });

  it('writes the occasion’s kind in words, German and English, never its code', async () => {
    const kinds = world.replica.sqlite
      .prepare(
        `SELECT DISTINCT a.typ FROM helferstunden h JOIN helferstunden_anlaesse a ON a.id = h.anlass_id`,
      )
      .pluck()
      .all() as string[];
    expect(kinds.length).toBeGreaterThan(1);
    const german = readCsv(
      (await exportData(world.replica, { format: 'csv', what: 'hours' })).bytes,
      ';',
    );
    const GERMAN: Record<string, string> = {
      dienst: 'Dienst',
      termin: 'Termin',
      kurs: 'Kurs',
      sonstiges: 'Sonstiges',
    };
    const ENGLISH: Record<string, string> = {
      dienst: 'Duty',
      termin: 'Appointment',
      kurs: 'Course',
      sonstiges: 'Other',
    };
    expect(new Set(german.map((r) => r['Art des Anlasses']))).toEqual(
      new Set(kinds.map((kind) => GERMAN[kind])),
    );
    const english = readCsv(
      (
        await exportData(world.replica, {
          format: 'csv',
          what: 'hours',
          separator: ',',
          language: 'en',
        })
      ).bytes,
      ',',
    );
    expect(new Set(english.map((r) => r['Kind of occasion']))).toEqual(
      new Set(kinds.map((kind) => ENGLISH[kind])),
    );
  });
});

describe('course dates CSV', () => {
  it('numbers a course’s dates in words no spreadsheet reads as a date', async () => {
    const german = readCsv(
      (
        await exportData(world.replica, {
          format: 'csv',
          what: 'courses',
          courseId: world.courseId,
        })
      ).bytes,
      ';',
    );
    expect(german.map((r) => r.Termin)).toEqual(['1 von 2', '2 von 2']);
    const english = readCsv(
      (
        await exportData(world.replica, {
          format: 'csv',
          what: 'courses',
          courseId: world.dstCourseId,
          separator: ',',
          language: 'en',
        })
      ).bytes,
      ',',
    );
    expect(english.map((r) => r['Date no.'])).toEqual(['1 of 4', '2 of 4', '3 of 4', '4 of 4']);
    // Day and month, or month and day, the way spreadsheets take dates: none such.
    const all = readCsv(
      (await exportData(world.replica, { format: 'csv', what: 'courses' })).bytes,
      ';',
    );
    expect(all.length).toBeGreaterThan(2);
    expect(all.filter((r) => /^\d+\s*[/.-]\s*\d+$/.test(r.Termin!))).toEqual([]);
  });
});
