// Dates and times as a person types and reads them in the app's language, whatever the browser's
// own (a native <input type="date"> shows 11/26/2026 to an American browser on a German screen):
// German 26.11.2026, English 26/11/2026 (day first, as the organisation's country writes it),
// times 08:30 in both. Typing is quick: "26.11.26", "261126", "26.11." (this year), an ISO date,
// "0830", "8.30" or "8". The forms keep YYYY-MM-DD and HH:mm; what does not parse stays as typed.
import { addDays, format, isValid, parse } from 'date-fns';

export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

const SEPARATOR = { de: '.', en: '/' } as const;

function separatorOf(language: string): string {
  return language === 'en' ? SEPARATOR.en : SEPARATOR.de;
}

/** "TT.MM.JJJJ" / "DD/MM/YYYY": the pattern a field shows while empty. */
export function datePattern(language: string): string {
  const sep = separatorOf(language);
  return language === 'en' ? `DD${sep}MM${sep}YYYY` : `TT${sep}MM${sep}JJJJ`;
}

/** A YYYY-MM-DD day as the language writes it; anything else as it is. */
export function showDay(value: string, language: string): string {
  if (!ISO_DAY.test(value)) return value;
  const [year, month, day] = value.split('-');
  const sep = separatorOf(language);
  return `${day}${sep}${month}${sep}${year}`;
}

/** Which date-fns pattern reads a typed date (separators already made "."). */
const DATE_FORMS: [RegExp, string][] = [
  [/^\d{1,2}\.\d{1,2}\.\d{4}$/, 'd.M.yyyy'],
  [/^\d{1,2}\.\d{1,2}\.\d{2}$/, 'd.M.yy'],
  [/^\d{1,2}\.\d{1,2}$/, 'd.M'],
  [/^\d{8}$/, 'ddMMyyyy'],
  [/^\d{6}$/, 'ddMMyy'],
  [/^\d{4}$/, 'ddMM'],
];

/**
 * The YYYY-MM-DD day a typed date means, or null. Day first in both languages; a missing year
 * is `today`'s, a two-digit one the nearest century's (date-fns).
 */
export function parseDay(text: string, today: string): string | null {
  const typed = text.trim();
  if (ISO_DAY.test(typed)) {
    const date = parse(typed, 'yyyy-MM-dd', new Date(2000, 0, 1));
    return isValid(date) ? typed : null;
  }
  const normal = typed.replace(/[./,\-\s]+/g, '.').replace(/\.$/, '');
  const form = DATE_FORMS.find(([shape]) => shape.test(normal))?.[1];
  if (!form) return null;
  const reference = parse(today, 'yyyy-MM-dd', new Date(2000, 0, 1));
  const date = parse(normal, form, reference);
  return isValid(date) ? format(date, 'yyyy-MM-dd') : null;
}

/** The day `days` after a YYYY-MM-DD day (calendar arithmetic, no time zone involved). */
export function stepDay(value: string, days: number): string {
  return format(addDays(parse(value, 'yyyy-MM-dd', new Date(2000, 0, 1)), days), 'yyyy-MM-dd');
}

/** The HH:mm a typed time means ("8", "830", "0830", "8:30", "8.30"), or null. */
export function parseTime(text: string): string | null {
  const match = /^(\d{1,2})(?:[:.,hH]?(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? '0');
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** A HH:mm time `minutes` later (or earlier), around the clock. */
export function stepTime(value: string, minutes: number): string {
  const [hours, mins] = value.split(':').map(Number) as [number, number];
  const total = (((hours * 60 + mins + minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}
