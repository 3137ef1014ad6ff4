// The export's building blocks without a service: Berlin wall-clock arithmetic against Intl (over
// years of instants, across every DST change) and the days and times the screens send with it, the .ics line folding, the CSV writer's quoting and
// formula guard, and the request's refusals in both languages.
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { CoreFailure } from '../../sync/core-error';
import {
  berlinInstant,
  berlinOffsetMinutes,
  berlinWallClock,
  serviceDay,
  serviceInstant,
  serviceTime,
  serviceWallClock,
  toServiceDateTime,
} from '../../sync/contract/service-time';
import { csvStyle, renderCsv } from '../../sync/export/csv';
import { foldLines, renderCalendar } from '../../sync/export/ics';
import { checkCombination, exportRequestSchema } from '../../sync/export/request';

const intl = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function intlWallClock(ms: number): string {
  const parts = Object.fromEntries(intl.formatToParts(ms).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

const two = (n: number) => String(n).padStart(2, '0');

describe('Berlin wall clock', () => {
  it('agrees with Intl every 73 minutes from 2020 to 2031, across every DST change', () => {
    const start = Date.UTC(2020, 0, 1);
    const end = Date.UTC(2031, 0, 1);
    let checked = 0;
    for (let ms = start; ms < end; ms += 73 * 60_000) {
      const c = berlinWallClock(ms);
      expect(`${c.year}-${two(c.month)}-${two(c.day)} ${two(c.hour)}:${two(c.minute)}`).toBe(
        intlWallClock(ms),
      );
      checked += 1;
    }
    expect(checked).toBeGreaterThan(75_000);
  });

  it('turns wall-clock times into instants on both sides of the changes', () => {
    // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
    expect(new Date(berlinInstant(2026, 3, 28, 10)).toISOString()).toBe('2026-03-28T09:00:00.000Z');
    expect(new Date(berlinInstant(2026, 3, 30, 10)).toISOString()).toBe('2026-03-30T08:00:00.000Z');
    expect(new Date(berlinInstant(2026, 10, 24, 10)).toISOString()).toBe(
      '2026-10-24T08:00:00.000Z',
    );
    expect(new Date(berlinInstant(2026, 10, 26, 10)).toISOString()).toBe(
      '2026-10-26T09:00:00.000Z',
    );
    expect(berlinOffsetMinutes(Date.UTC(2026, 2, 29, 0, 59))).toBe(60);
    expect(berlinOffsetMinutes(Date.UTC(2026, 2, 29, 1, 0))).toBe(120);
    expect(berlinOffsetMinutes(Date.UTC(2026, 9, 25, 0, 59))).toBe(120);
    expect(berlinOffsetMinutes(Date.UTC(2026, 9, 25, 1, 0))).toBe(60);
  });

  it('reads the service’s date-times: offsets as written, none as Berlin time, never the machine’s zone', () => {
    expect(serviceInstant('2026-07-01T10:00:00+02:00')).toBe(Date.parse('2026-07-01T08:00:00Z'));
    expect(serviceInstant('2026-07-01T08:00:00Z')).toBe(Date.parse('2026-07-01T08:00:00Z'));
    expect(serviceInstant('2026-07-01T10:00:00')).toBe(Date.parse('2026-07-01T08:00:00Z'));
    expect(serviceInstant('2026-01-15 10:00')).toBe(Date.parse('2026-01-15T09:00:00Z'));
    expect(serviceInstant('2026-01-15')).toBe(Date.parse('2026-01-14T23:00:00Z'));
    expect(serviceInstant('2026-07-01T10:00:00+0200')).toBe(Date.parse('2026-07-01T08:00:00Z'));
    expect(serviceInstant('')).toBeNull();
    expect(serviceInstant('soon')).toBeNull();
  });

  it('writes a form’s day and time with the offset that holds then, as the screens send them', () => {
    expect(toServiceDateTime('2026-03-28', '10:00')).toBe('2026-03-28T10:00:00+01:00');
    expect(toServiceDateTime('2026-03-29', '10:00')).toBe('2026-03-29T10:00:00+02:00');
    // The spring gap moves forward an hour; the autumn hour that comes twice is summer time.
    expect(toServiceDateTime('2026-03-29', '02:30')).toBe('2026-03-29T03:30:00+02:00');
    expect(toServiceDateTime('2026-10-25', '02:30')).toBe('2026-10-25T02:30:00+02:00');
    expect(toServiceDateTime('2026-10-25', '10:00')).toBe('2026-10-25T10:00:00+01:00');
    expect(serviceDay('2026-11-23T23:30:00Z')).toBe('2026-11-24');
    expect(serviceDay(Date.parse('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
    expect(serviceTime('2026-07-01T08:00:00Z')).toBe('10:00');
    expect(serviceTime('2026-12-01T08:00:00+01:00')).toBe('08:00');
    expect(serviceWallClock(new Date('2026-10-25T00:59:30Z'))).toBe('2026-10-25T02:59:30');
    expect(serviceWallClock(Date.parse('2026-10-25T01:00:00Z'))).toBe('2026-10-25T02:00:00');
  });
});

describe('.ics text', () => {
  it('folds at 75 octets, never inside a character, and unfolds to the same text', () => {
    const line = `DESCRIPTION:${'Übung für Sanitäter – Großschadenslage 🚑 '.repeat(6)}`;
    const folded = foldLines(`${line}\r\nSUMMARY:kurz`);
    const physical = folded.split('\r\n');
    for (const part of physical) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(folded).not.toContain('\uFFFD');
    expect(folded.replace(/\r\n /g, '')).toBe(`${line}\r\nSUMMARY:kurz`);
    expect(Buffer.from(folded).toString('utf8')).toBe(folded);
  });

  it('writes a calendar without entries that is still valid (one component) and parses', () => {
    const text = renderCalendar('Leer', [], new Date('2026-01-01T00:00:00Z'));
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(0);
    expect(calendar.getAllSubcomponents('vtimezone')).toHaveLength(1);
  });

  it('escapes commas, semicolons, backslashes and line breaks; the parser gets them back', () => {
    const summary = 'Kurs; Teil 1, „Praxis“ \\ Übung\nZeile 2';
    const text = renderCalendar(
      'Test',
      [
        {
          uid: 'x@test',
          sequence: 3,
          start: Date.parse('2026-03-01T08:00:00Z'),
          end: Date.parse('2026-03-01T09:00:00Z'),
          summary,
          location: 'Saal A, 1. Stock; Eingang B',
          categories: ['Kurs', 'Erste Hilfe'],
          status: 'CANCELLED',
        },
      ],
      new Date('2026-02-01T12:00:00Z'),
    );
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent')!,
    );
    expect(event.summary).toBe(summary);
    expect(event.location).toBe('Saal A, 1. Stock; Eingang B');
    expect(event.sequence).toBe(3);
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(event.component.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(text).toContain('DTSTAMP:20260201T120000Z');
  });
});

describe('CSV', () => {
  it('quotes what needs it, doubles quotes, guards formulas, and reads back the same', () => {
    const style = csvStyle(';');
    const cells = [
      'Schmidt; Sohn',
      'Anna "Anni"',
      '=SUM(A1:A9)',
      '+49 170 1234',
      '-3',
      '@Mara',
      'Zeile 1\nZeile 2',
      'Müller',
    ];
    const text = renderCsv(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      [[...cells], [2.5, 10, null, '', 0.125, 'x', 'y', 'z']],
      style,
    );
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = parse(text, { bom: true, delimiter: ';' }) as string[][];
    expect(rows[1]).toEqual([
      'Schmidt; Sohn',
      'Anna "Anni"',
      "'=SUM(A1:A9)",
      "'+49 170 1234",
      "'-3",
      "'@Mara",
      'Zeile 1\nZeile 2',
      'Müller',
    ]);
    expect(rows[2]!.slice(0, 5)).toEqual(['2,5', '10', '', '', '0,13']);
    const comma = renderCsv(['n'], [[2.5]], csvStyle(','));
    expect((parse(comma, { bom: true, delimiter: ',' }) as string[][])[1]).toEqual(['2.5']);
  });
});

describe('export requests', () => {
  const refused = (input: Record<string, unknown>) => {
    try {
      checkCombination(exportRequestSchema.parse(input));
    } catch (error) {
      expect(error).toBeInstanceOf(CoreFailure);
      return error as CoreFailure;
    }
    throw new Error(`accepted: ${JSON.stringify(input)}`);
  };

  it('refuses what no file holds, in German and English', () => {
    const pdfOfHours = refused({ format: 'pdf', what: 'hours' });
    expect(pdfOfHours.code).toBe('invalid_arguments');
    expect(pdfOfHours.messages.de).toContain('gibt es nicht als PDF');
    expect(pdfOfHours.messages.en).toContain('cannot be exported as PDF');
    expect(refused({ format: 'csv', what: 'all' }).messages.en).toContain('one kind of rows');
    expect(refused({ format: 'ics', what: 'participants', courseId: '1' }).code).toBe(
      'invalid_arguments',
    );
    expect(refused({ format: 'csv', what: 'participants' }).messages.de).toContain(
      'fehlt der Kurs',
    );
    expect(refused({ format: 'ics', what: 'hours', courseId: '1' }).messages.en).toContain(
      'goes with courses, participants or certificates only',
    );
    expect(refused({ format: 'pdf', what: 'certificates' }).messages.en).toBe(
      'Certificates of attendance need a course (courseId, --course ID).',
    );
    expect(
      refused({ format: 'csv', what: 'participants', courseId: '1', participationId: '2' }).messages
        .de,
    ).toContain('passt nur zu certificates');
    expect(refused({ format: 'csv', what: 'certificates', courseId: '1' }).messages.en).toContain(
      'cannot be exported as CSV',
    );
    expect(
      refused({ format: 'ics', what: 'courses', from: '2026-05-01', until: '2026-04-01' }).messages
        .de,
    ).toContain('Zeitraum ist leer');
  });

  it('refuses impossible dates and unknown members in the schema', () => {
    expect(
      exportRequestSchema.safeParse({ format: 'ics', what: 'courses', from: '2026-02-30' }).success,
    ).toBe(false);
    expect(
      exportRequestSchema.safeParse({ format: 'ics', what: 'courses', extra: 1 }).success,
    ).toBe(false);
    expect(exportRequestSchema.parse({ format: 'csv', what: 'hours' })).toMatchObject({
      separator: ';',
      language: 'de',
      includeCancelled: false,
    });
  });
});
