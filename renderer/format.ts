// Times as people say them ("vor 2 Minuten"), in the language in use.
import { useEffect, useState } from 'react';
import { SERVICE_ZONE } from './contract';

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
  const format = cached(
    relativeFormats,
    language,
    () => new Intl.RelativeTimeFormat(language, { numeric: 'auto' }),
  );
  const abs = Math.abs(seconds);
  if (abs < 45) return format.format(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute');
  const hours = Math.round(seconds / 3600);
  if (Math.abs(hours) < 24) return format.format(hours, 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/** The full date and time in Europe/Berlin (as everything shown), for a title or a details list. */
export function absoluteTime(iso: string, language: string): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return iso;
  return formatter(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(then);
}

// A formatter is costly to make (a list of a hundred amounts made one each: milliseconds of a
// keystroke): one per language and kind, kept.
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const hourFormats = new Map<string, Intl.NumberFormat>();
function cached<T>(formats: Map<string, T>, key: string, make: () => T): T {
  let format = formats.get(key);
  if (format === undefined) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/**
 * `words` remembering each answer: a list's rows say the same few things (an amount of hours, a
 * kind of occasion) and i18next's lookup costs tens of microseconds a time. Make one per language
 * (useMemo on `t` and the language), so a language changed makes a new one.
 */
export function rememberEach<K, V>(words: (key: K) => V): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    if (!known.has(key)) known.set(key, words(key));
    return known.get(key)!;
  };
}

/** Stands for the number while a message is looked up once (no text of ours contains it). */
const NUMBER_HOLE = '\u2063';

/**
 * An amount of hours in words ("3,5 Std.", "3.5 h") from the message looked up once per language:
 * the totals show fifty new amounts per filter, and i18next's interpolation costs tens of
 * microseconds each. `unit` is `t('hours.unit', …)` as the screen has it.
 */
export function hoursWords(
  unit: (hours: { hours: string }) => string,
  language: string,
): (hours: number) => string {
  const [before = '', after = ''] = unit({ hours: NUMBER_HOLE }).split(NUMBER_HOLE);
  return (hours) => `${before}${formatHours(hours, language)}${after}`;
}

export function formatNumber(value: number, language: string): string {
  return cached(numberFormats, language, () => new Intl.NumberFormat(language)).format(value);
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

const zoned = new Map<string, Intl.DateTimeFormat>();
function formatter(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(
    zoned,
    `${language}|${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(language, { ...options, timeZone: SERVICE_ZONE }),
  );
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
  return cached(
    hourFormats,
    language,
    () => new Intl.NumberFormat(language, { maximumFractionDigits: 2 }),
  ).format(value);
}

// Days and times on the service's wall clock (Europe/Berlin): the contract's, one place for both.
export { serviceDay, serviceTime, toServiceDateTime } from './contract';
