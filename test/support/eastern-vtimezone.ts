// A feed's own zone under a name that is no IANA zone ("Eastern", the US rules since 2007): what
// calendar programs write and both the feed's reader and its .ics export must follow.
export const EASTERN_VTIMEZONE: readonly string[] = [
  'BEGIN:VTIMEZONE',
  'TZID:Eastern',
  'BEGIN:STANDARD',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];
