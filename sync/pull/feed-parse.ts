// Reads the private calendar feed's iCalendar text (ical.js) into rows of feed_events. Times
// become UTC instants: UTC as written, a TZID through the file's VTIMEZONE, or (no VTIMEZONE) the
// IANA zone of that name; a time without a zone, or with a zone nobody knows, is Berlin wall-clock
// time, the service's. Never this machine's zone.
import ICAL from 'ical.js';
import type { FeedEventsTable } from '../db/schema';
import { SERVICE_ZONE } from '../contract/service-time';

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
    root = new ICAL.Component(ICAL.parse(body) as unknown[]);
  } catch (error) {
    throw new FeedParseError(shortReason(error));
  }
  if (root.name !== 'vcalendar') throw new FeedParseError('the answer holds no VCALENDAR');
  const rows = new Map<string, FeedEventRow>();
  for (const component of root.getAllSubcomponents('vevent')) {
    const row = eventRow(component);
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

function eventRow(event: ICAL.Component): FeedEventRow | null {
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
  const startsAt = allDay ? dateOf(start) : instantOf(start, startProperty!);
  if (startsAt === null) return null;
  const endProperty = event.getFirstProperty('dtend') ?? startProperty!;
  const endsAt = end ? (allDay ? dateOf(end) : instantOf(end, endProperty)) : null;
  const recurrenceProperty = event.getFirstProperty('recurrence-id');
  const recurrence = recurrenceProperty?.getFirstValue();
  const recurrenceId =
    recurrence instanceof ICAL.Time
      ? recurrence.isDate
        ? dateOf(recurrence)
        : instantOf(recurrence, recurrenceProperty!)
      : null;
  const rrule = event.getFirstPropertyValue('rrule');
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
    start_day: allDay ? startsAt : zonedDay(Date.parse(startsAt), SERVICE_ZONE),
    rrule: rrule instanceof ICAL.Recur ? rrule.toString() : null,
    sequence: Number.isInteger(sequence) && sequence >= 0 ? sequence : 0,
    stamp: stamp instanceof ICAL.Time ? new Date(instantMs(stamp, null)).toISOString() : null,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dateOf(time: ICAL.Time): string {
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
}

/** The instant as ISO 8601 UTC, or null when the time makes none. */
function instantOf(time: ICAL.Time, property: ICAL.Property): string | null {
  const ms = instantMs(time, stringOf(property.getParameter('tzid')));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

function instantMs(time: ICAL.Time, tzid: string | null): number {
  const zone = time.zone;
  // UTC, or a zone the file defines (VTIMEZONE): ical.js knows the offset.
  if (zone && zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
  return zonedInstant(time, tzid && knownZone(tzid) ? tzid : SERVICE_ZONE);
}

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes the zone is ahead of UTC at the instant. */
function offsetMinutes(ms: number, zone: string): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormats.set(zone, format);
  }
  const name = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The instant of a wall-clock time in a zone (a time of a DST change's gap or repeated hour: one of its two readings). */
function zonedInstant(time: ICAL.Time, zone: string): number {
  const asUtc = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  const first = asUtc - offsetMinutes(asUtc, zone) * 60_000;
  const second = asUtc - offsetMinutes(first, zone) * 60_000;
  return Math.min(first, second);
}

/** YYYY-MM-DD of the instant's day in the zone. */
function zonedDay(ms: number, zone: string): string {
  const shifted = new Date(ms + offsetMinutes(ms, zone) * 60_000);
  return shifted.toISOString().slice(0, 10);
}
