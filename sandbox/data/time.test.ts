import { describe, expect, it } from 'vitest';
import { compareIds, idNumber } from './ids';
import {
  addYears,
  berlinOffsetMinutes,
  berlinWallClockToUtc,
  formatBerlinDate,
  formatBerlinDateTime,
  parseDate,
} from './time';

describe('Berlin time', () => {
  it('switches offset at the EU summer-time instants', () => {
    expect(berlinOffsetMinutes(Date.parse('2026-03-29T00:59:59Z'))).toBe(60);
    expect(berlinOffsetMinutes(Date.parse('2026-03-29T01:00:00Z'))).toBe(120);
    expect(berlinOffsetMinutes(Date.parse('2026-10-25T00:59:59Z'))).toBe(120);
    expect(berlinOffsetMinutes(Date.parse('2026-10-25T01:00:00Z'))).toBe(60);
    expect(berlinOffsetMinutes(Date.parse('2025-12-31T23:30:00Z'))).toBe(60);
  });

  it('formats instants with the offset of their moment', () => {
    expect(formatBerlinDateTime(Date.parse('2026-03-01T07:00:00.999Z'))).toBe(
      '2026-03-01T08:00:00+01:00',
    );
    expect(formatBerlinDateTime(Date.parse('2026-07-01T22:30:00Z'))).toBe(
      '2026-07-02T00:30:00+02:00',
    );
    expect(formatBerlinDate(Date.parse('2026-07-01T22:30:00Z'))).toBe('2026-07-02');
  });

  it('reads wall-clock times on both sides of a switch', () => {
    const day = parseDate('2026-03-29');
    expect(new Date(berlinWallClockToUtc(day, 0)).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(berlinWallClockToUtc(day, 9, 30)).toISOString()).toBe(
      '2026-03-29T07:30:00.000Z',
    );
    expect(new Date(berlinWallClockToUtc(parseDate('2026-10-25'), 12)).toISOString()).toBe(
      '2026-10-25T11:00:00.000Z',
    );
  });

  it('parses only real dates and adds years keeping 29 February in its month', () => {
    expect(() => parseDate('2026-02-30')).toThrow();
    expect(() => parseDate('15.03.2026')).toThrow();
    expect(addYears(parseDate('2024-02-29'), 1)).toBe(parseDate('2025-02-28'));
    expect(addYears(parseDate('2024-02-29'), 4)).toBe(parseDate('2028-02-29'));
  });
});

describe('ids', () => {
  it('orders numbers numerically and ignores leading zeros only as a tie-breaker', () => {
    const ids = ['b', '10', '2', '010', 'a', '2-x', '1'];
    expect([...ids].sort(compareIds)).toEqual(['1', '2', '2-x', '010', '10', 'a', 'b']);
  });

  it('reads the counting number of an id', () => {
    expect(idNumber('17')).toBe(17);
    expect(idNumber('17-9aabc46f91700bf0d97f625b7c5eeacf')).toBe(17);
    expect(idNumber('9aabc46f91700bf0d97f625b7c5eeacf')).toBeNull();
  });
});
