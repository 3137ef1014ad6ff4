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
