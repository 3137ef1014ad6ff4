// Calendar rules of the interface's parameters and inputs, in the organisation's time zone
// (Europe/Berlin): date filters mean Berlin midnight at the start of the date; inputs must be
// real dates and date-times with an explicit offset. Formatting comes from the data layer.
import {
  berlinWallClockToUtc,
  formatBerlinDate,
  formatBerlinDateTime,
  parseDate,
} from '../data/time';

export { formatBerlinDate, formatBerlinDateTime };

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME_PATTERN =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** True for a real calendar date written `YYYY-MM-DD` (no 2026-02-30). */
export function isDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  try {
    parseDate(value);
    return true;
  } catch {
    return false;
  }
}

/** True for an ISO 8601 date-time with seconds and an explicit offset (`Z` or `±hh:mm`), as 'Y-m-dTH:i:sP'. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME_PATTERN.exec(value);
  return match !== null && isDate(match[1] ?? '');
}

/** The instant of Berlin midnight at the start of a `YYYY-MM-DD` date. */
export function berlinMidnight(date: string): number {
  return berlinWallClockToUtc(parseDate(date), 0);
}

/** A `YYYY-MM-DD` date moved by whole months, clamped to the month's last day (31 Aug - 6 months = 28/29 Feb). */
export function addMonthsToDate(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const firstOfTarget = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(firstOfTarget.getUTCFullYear(), firstOfTarget.getUTCMonth() + 1, 0),
  ).getUTCDate();
  const target = Date.UTC(
    firstOfTarget.getUTCFullYear(),
    firstOfTarget.getUTCMonth(),
    Math.min(day, lastDay),
  );
  return new Date(target).toISOString().slice(0, 10);
}
