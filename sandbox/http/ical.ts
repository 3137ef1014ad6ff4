// Writing iCalendar (RFC 5545) text: TEXT values escaped, lines folded at 75 octets (never
// inside a UTF-8 character), CRLF line endings, date-times in UTC ("Z").

export interface CalendarEvent {
  uid: string;
  category: string;
  /** The record's change time: DTSTAMP. */
  stamp: number;
  start: number;
  end: number;
  summary: string;
  location: string;
  organizer: { name: string; email: string };
  description?: string;
}

/** TEXT escaping: backslash, semicolon, comma and line breaks. */
export function escapeText(value: string): string {
  return value
    .replaceAll('\\', '\\\\')
    .replaceAll(';', '\\;')
    .replaceAll(',', '\\,')
    .replaceAll(/\r\n|\r|\n/g, '\\n');
}

/** A parameter value is quoted when it holds a character that would end it (":", ";", ","). */
function parameterValue(value: string): string {
  const plain = value.replaceAll('"', "'");
  return /[:;,]/.test(plain) ? `"${plain}"` : plain;
}

export function utcStamp(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

const encoder = new TextEncoder();

/** Splits a content line into lines of at most 75 octets; continuation lines start with a space. */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let currentBytes = 0;
  let limit = 75;
  for (const character of line) {
    const bytes = encoder.encode(character).length;
    if (currentBytes + bytes > limit) {
      parts.push(current);
      current = ' ';
      currentBytes = 1;
      limit = 75;
    }
    current += character;
    currentBytes += bytes;
  }
  parts.push(current);
  return parts.join('\r\n');
}

function eventLines(event: CalendarEvent): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART:${utcStamp(event.start)}`,
    `DTEND:${utcStamp(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `LOCATION:${escapeText(event.location)}`,
    `CATEGORIES:${escapeText(event.category)}`,
    'TRANSP:OPAQUE',
    'CLASS:PRIVATE',
    'SEQUENCE:0',
    `ORGANIZER;CN=${parameterValue(event.organizer.name)}:mailto:${event.organizer.email}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    'END:VEVENT',
  ];
}

export function renderCalendar(name: string, events: readonly CalendarEvent[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Vorort//Sandbox//DE',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(name)}`,
    ...events.flatMap(eventLines),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
