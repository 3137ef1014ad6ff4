// Times as the service writes them: dates `YYYY-MM-DD`, date-times ISO 8601 with the
// Europe/Berlin offset. Computed by hand (EU daylight-saving rule) because Intl formatting is
// far too slow for the 100,000 hour entries of the large scale.

const MINUTE = 60_000;
export const HOUR_MS = 60 * MINUTE;
export const DAY_MS = 24 * HOUR_MS;

/** Last Sunday of a month, 01:00 UTC: when EU summer time starts (March) or ends (October). */
function lastSundayAt1Utc(year: number, monthIndex: number): number {
  const lastDay = new Date(Date.UTC(year, monthIndex + 1, 0, 1));
  return lastDay.getTime() - lastDay.getUTCDay() * DAY_MS;
}

/** Summer time of the year last asked for: consecutive calls nearly always hit the same year. */
let cachedYear = { from: 0, to: -1, summerStart: 0, summerEnd: 0 };

/** Minutes Europe/Berlin is ahead of UTC at an instant: 60, or 120 in summer time. */
export function berlinOffsetMinutes(utcMs: number): number {
  if (utcMs < cachedYear.from || utcMs >= cachedYear.to) {
    const year = new Date(utcMs).getUTCFullYear();
    cachedYear = {
      from: Date.UTC(year, 0, 1),
      to: Date.UTC(year + 1, 0, 1),
      summerStart: lastSundayAt1Utc(year, 2),
      summerEnd: lastSundayAt1Utc(year, 9),
    };
  }
  return utcMs >= cachedYear.summerStart && utcMs < cachedYear.summerEnd ? 120 : 60;
}

/** The instant of a Berlin wall-clock time; in the autumn overlap the summer-time reading wins. */
export function berlinWallClockToUtc(dayMs: number, hour: number, minute = 0): number {
  const wall = dayMs + hour * HOUR_MS + minute * MINUTE;
  const asSummer = wall - 120 * MINUTE;
  return berlinOffsetMinutes(asSummer) === 120 ? asSummer : wall - 60 * MINUTE;
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** `YYYY-MM-DD` of a UTC midnight (or any instant, read in UTC). */
export function formatDate(utcMs: number): string {
  const d = new Date(utcMs);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** `YYYY-MM-DD` of an instant as seen in Berlin. */
export function formatBerlinDate(utcMs: number): string {
  return formatDate(utcMs + berlinOffsetMinutes(utcMs) * MINUTE);
}

/** ISO 8601 with the Berlin offset and no fraction, e.g. `2026-03-01T08:00:00+01:00`. */
export function formatBerlinDateTime(utcMs: number): string {
  const offset = berlinOffsetMinutes(utcMs);
  const d = new Date(Math.floor(utcMs / 1000) * 1000 + offset * MINUTE);
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}` +
    `T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}` +
    `+${pad2(offset / 60)}:00`
  );
}

/** The same calendar day `years` later, as UTC midnight; 29 February becomes 28 February. */
export function addYears(dayMs: number, years: number): number {
  const d = new Date(dayMs);
  const target = Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate());
  // Date.UTC rolls 29 February over into March in common years.
  return new Date(target).getUTCMonth() === d.getUTCMonth() ? target : target - DAY_MS;
}

/** UTC midnight of a `YYYY-MM-DD` date; throws on anything else. */
export function parseDate(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (Number.isNaN(ms) || formatDate(ms) !== date)
    throw new Error(`not a date (YYYY-MM-DD): ${date}`);
  return ms;
}
