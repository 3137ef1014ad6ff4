// Dates and times as typed and shown in the app's language (renderer/date-entry.ts): German
// 26.11.2026 and English 26/11/2026 whatever the browser's locale or this computer's zone,
// shorthand understood, impossible days refused, the arrow keys' steps across month, year and
// midnight.
import { describe, expect, it } from 'vitest';
import {
  datePattern,
  parseDay,
  parseTime,
  showDay,
  stepDay,
  stepTime,
} from '../../renderer/date-entry';

const TODAY = '2026-11-26';

describe('typed dates and times', () => {
  it('shows a day as the language writes it, day first', () => {
    expect(showDay('2026-11-26', 'de')).toBe('26.11.2026');
    expect(showDay('2026-11-26', 'en')).toBe('26/11/2026');
    expect(showDay('26.1', 'de')).toBe('26.1');
    expect(datePattern('de')).toBe('TT.MM.JJJJ');
    expect(datePattern('en')).toBe('DD/MM/YYYY');
  });

  it('reads full dates, shorthand and ISO in either language', () => {
    for (const typed of [
      '26.11.2026',
      '26/11/2026',
      '26.11.26',
      '261126',
      '26112026',
      '2026-11-26',
    ])
      expect(parseDay(typed, TODAY), typed).toBe('2026-11-26');
    expect(parseDay('1.2.1990', TODAY)).toBe('1990-02-01');
    expect(parseDay('1.2.90', TODAY)).toBe('1990-02-01');
    expect(parseDay(' 3.4. ', TODAY)).toBe('2026-04-03');
    expect(parseDay('3.4', TODAY)).toBe('2026-04-03');
    expect(parseDay('0304', TODAY)).toBe('2026-04-03');
  });

  it('refuses what is no day', () => {
    for (const typed of ['31.02.2026', '2026-02-31', '32.1.2026', '1.13.2026', 'morgen', '', '1'])
      expect(parseDay(typed, TODAY), typed).toBeNull();
    expect(parseDay('29.2.2028', TODAY)).toBe('2028-02-29');
    expect(parseDay('29.2.2027', TODAY)).toBeNull();
  });

  it('reads times typed short or with any separator, on a 24-hour clock', () => {
    const cases: [string, string][] = [
      ['8', '08:00'],
      ['830', '08:30'],
      ['0830', '08:30'],
      ['8:30', '08:30'],
      ['8.30', '08:30'],
      ['16,45', '16:45'],
      ['23:59', '23:59'],
      ['0', '00:00'],
    ];
    for (const [typed, time] of cases) expect(parseTime(typed), typed).toBe(time);
    for (const typed of ['24', '2400', '8:60', '8:5', 'acht', '', '12345'])
      expect(parseTime(typed), typed).toBeNull();
  });

  it('steps days across months, years and leap days, and times around midnight', () => {
    expect(stepDay('2026-11-30', 1)).toBe('2026-12-01');
    expect(stepDay('2027-01-01', -1)).toBe('2026-12-31');
    expect(stepDay('2028-02-28', 1)).toBe('2028-02-29');
    // A day on which the clocks change is a day like any other.
    expect(stepDay('2026-03-29', 1)).toBe('2026-03-30');
    expect(stepDay('2026-10-25', -1)).toBe('2026-10-24');
    expect(stepTime('23:45', 15)).toBe('00:00');
    expect(stepTime('00:10', -15)).toBe('23:55');
  });
});
