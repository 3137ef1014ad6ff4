// The .ics writer: ical-generator builds each entry (escaping, dates, properties); the calendar is
// put together here. Times are UTC instants (DTSTART:...Z), the same file whatever this machine's
// zone (ical-generator reads a Date in the machine's zone only when given a time zone), and every
// calendar program shows them in its own zone. A repeating event of the private feed is the
// exception: its times are wall-clock times in its own zone (DTSTART;TZID=..., that zone's
// VTIMEZONE in the file, see feed-series.ts), so the importing program's expansion keeps them
// across DST changes; they are given to ical-generator as strings, which come back out unchanged
// in any machine's zone but for a time that machine's own clock skips (see writableHere). All-day
// events are dates. Lines are folded at 75 octets once over the whole text: ical-generator's own
// folding measures every character through a TextEncoder and took 2.6 s for 10,000 entries.
import ical, {
  ICalCalendarMethod,
  ICalEventStatus,
  ICalEventTransparency,
  type ICalEventData,
} from 'ical-generator';
import ICAL from 'ical.js';

export interface CalendarEntry {
  uid: string;
  sequence: number;
  /** UTC instants; for an all-day entry UTC midnight of its first day and of the day after its last. */
  start: number;
  end: number | null;
  allDay?: boolean;
  summary: string;
  description?: string | null;
  location?: string | null;
  categories?: readonly string[];
  status?: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED' | null;
  /** Free time (an entry that is only a record, like hours worked): TRANSP:TRANSPARENT. */
  transparent?: boolean;
  /** One changed occurrence of a recurring entry: the instant (or day) it replaces. */
  recurrenceId?: number | null;
  /** An RRULE's value (FREQ=...), as the private feed gave it. */
  rrule?: string | null;
  /** Occurrences taken out of the series (EXDATE) and added to it (RDATE). */
  exclude?: EntryDates | null;
  add?: EntryDates | null;
  /**
   * The zone the entry's times are written in (TZID) instead of UTC, with its VTIMEZONE in the
   * file: a repeating feed event's own, which the importing program's expansion needs (each
   * occurrence at the same wall-clock time across DST changes), and so its changed occurrences'.
   */
  zone?: CalendarZone | null;
}

/** Instants, and dates (YYYY-MM-DD) where the feed gave dates. */
export interface EntryDates {
  instants: readonly number[];
  days: readonly string[];
}

/** A zone of an entry's times: its TZID, its VTIMEZONE and an instant's wall-clock time in it. */
export interface CalendarZone {
  tzid: string;
  /** One line an entry (no line ends). */
  vtimezone: readonly string[];
  /** YYYY-MM-DDTHH:MM:SS. */
  wallClock(ms: number): string;
}

const STATUS = {
  CONFIRMED: ICalEventStatus.CONFIRMED,
  TENTATIVE: ICalEventStatus.TENTATIVE,
  CANCELLED: ICalEventStatus.CANCELLED,
} as const;

/** The zone of the service's times as a VTIMEZONE, one line an entry (no line ends). */
export const BERLIN_VTIMEZONE: readonly string[] = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/**
 * RFC 5545 wants at least one component in a calendar: an export without entries holds the zone
 * of the service's times (unused, and harmless to any calendar program), so it is still valid.
 */
const EMPTY_CALENDAR_COMPONENT = [...BERLIN_VTIMEZONE, ''].join('\r\n');

/** A whole VCALENDAR (CRLF line ends, the last line too). DTSTAMP of every entry: `stamp`. */
export function renderCalendar(
  name: string,
  entries: readonly CalendarEntry[],
  stamp: Date,
): string {
  const calendar = ical({
    name,
    prodId: { company: 'Vorort', product: 'Export', language: 'DE' },
    method: ICalCalendarMethod.PUBLISH,
  });
  const frame = calendar.toString();
  const close = frame.lastIndexOf('END:VCALENDAR');
  // Each zone's VTIMEZONE once, before the entries. (ical-generator writes the text of a zone's
  // generator for the zones of the events it renders; the frame here is rendered without them.)
  const zones = new Map<string, readonly string[]>();
  let body = '';
  for (const entry of entries) {
    const data = eventData(entry, stamp);
    if (data.timezone && entry.zone) zones.set(entry.zone.tzid, entry.zone.vtimezone);
    const text = calendar.createEvent(data).toString();
    body +=
      entry.allDay && typeof entry.recurrenceId === 'number'
        ? dateRecurrence(text, entry.recurrenceId)
        : text;
  }
  if (!entries.length) body = EMPTY_CALENDAR_COMPONENT;
  for (const lines of [...zones.values()].reverse()) body = [...lines, body].join('\r\n');
  return `${frame.slice(0, close)}${foldLines(body)}END:VCALENDAR\r\n`;
}

function eventData(entry: CalendarEntry, stamp: Date): ICalEventData {
  const zone = entry.zone && !entry.allDay && writableHere(entry, entry.zone) ? entry.zone : null;
  const time = (ms: number) => (zone ? zone.wallClock(ms) : new Date(ms));
  const data: ICalEventData = {
    id: entry.uid,
    sequence: entry.sequence,
    stamp,
    start: time(entry.start),
    summary: entry.summary,
  };
  if (zone) data.timezone = zone.tzid;
  if (entry.end !== null) data.end = time(entry.end);
  if (entry.allDay) data.allDay = true;
  if (entry.description) data.description = entry.description;
  if (entry.location) data.location = entry.location;
  if (entry.categories?.length) data.categories = entry.categories.map((name) => ({ name }));
  if (entry.status) data.status = STATUS[entry.status];
  if (entry.transparent) data.transparency = ICalEventTransparency.TRANSPARENT;
  if (entry.recurrenceId !== null && entry.recurrenceId !== undefined)
    data.recurrenceId = time(entry.recurrenceId);
  if (entry.rrule) data.repeating = recurrence(entry, entry.rrule, zone);
  return data;
}

/**
 * The RECURRENCE-ID of a changed day of an all-day series as a date, as its series' DTSTART (RFC
 * 5545 3.8.4.4; a date-time would name no day of the series): ical-generator writes only
 * date-times there, so ical.js writes this line in place of its.
 */
function dateRecurrence(text: string, day: number): string {
  const property = new ICAL.Property('recurrence-id');
  property.resetType('date');
  property.setValue(ICAL.Time.fromDateString(new Date(day).toISOString().slice(0, 10)));
  const line = property.toICALString();
  return text.replace(/^RECURRENCE-ID[;:][^\r\n]*/m, () => line);
}

/**
 * Whether the entry's wall-clock times survive ical-generator: given a zone, it reads a time as
 * this machine's local time and writes that back, the same digits unless this machine's clock
 * skips the time (its own DST gap). Where one would not, the entry is written in UTC.
 */
function writableHere(entry: CalendarEntry, zone: CalendarZone): boolean {
  const times = [entry.start, entry.end, entry.recurrenceId];
  return times.every((ms) => {
    if (ms === null || ms === undefined) return true;
    const wallClock = zone.wallClock(ms);
    const local = new Date(wallClock);
    const back = local.getTime() - local.getTimezoneOffset() * 60_000;
    return Number.isFinite(back) && new Date(back).toISOString().slice(0, 19) === wallClock;
  });
}

/**
 * RRULE as given, EXDATE and RDATE in the zone of DTSTART (dates as dates), in the lines
 * ical-generator takes for a rule set (the text form of rrule's RRuleSet); ical.js writes the
 * EXDATE and RDATE lines.
 */
function recurrence(entry: CalendarEntry, rrule: string, zone: CalendarZone | null): string {
  return [
    `RRULE:${rrule}`,
    ...dateLines('exdate', entry.exclude, zone),
    ...dateLines('rdate', entry.add, zone),
  ].join('\n');
}

function dateLines(
  name: 'exdate' | 'rdate',
  dates: EntryDates | null | undefined,
  zone: CalendarZone | null,
): string[] {
  const lines: string[] = [];
  if (dates?.instants.length) {
    const property = new ICAL.Property(name);
    if (zone) property.setParameter('tzid', zone.tzid);
    property.setValues(
      dates.instants.map((ms) =>
        zone
          ? ICAL.Time.fromDateTimeString(zone.wallClock(ms))
          : ICAL.Time.fromJSDate(new Date(ms), true),
      ),
    );
    lines.push(property.toICALString());
  }
  if (dates?.days.length) {
    const property = new ICAL.Property(name);
    property.resetType('date');
    property.setValues(dates.days.map((day) => ICAL.Time.fromDateString(day)));
    lines.push(property.toICALString());
  }
  return lines;
}

/**
 * RFC 5545 folding: a line longer than 75 octets continues on the next line after a space,
 * never inside a UTF-8 character (nor between the halves of a surrogate pair).
 */
export function foldLines(text: string): string {
  let out = '';
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\r\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    // Most lines are short: 75 UTF-16 units of at most 3 octets each can only overflow past 25.
    if (lineEnd - lineStart <= 25) out += text.slice(lineStart, lineEnd);
    else out += foldLine(text, lineStart, lineEnd);
    if (lineEnd < text.length) out += '\r\n';
    lineStart = lineEnd + 2;
  }
  return out;
}

function foldLine(text: string, from: number, to: number): string {
  let out = '';
  let octets = 0;
  let pieceStart = from;
  for (let i = from; i < to; i += 1) {
    const code = text.charCodeAt(i);
    let size: number;
    let units = 1;
    if (code < 0x80) size = 1;
    else if (code < 0x800) size = 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < to) {
      size = 4;
      units = 2;
    } else size = 3;
    // The first physical line holds 75 octets; each continuation a space and 74.
    if (octets + size > 75) {
      out += `${text.slice(pieceStart, i)}\r\n `;
      pieceStart = i;
      octets = 1;
    }
    octets += size;
    i += units - 1;
  }
  return out + text.slice(pieceStart, to);
}
