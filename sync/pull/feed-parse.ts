// Reads the private calendar feed's iCalendar text (ical.js) into rows of feed_events. Times
// become UTC instants: UTC as written, a TZID through the file's VTIMEZONE, or (no VTIMEZONE) the
// IANA zone of that name; a time without a zone, or with a zone nobody knows, is Berlin wall-clock
// time, the service's. Never this machine's zone (feed-time.ts). A repeating event keeps its
// VEVENT and the VTIMEZONEs it names (ical), expanded when asked (feed-recur.ts); an RRULE ical.js
// cannot read leaves that event on its first day and the rest of the feed is read.
import ICAL from 'ical.js';
import type { FeedEventsTable } from '../db/schema';
import { readableRule, repeats, seriesLastDay, seriesText, withReadableRules } from './feed-recur';
import { dateOf, instantMs, instantOf, tzidOf, zonedDay } from './feed-time';

export type FeedEventRow = Omit<FeedEventsTable, 'fetched_at'>;

export class FeedParseError extends Error {
  override name = 'FeedParseError';
}

/** Every VEVENT of the text; a broken calendar as a whole is a FeedParseError. */
export function parseFeed(text: string): FeedEventRow[] {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR/i.test(body))
    throw new FeedParseError('the answer is not an iCalendar file (no BEGIN:VCALENDAR)');
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(withReadableRules(body)) as unknown[]);
  } catch (error) {
    throw new FeedParseError(shortReason(error));
  }
  if (root.name !== 'vcalendar') throw new FeedParseError('the answer holds no VCALENDAR');
  const rows = new Map<string, FeedEventRow>();
  for (const component of root.getAllSubcomponents('vevent')) {
    const row = eventRow(root, component);
    // A UID twice (a broken feed): the later one wins, as a calendar program would take it.
    if (row) rows.set(`${row.uid}\u0000${row.recurrence_id}`, row);
  }
  return [...rows.values()];
}

function shortReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 120 ? `${message.slice(0, 117)}...` : message;
}

const stringOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

function eventRow(root: ICAL.Component, event: ICAL.Component): FeedEventRow | null {
  const uid = stringOf(event.getFirstPropertyValue('uid'));
  const startProperty = event.getFirstProperty('dtstart');
  const start = startProperty?.getFirstValue();
  if (!uid || !(start instanceof ICAL.Time)) return null;
  const endValue = event.getFirstProperty('dtend')?.getFirstValue();
  const duration = event.getFirstPropertyValue('duration');
  const allDay = start.isDate;
  let end: ICAL.Time | null = endValue instanceof ICAL.Time ? endValue : null;
  if (!end && duration instanceof ICAL.Duration) {
    end = start.clone();
    end.addDuration(duration);
  }
  if (!end && allDay) {
    end = start.clone();
    end.day += 1;
  }
  const startsAt = allDay ? dateOf(start) : instantOf(start, tzidOf(startProperty));
  if (startsAt === null) return null;
  const endProperty = event.getFirstProperty('dtend') ?? startProperty!;
  const endsAt = end ? (allDay ? dateOf(end) : instantOf(end, tzidOf(endProperty))) : null;
  const recurrenceProperty = event.getFirstProperty('recurrence-id');
  const recurrence = recurrenceProperty?.getFirstValue();
  const recurrenceId =
    recurrence instanceof ICAL.Time
      ? recurrence.isDate
        ? dateOf(recurrence)
        : instantOf(recurrence, tzidOf(recurrenceProperty))
      : null;
  let rrule: unknown = null;
  try {
    rrule = event.getFirstPropertyValue('rrule');
  } catch {
    rrule = null;
  }
  // A repeating event itself (not one changed occurrence of it) keeps what its expansion needs.
  const series = recurrenceId === null && repeats(event);
  const categories = event
    .getAllProperties('categories')
    .flatMap((p) => p.getValues())
    .filter((c): c is string => typeof c === 'string' && c.trim() !== '');
  const sequence = Number(event.getFirstPropertyValue('sequence'));
  const stamp = event.getFirstPropertyValue('dtstamp');
  return {
    uid,
    recurrence_id: recurrenceId ?? '',
    summary: stringOf(event.getFirstPropertyValue('summary')),
    description: stringOf(event.getFirstPropertyValue('description')),
    location: stringOf(event.getFirstPropertyValue('location')),
    categories: categories.length ? categories.join(', ') : null,
    status: stringOf(event.getFirstPropertyValue('status'))?.toUpperCase() ?? null,
    starts_at: startsAt,
    ends_at: endsAt !== null && endsAt > startsAt ? endsAt : null,
    all_day: allDay ? 1 : 0,
    start_day: allDay ? startsAt : zonedDay(Date.parse(startsAt)),
    rrule: readableRule(rrule) ? rrule.toString() : null,
    sequence: Number.isInteger(sequence) && sequence >= 0 ? sequence : 0,
    stamp: stamp instanceof ICAL.Time ? new Date(instantMs(stamp, null)).toISOString() : null,
    ...(series ? seriesColumns(root, event) : { ical: null, last_day: null }),
  };
}

/** What the expansion of a repeating event needs; none (its first day only) where that fails. */
function seriesColumns(
  root: ICAL.Component,
  event: ICAL.Component,
): Pick<FeedEventRow, 'ical' | 'last_day'> {
  try {
    return { ical: seriesText(root, event), last_day: seriesLastDay(event) };
  } catch {
    return { ical: null, last_day: null };
  }
}
