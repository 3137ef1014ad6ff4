// The .ics writer: ical-generator builds each entry (escaping, dates, properties); the calendar is
// put together here. Times are UTC instants (DTSTART:...Z), the same file whatever this machine's
// zone (ical-generator reads a Date in the machine's zone only when given a time zone, which is
// never done here), and every calendar program shows them in its own zone. All-day events are
// dates. Lines are folded at 75 octets once over the whole text: ical-generator's own folding
// measures every character through a TextEncoder and took 2.6 s for 10,000 entries.
import ical, {
  ICalCalendarMethod,
  ICalEventStatus,
  ICalEventTransparency,
  type ICalEventData,
} from 'ical-generator';

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
  let body = '';
  for (const entry of entries) body += calendar.createEvent(eventData(entry, stamp)).toString();
  if (!entries.length) body = EMPTY_CALENDAR_COMPONENT;
  return `${frame.slice(0, close)}${foldLines(body)}END:VCALENDAR\r\n`;
}

function eventData(entry: CalendarEntry, stamp: Date): ICalEventData {
  const data: ICalEventData = {
    id: entry.uid,
    sequence: entry.sequence,
    stamp,
    start: new Date(entry.start),
    summary: entry.summary,
  };
  if (entry.end !== null) data.end = new Date(entry.end);
  if (entry.allDay) data.allDay = true;
  if (entry.description) data.description = entry.description;
  if (entry.location) data.location = entry.location;
  if (entry.categories?.length) data.categories = entry.categories.map((name) => ({ name }));
  if (entry.status) data.status = STATUS[entry.status];
  if (entry.transparent) data.transparency = ICalEventTransparency.TRANSPARENT;
  if (entry.recurrenceId !== null && entry.recurrenceId !== undefined)
    data.recurrenceId = new Date(entry.recurrenceId);
  if (entry.rrule) data.repeating = entry.rrule;
  return data;
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
