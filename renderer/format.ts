// Times as people say them ("vor 2 Minuten"), in the language in use.
import { useEffect, useState } from 'react';

/**
 * "vor 2 Minuten" / "2 minutes ago" (or "in 30 Sekunden" for a future time). `past`: a time
 * that has happened (a last sync), never shown as future when the core's clock is a little
 * ahead of this page's: "jetzt" instead.
 */
export function relativeTime(
  iso: string,
  now: number,
  language: string,
  options: { past?: boolean } = {},
): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const raw = Math.round((then - now) / 1000);
  const seconds = options.past ? Math.min(0, raw) : raw;
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 45) return format.format(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute');
  const hours = Math.round(seconds / 3600);
  if (Math.abs(hours) < 24) return format.format(hours, 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/** The full local date and time, for a title or a details list. */
export function absoluteTime(iso: string, language: string): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
    then,
  );
}

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** The current time, re-read every `everyMs` so relative times stay true. */
export function useNow(everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

// ---------------------------------------------------------------------------------------------
// Dates and times as the service means them: wall-clock time in Europe/Berlin, whatever zone this
// computer is in. The service writes `2026-03-29T10:00:00+02:00`; a screen shows 10:00.

export const SERVICE_ZONE = 'Europe/Berlin';

const zoned = new Map<string, Intl.DateTimeFormat>();
function formatter(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = zoned.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { ...options, timeZone: SERVICE_ZONE });
    zoned.set(key, format);
  }
  return format;
}

/** "Mo., 23. Nov. 2026" / "Mon, Nov 23, 2026": a day heading. `day` is a date-time or YYYY-MM-DD. */
export function formatDay(day: string, language: string): string {
  const instant = /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T12:00:00Z` : day;
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return day;
  return formatter(language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(date);
}

/** "23.11.2026": a short date in the service's zone. */
export function formatDate(value: string, language: string): string {
  const instant = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T12:00:00Z` : value;
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return value;
  return formatter(language, { dateStyle: 'medium' }).format(date);
}

/** "09:30": the wall-clock time in the service's zone. */
export function formatTime(value: string, language: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatter(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
}

/** "1,5" / "1.5": hours and other amounts in the language in use. */
export function formatHours(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value);
}

/** The wall clock in Europe/Berlin at an instant: [YYYY-MM-DD, HH:MM] and the offset in minutes. */
function berlinWall(instant: number): { day: string; time: string; offset: number } {
  const parts = Object.fromEntries(
    formatter('en-GB', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    offset: Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000),
  };
}

/** The service's day (YYYY-MM-DD in Europe/Berlin) of a date-time, or of now. */
export function serviceDay(value?: string | number | Date): string {
  const instant = value === undefined ? Date.now() : new Date(value).getTime();
  return berlinWall(instant).day;
}

/** "HH:MM" in Europe/Berlin of a date-time (for a form's time field). */
export function serviceTime(value: string): string {
  return berlinWall(new Date(value).getTime()).time;
}

/**
 * A wall-clock day and time in Europe/Berlin as the service writes it, with the offset that
 * holds then: ('2026-03-29', '10:00') → '2026-03-29T10:00:00+02:00'. A time that does not exist
 * (the spring gap) moves forward an hour, as clocks do.
 */
export function toServiceDateTime(day: string, time: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, date, hour, minute);
  let instant = wall - berlinWall(wall).offset * 60_000;
  instant = wall - berlinWall(instant).offset * 60_000;
  const shown = berlinWall(instant);
  const sign = shown.offset < 0 ? '-' : '+';
  const abs = Math.abs(shown.offset);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${shown.day}T${shown.time}:00${offset}`;
}
