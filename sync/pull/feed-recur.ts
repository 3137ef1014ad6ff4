// Repeating events of the private calendar feed (RRULE, RDATE, EXDATE), expanded with ical.js into
// their occurrences within the days asked, in the event's own zone: a weekly 18:00 Europe/Berlin
// event stays 18:00 Berlin time across a DST change (the iteration runs on wall-clock times).
//
// The feed's reader keeps, for each repeating event, its VEVENT and the VTIMEZONEs it names as one
// small VCALENDAR text (feed_events.ical, migration 11); the feed.events query expands it. An
// occurrence is named as its RECURRENCE-ID would name it (a UTC instant, or the date of an all-day
// event), so an occurrence changed by a VEVENT of its own (the feed's row with that
// recurrence_id) is left out here and shown as that row. COUNT and UNTIL end a series; a series
// without an end is expanded only up to the last day asked, and never beyond MAX_STEPS steps of
// ical.js's iterator or MAX_OCCURRENCES occurrences per event and answer. A rule ical.js cannot
// read or iterate costs only the rest of that series: its event still shows on its first day.
import ICAL from 'ical.js';
import { dateOf, instantMs, tzidOf, zonedDay } from './feed-time';

/** Steps of one rule's iterator per expansion: a COUNT of five years of days, an hourly rule of 83 days. */
export const MAX_STEPS = 2_000;
/** Occurrences of one event in one answer. */
export const MAX_OCCURRENCES = 1_000;

/** The property the reader gives an RRULE that ical.js cannot read, so the rest of the feed is read. */
export const BAD_RRULE = 'X-VORORT-BAD-RRULE';

export interface Occurrence {
  /** The RECURRENCE-ID the occurrence would have: a UTC instant (ISO), or the date of an all-day event. */
  recurrenceId: string;
  /** Timed: an instant (ISO, UTC); all day: the day, YYYY-MM-DD. */
  startsAt: string;
  endsAt: string | null;
  /** The occurrence's first day (Europe/Berlin), YYYY-MM-DD. */
  startDay: string;
}

interface Series {
  start: ICAL.Time;
  tzid: string | null;
  allDay: boolean;
  rules: ICAL.Recur[];
  rdates: ICAL.Time[];
  /** EXDATEs as instants (ISO) or, for dates, in exDays. */
  exInstants: Set<string>;
  exDays: Set<string>;
}

/** Whether the event repeats (RRULE or RDATE, readable or not): its text is kept for expansion. */
export function repeats(event: ICAL.Component): boolean {
  return (
    event.hasProperty('rrule') ||
    event.hasProperty('rdate') ||
    event.hasProperty(BAD_RRULE.toLowerCase())
  );
}

/** A readable RRULE's value (its FREQ known), or null. */
export function readableRule(value: unknown): value is ICAL.Recur {
  return value instanceof ICAL.Recur && typeof value.freq === 'string' && value.freq !== '';
}

/**
 * The feed's text with every RRULE ical.js cannot read renamed to X-VORORT-BAD-RRULE: ical.js
 * refuses a whole calendar for one bad rule (FREQ=SOMETIMES), and one event must not cost the others.
 */
export function withReadableRules(text: string): string {
  if (!/^RRULE[;:]/im.test(text)) return text;
  let changed = false;
  const lines = text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const match = /^RRULE((?:;[^:]*)?):(.*)$/i.exec(lines[i]!);
    if (!match) continue;
    let readable = false;
    try {
      const rule = ICAL.Recur.fromString(match[2]!);
      readable = readableRule(rule);
      // Parts ical.js checks only when asked (UNTIL=2026 throws here, not when parsed).
      if (readable) rule.toString();
    } catch {
      readable = false;
    }
    if (readable) continue;
    lines[i] = `${BAD_RRULE}${match[1]}:${match[2]}`;
    changed = true;
  }
  return changed ? lines.join('\r\n') : text;
}

/** The VEVENT with the VTIMEZONEs it names, as one VCALENDAR text (feed_events.ical). */
export function seriesText(root: ICAL.Component, event: ICAL.Component): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('version', '2.0');
  const named = new Set<string>();
  for (const property of event.getAllProperties()) {
    const tzid = tzidOf(property);
    if (tzid) named.add(tzid);
  }
  for (const zone of root.getAllSubcomponents('vtimezone'))
    if (named.has(String(zone.getFirstPropertyValue('tzid'))))
      calendar.addSubcomponent(new ICAL.Component(zone.toJSON() as unknown[]));
  calendar.addSubcomponent(new ICAL.Component(event.toJSON() as unknown[]));
  return calendar.toString();
}

const values = (property: ICAL.Property): unknown[] => {
  try {
    return property.getValues() as unknown[];
  } catch {
    return []; // a value ical.js cannot read: as none
  }
};

function seriesOfEvent(event: ICAL.Component): Series | null {
  const startProperty = event.getFirstProperty('dtstart');
  let start: unknown;
  try {
    start = startProperty?.getFirstValue();
  } catch {
    return null;
  }
  if (!(start instanceof ICAL.Time)) return null;
  const tzid = tzidOf(startProperty);
  const rules = event
    .getAllProperties('rrule')
    .flatMap(values)
    .filter(readableRule)
    .map((rule) => rule.clone());
  const rdates = event
    .getAllProperties('rdate')
    .flatMap(values)
    .map((value) => (value instanceof ICAL.Period ? value.start : value))
    .filter((value): value is ICAL.Time => value instanceof ICAL.Time);
  const exInstants = new Set<string>();
  const exDays = new Set<string>();
  for (const property of event.getAllProperties('exdate')) {
    const zone = tzidOf(property) ?? tzid;
    for (const value of values(property)) {
      if (!(value instanceof ICAL.Time)) continue;
      if (value.isDate) exDays.add(dateOf(value));
      else {
        const ms = instantMs(value, zone);
        if (Number.isFinite(ms)) exInstants.add(new Date(ms).toISOString());
      }
    }
  }
  return { start, tzid, allDay: start.isDate, rules, rdates, exInstants, exDays };
}

const parsed = new Map<string, Series | null>();

/** The series of a stored text (a few recently asked kept read). */
function seriesOfText(text: string): Series | null {
  if (parsed.has(text)) {
    const series = parsed.get(text)!;
    parsed.delete(text);
    parsed.set(text, series);
    return series;
  }
  let series: Series | null = null;
  try {
    const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
    const event = root.getFirstSubcomponent('vevent');
    series = event ? seriesOfEvent(event) : null;
  } catch {
    series = null;
  }
  parsed.set(text, series);
  if (parsed.size > 200) parsed.delete(parsed.keys().next().value!);
  return series;
}

/** Instants (ISO) and days (YYYY-MM-DD) of a series. */
export interface SeriesDates {
  instants: string[];
  days: string[];
}

/**
 * The EXDATEs and RDATEs of a stored series (feed_events.ical) as the expansion reads them (an
 * RDATE in the series' zone), for the .ics export; null when the text cannot be read.
 */
export function seriesDates(text: string): { exclude: SeriesDates; add: SeriesDates } | null {
  const series = seriesOfText(text);
  if (!series) return null;
  const add: SeriesDates = { instants: [], days: [] };
  for (const time of series.rdates) {
    const point = pointOf(series, time);
    if (point) (point.key === point.localDay ? add.days : add.instants).push(point.key);
  }
  return {
    exclude: { instants: [...series.exInstants].sort(), days: [...series.exDays].sort() },
    add: { instants: [...new Set(add.instants)].sort(), days: [...new Set(add.days)].sort() },
  };
}

interface Point {
  key: string;
  ms: number;
  /** The wall-clock date in the event's zone (for EXDATE;VALUE=DATE). */
  localDay: string;
  startDay: string;
}

function pointOf(series: Series, time: ICAL.Time): Point | null {
  if (series.allDay || time.isDate) {
    const day = dateOf(time);
    return { key: day, ms: Date.parse(`${day}T00:00:00Z`), localDay: day, startDay: day };
  }
  const ms = instantMs(time, series.tzid);
  if (!Number.isFinite(ms)) return null;
  return { key: new Date(ms).toISOString(), ms, localDay: dateOf(time), startDay: zonedDay(ms) };
}

/** Whether the time is after the rule's UNTIL (compared as instants, or as dates for a date). */
function pastUntil(series: Series, until: ICAL.Time, point: Point): boolean {
  if (until.isDate || series.allDay) return point.localDay > dateOf(until);
  return point.ms > instantMs(until, series.tzid);
}

const DAY_MS = 86_400_000;

/**
 * Where a rule's iteration may start for occurrences from the day `from` on: its DTSTART, or for a
 * rule without COUNT the DTSTART moved forward by whole periods of its INTERVAL to at least two
 * days (DAILY, WEEKLY) or two months or years (MONTHLY, YEARLY) before `from`: its time of day,
 * weekday, day of the month and INTERVAL's rhythm stay. The moved start itself is thus never in
 * the range, whether or not the rule would have it; everything after it is what iterating from
 * DTSTART gives. A series of years costs a few steps instead of hundreds (a MONTHLY BYDAY=-1FR
 * step of ical.js costs about a tenth of a millisecond). Not moved where the date itself carries
 * the rule and a month or year may not have it: a day after the 28th (MONTHLY without BYDAY or
 * BYMONTHDAY), 29 February (YEARLY); SECONDLY to HOURLY rules are bounded by MAX_STEPS.
 */
function anchorOf(series: Series, rule: ICAL.Recur, from: string): ICAL.Time {
  const start = series.start.clone();
  if (rule.count) return start;
  const interval = Math.max(1, rule.interval || 1);
  const [fromYear, fromMonth] = from.split('-').map(Number) as [number, number];
  if (rule.freq === 'DAILY' || rule.freq === 'WEEKLY') {
    const period = (rule.freq === 'WEEKLY' ? 7 : 1) * interval;
    const gap =
      (Date.parse(`${from}T00:00:00Z`) - Date.parse(`${dateOf(start)}T00:00:00Z`)) / DAY_MS - 2;
    const periods = Math.floor(gap / period);
    if (!Number.isFinite(periods) || periods < 1) return start;
    start.adjust(periods * period, 0, 0, 0);
    return start;
  }
  const parts = (rule.parts ?? {}) as Record<string, unknown>;
  let year = start.year;
  let month = start.month;
  let day = start.day;
  if (rule.freq === 'MONTHLY') {
    const periods = Math.floor((fromYear * 12 + fromMonth - (year * 12 + month) - 2) / interval);
    if (!Number.isFinite(periods) || periods < 1) return start;
    if (day > 28) {
      if (!parts.BYDAY && !parts.BYMONTHDAY) return start;
      day = 1; // the rule names the days: any day of the month before them will do
    }
    const months = year * 12 + (month - 1) + periods * interval;
    year = Math.floor(months / 12);
    month = (months % 12) + 1;
  } else if (rule.freq === 'YEARLY') {
    const periods = Math.floor((fromYear - year - 2) / interval);
    if (!Number.isFinite(periods) || periods < 1 || (month === 2 && day === 29)) return start;
    year += periods * interval;
  } else return start;
  start.fromData({
    year,
    month,
    day,
    hour: start.hour,
    minute: start.minute,
    second: start.second,
    isDate: start.isDate,
    zone: start.zone,
  });
  return start;
}

/** Each occurrence of one rule from about the day `from` (see anchorOf) up to the day `last` (or its end), in order. */
function* occurrencesOfRule(
  series: Series,
  recur: ICAL.Recur,
  from: string,
  last: string,
): Generator<Point> {
  // UNTIL is compared here as an instant: ical.js compares a time without a VTIMEZONE (a TZID of
  // the IANA's) with a UTC UNTIL as if both were UTC, and would drop or keep the last one wrongly.
  const rule = recur.clone();
  const until = rule.until;
  rule.until = null;
  const iterator = rule.iterator(anchorOf(series, rule, from));
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const time = iterator.next();
    if (!time) return;
    const point = pointOf(series, time);
    if (!point) return;
    if (until && pastUntil(series, until, point)) return;
    if (point.startDay > last) return;
    yield point;
  }
}

/**
 * The occurrences of a stored series (feed_events.ical) whose first day is from..until, by start;
 * without those EXDATE excludes and those in `changed` (RECURRENCE-IDs of rows of their own).
 * `span` is the event's length: milliseconds, or days for an all-day event. Null when the text
 * cannot be read (the caller shows the event's own row).
 */
export function expandSeries(
  text: string,
  range: { from: string; until: string },
  span: number | null,
  changed: ReadonlySet<string> = new Set(),
): Occurrence[] | null {
  const series = seriesOfText(text);
  if (!series) return null;
  const found = new Map<string, Point>();
  const take = (point: Point | null) => {
    if (!point || point.startDay < range.from || point.startDay > range.until) return;
    if (found.size >= MAX_OCCURRENCES || found.has(point.key)) return;
    if (series.exInstants.has(point.key) || series.exDays.has(point.localDay)) return;
    if (changed.has(point.key)) return;
    found.set(point.key, point);
  };
  // DTSTART is always the first occurrence (RFC 5545 3.8.5.3), also where ical.js would skip it.
  take(pointOf(series, series.start));
  for (const rule of series.rules) {
    try {
      for (const point of occurrencesOfRule(series, rule, range.from, range.until)) {
        take(point);
        if (found.size >= MAX_OCCURRENCES) break;
      }
    } catch {
      // A rule ical.js cannot iterate: its occurrences so far stand, the rest is left out.
    }
  }
  for (const time of series.rdates) take(pointOf(series, time));
  return [...found.values()]
    .sort((a, b) => a.ms - b.ms)
    .map((point) => occurrenceOf(series, point, span));
}

function occurrenceOf(series: Series, point: Point, span: number | null): Occurrence {
  if (series.allDay) {
    const end =
      span !== null && span > 0
        ? new Date(point.ms + span * 86_400_000).toISOString().slice(0, 10)
        : null;
    return { recurrenceId: point.key, startsAt: point.key, endsAt: end, startDay: point.startDay };
  }
  return {
    recurrenceId: point.key,
    startsAt: point.key,
    endsAt: span !== null && span > 0 ? new Date(point.ms + span).toISOString() : null,
    startDay: point.startDay,
  };
}

/**
 * The last day (Europe/Berlin, a day late to be safe) on which the event's series can have an
 * occurrence, or null when one of its rules has no end (or one too far to tell): the query skips
 * series that ended before the days asked without expanding them.
 */
export function seriesLastDay(event: ICAL.Component): string | null {
  const series = seriesOfEvent(event);
  if (!series) return null;
  const start = pointOf(series, series.start);
  if (!start) return null;
  let last = start.startDay;
  for (const rule of series.rules) {
    if (rule.until) {
      const until = rule.until;
      const day =
        until.isDate || series.allDay ? dateOf(until) : zonedDay(instantMs(until, series.tzid));
      if (day > last) last = day;
    } else if (rule.count) {
      let steps = 0;
      let end: string | null = null;
      try {
        for (const point of occurrencesOfRule(series, rule, '0000-01-01', '9999-12-31')) {
          steps += 1;
          end = point.startDay;
        }
      } catch {
        // Iteration failed: the expansion fails at the same place; what it reached is the end.
      }
      if (steps >= MAX_STEPS) return null;
      if (end && end > last) last = end;
    } else return null;
  }
  for (const time of series.rdates) {
    const point = pointOf(series, time);
    if (point && point.startDay > last) last = point.startDay;
  }
  return new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
