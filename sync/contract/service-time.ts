// The service's wall clock (Europe/Berlin), one place for the core, its exports and the UI,
// whatever zone this machine is in: an export made in New York must say 10:00 for a course at
// 10:00 in Berlin, and a form filled in there must send 10:00+01:00. Offsets follow the EU rule
// (summer time from the last Sunday of March to the last Sunday of October, 01:00 UTC), in force
// in Germany since 1996; earlier instants ask Intl. Plain arithmetic: 10,000 hour entries are
// formatted in milliseconds, where Intl.DateTimeFormat takes a good part of a second.

export const SERVICE_ZONE = 'Europe/Berlin';

export const HOUR_MS = 3_600_000;
const MINUTE = 60_000;

/** 01:00 UTC of the last Sunday of a month (month 0-based). */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  const sunday = lastDay.getUTCDate() - lastDay.getUTCDay();
  return Date.UTC(year, month, sunday, 1);
}

const transitions = new Map<number, [number, number]>();

function summerTime(year: number): [number, number] {
  let span = transitions.get(year);
  if (!span) {
    span = [lastSundayAtOneUtc(year, 2), lastSundayAtOneUtc(year, 9)];
    transitions.set(year, span);
  }
  return span;
}

const intlOffset = new Intl.DateTimeFormat('en-US', {
  timeZone: SERVICE_ZONE,
  timeZoneName: 'longOffset',
});

/** Minutes Berlin is ahead of UTC at the instant (60 or 120 since 1996). */
export function berlinOffsetMinutes(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  if (year >= 1996 && year < 10000) {
    const [start, end] = summerTime(year);
    return ms >= start && ms < end ? 120 : 60;
  }
  const name = intlOffset.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 60;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

export interface WallClock {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday */
  weekday: number;
}

/** The Berlin wall clock at an instant. */
export function berlinWallClock(ms: number): WallClock {
  const shifted = new Date(ms + berlinOffsetMinutes(ms) * MINUTE);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    weekday: shifted.getUTCDay(),
  };
}

/**
 * The instant of a Berlin wall-clock time. A time in the spring gap (02:30 on the last Sunday of
 * March) is read with the winter offset, i.e. an hour later; a time of the autumn hour that comes
 * twice is its first (summer time) occurrence.
 */
export function berlinInstant(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const summer = asUtc - 120 * MINUTE;
  if (berlinOffsetMinutes(summer) === 120) return summer;
  // Winter time, or the spring gap: the winter offset, which lands an hour later in summer time.
  const winter = asUtc - 60 * MINUTE;
  const offset = berlinOffsetMinutes(winter);
  return offset === 120 ? winter : asUtc - offset * MINUTE;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * The instant a date-time of the service means: with an offset or Z as written; without one as
 * Berlin wall-clock time (never this machine's zone); a bare date as Berlin midnight. Null for
 * anything else.
 */
export function serviceInstant(text: string | null | undefined): number | null {
  if (!text) return null;
  const match = DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, zone] = match;
  const fields = [
    Number(y),
    Number(mo),
    Number(d),
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(s ?? 0),
  ];
  if (!zone) {
    const ms = berlinInstant(fields[0]!, fields[1]!, fields[2]!, fields[3], fields[4], fields[5]);
    return Number.isFinite(ms) ? ms : null;
  }
  const ms = Date.parse(
    `${y}-${mo}-${d}T${h ?? '00'}:${mi ?? '00'}:${s ?? '00'}${normalZone(zone)}`,
  );
  return Number.isFinite(ms) ? ms : null;
}

function normalZone(zone: string): string {
  if (zone.toUpperCase() === 'Z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${(digits.slice(2) || '00').padEnd(2, '0')}`;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** YYYY-MM-DD of the Berlin day of an instant. */
export function berlinIsoDate(ms: number): string {
  const c = berlinWallClock(ms);
  return `${c.year}-${two(c.month)}-${two(c.day)}`;
}

/** dd.mm.yyyy of the Berlin day of an instant. */
export function berlinGermanDate(ms: number): string {
  const c = berlinWallClock(ms);
  return `${two(c.day)}.${two(c.month)}.${c.year}`;
}

/** HH:MM of the Berlin wall clock at an instant. */
export function berlinTime(ms: number): string {
  const c = berlinWallClock(ms);
  return `${two(c.hour)}:${two(c.minute)}`;
}

/** The instant as the service's wall clock, `YYYY-MM-DDTHH:MM:SS` (comparable as text). */
export function serviceWallClock(instant: Date | number): string {
  const c = berlinWallClock(typeof instant === 'number' ? instant : instant.getTime());
  return `${c.year}-${two(c.month)}-${two(c.day)}T${two(c.hour)}:${two(c.minute)}:${two(c.second)}`;
}

/** The service's day (YYYY-MM-DD) of an instant or a date-time, or of now. */
export function serviceDay(value?: string | number | Date): string {
  return berlinIsoDate(value === undefined ? Date.now() : new Date(value).getTime());
}

/** "HH:MM" on the service's wall clock of a date-time (for a form's time field). */
export function serviceTime(value: string): string {
  return berlinTime(new Date(value).getTime());
}

/** A calendar day `days` later (earlier when negative). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/**
 * A wall-clock day and time as the service writes it, with the offset that holds then:
 * ('2026-03-29', '10:00') → '2026-03-29T10:00:00+02:00'. A time in the spring gap moves forward
 * an hour, as clocks do; the autumn hour that comes twice is its first (summer time) occurrence.
 */
export function toServiceDateTime(day: string, time: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const instant = berlinInstant(year, month, date, hour, minute);
  const offset = berlinOffsetMinutes(instant);
  const zone = `+${two(Math.floor(offset / 60))}:${two(offset % 60)}`;
  return `${berlinIsoDate(instant)}T${berlinTime(instant)}:00${zone}`;
}
