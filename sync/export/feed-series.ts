// A repeating event of the private feed as the .ics export writes it, so that a calendar program
// expands it as the feed meant: its times in the event's own zone (TZID, with that zone's VTIMEZONE
// in the file), its RRULE as given (an UNTIL without zone in UTC), its EXDATEs and RDATEs in the
// same zone, and the RECURRENCE-ID of a changed occurrence in the same form as the series' DTSTART. Written in UTC, a weekly 18:00 Europe/Berlin event would move
// by an hour in the importing program across each DST change.
//
// The zone is the one the feed's reader read the series in (feed-time.ts): UTC stays UTC; a TZID
// the feed defines keeps the feed's VTIMEZONE; Europe/Berlin, a time without a zone and a zone
// nobody knows are Berlin time, written with the service's VTIMEZONE (BERLIN_VTIMEZONE); an IANA
// zone the feed names without defining it gets a VTIMEZONE made from this computer's zone data
// (Intl) for the years of the series. All-day series have no zone (dates).
import ICAL from 'ical.js';
import { SERVICE_ZONE } from '../contract/service-time';
import { readableRule, seriesDates, type SeriesDates } from '../pull/feed-recur';
import {
  dateOf,
  instantMs,
  knownZone,
  offsetMinutes,
  tzidOf,
  zonedWallClock,
} from '../pull/feed-time';
import { BERLIN_VTIMEZONE, type CalendarZone, type EntryDates } from './ics';

export interface SeriesForm {
  /**
   * Its RRULE's value as the feed gave it (null: none ical.js can read), but for an UNTIL without
   * zone where the series is written in one: RFC 5545 wants UTC there, so the instant the app reads.
   */
  rrule: string | null;
  /** The zone the series' times are written in; null for a series in UTC or all day. */
  zone: CalendarZone | null;
  /** EXDATE and RDATE: instants, and days where the feed gave dates. */
  exclude: EntryDates;
  add: EntryDates;
}

const BERLIN: CalendarZone = {
  tzid: SERVICE_ZONE,
  vtimezone: BERLIN_VTIMEZONE,
  wallClock: (ms) => zonedWallClock(ms, SERVICE_ZONE),
};

/**
 * How to write the series of a stored text (feed_events.ical); null when it cannot be read (the
 * event is then written in UTC). `years`: the first and last year a VTIMEZONE made here covers.
 */
export function seriesForm(text: string, years: [number, number]): SeriesForm | null {
  let root: ICAL.Component;
  let event: ICAL.Component | null;
  let property: ICAL.Property | null;
  let start: unknown;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
    event = root.getFirstSubcomponent('vevent');
    property = event?.getFirstProperty('dtstart') ?? null;
    start = property?.getFirstValue();
  } catch {
    return null;
  }
  if (!(start instanceof ICAL.Time)) return null;
  const dates = seriesDates(text);
  const none: SeriesDates = { instants: [], days: [] };
  const entryDates = ({ instants, days }: SeriesDates): EntryDates => ({
    instants: start.isDate ? [] : instants.map((iso) => Date.parse(iso)),
    days,
  });
  const zone = start.isDate ? null : zoneOf(root, property, start, years);
  return {
    rrule: event ? ruleOf(event, tzidOf(property), zone !== null) : null,
    zone,
    exclude: entryDates(dates?.exclude ?? none),
    add: entryDates(dates?.add ?? none),
  };
}

function ruleOf(event: ICAL.Component, tzid: string | null, zoned: boolean): string | null {
  let rule: unknown;
  try {
    rule = event.getFirstPropertyValue('rrule');
  } catch {
    return null;
  }
  if (!readableRule(rule)) return null;
  const until = rule.until;
  if (!zoned || !until || until.isDate || until.zone === ICAL.Timezone.utcTimezone)
    return rule.toString();
  const ms = instantMs(until, tzid);
  if (!Number.isFinite(ms)) return rule.toString();
  const utc = rule.clone();
  utc.until = ICAL.Time.fromJSDate(new Date(ms), true);
  return utc.toString();
}

const zones = new Map<string, CalendarZone>();

function zoneOf(
  root: ICAL.Component,
  property: ICAL.Property | null,
  start: ICAL.Time,
  years: [number, number],
): CalendarZone | null {
  const tzid = tzidOf(property);
  if (!tzid) return start.zone === ICAL.Timezone.utcTimezone ? null : BERLIN;
  if (tzid === SERVICE_ZONE) return BERLIN;
  const defined = root
    .getAllSubcomponents('vtimezone')
    .find((zone) => String(zone.getFirstPropertyValue('tzid')) === tzid);
  if (defined) return carriedZone(tzid, defined);
  if (!knownZone(tzid)) return BERLIN;
  const key = `${tzid}\u0000${years.join('-')}`;
  let zone = zones.get(key);
  if (!zone) {
    zone = {
      tzid,
      vtimezone: linesOf(madeVtimezone(tzid, years)),
      wallClock: (ms) => zonedWallClock(ms, tzid),
    };
    if (zones.size > 100) zones.clear();
    zones.set(key, zone);
  }
  return zone;
}

const linesOf = (component: ICAL.Component): string[] =>
  component
    .toString()
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/)
    .filter(Boolean);

const pad = (n: number) => String(n).padStart(2, '0');

/** The feed's own VTIMEZONE; a TZID a parameter cannot hold unquoted (";:,) without those characters. */
function carriedZone(tzid: string, defined: ICAL.Component): CalendarZone {
  const component = new ICAL.Component(defined.toJSON() as unknown[]);
  const name = tzid.replace(/[";:,]/g, ' ').trim() || 'Zone';
  if (name !== tzid) component.updatePropertyWithValue('tzid', name);
  const timezone = new ICAL.Timezone(component);
  return {
    tzid: name,
    vtimezone: linesOf(component),
    wallClock: (ms) => {
      const time = ICAL.Time.fromJSDate(new Date(ms), true).convertToZone(timezone);
      return `${dateOf(time)}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
    },
  };
}

const MINUTE_MS = 60_000;
const WEEK_MS = 7 * 86_400_000;

/**
 * A VTIMEZONE of an IANA zone for the years given, from Intl's zone data: its offset at the start
 * of the first year, and every change of it found in between (sampled weekly, then to the minute),
 * each change an observance's DTSTART or RDATE (DAYLIGHT where the offset grows); the changes
 * of the last years that keep a yearly rule (the last Sunday of October at 03:00) as that rule,
 * which goes on after the years given as the zone's data would.
 */
function madeVtimezone(tzid: string, [first, last]: [number, number]): ICAL.Component {
  const from = Date.UTC(first, 0, 1);
  const until = Date.UTC(last + 1, 0, 1);
  const offsetAt = (ms: number) => offsetMinutes(ms, tzid);
  const changes: { at: number; before: number; after: number }[] = [];
  let before = offsetAt(from);
  for (let at = from; at < until;) {
    const next = Math.min(at + WEEK_MS, until);
    if (offsetAt(next) === before) {
      at = next;
      continue;
    }
    // The first minute of the new offset lies in (low, high].
    let low = at;
    let high = next;
    while (high - low > MINUTE_MS) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
      if (offsetAt(middle) === before) low = middle;
      else high = middle;
    }
    const after = offsetAt(high);
    changes.push({ at: high, before, after });
    at = high;
    before = after;
  }
  const zone = new ICAL.Component('vtimezone');
  zone.addPropertyWithValue('tzid', tzid);
  const observance = (
    [daylight, offsetFrom, offsetTo]: [boolean, number, number],
    walls: Date[],
    rule: ICAL.Recur | null,
  ) => {
    const times = walls.map((wall) =>
      ICAL.Time.fromDateTimeString(wall.toISOString().slice(0, 19)),
    );
    const component = new ICAL.Component(daylight ? 'daylight' : 'standard');
    component.addPropertyWithValue('dtstart', times[0]!);
    const offset = (minutes: number) => ICAL.UtcOffset.fromSeconds(minutes * 60);
    component.addPropertyWithValue('tzoffsetfrom', offset(offsetFrom));
    component.addPropertyWithValue('tzoffsetto', offset(offsetTo));
    if (rule) component.addPropertyWithValue('rrule', rule);
    // One RDATE a change: ical.js reads only the first value of each.
    for (const time of times.slice(1)) component.addPropertyWithValue('rdate', time);
    zone.addSubcomponent(component);
  };
  const initial = offsetAt(from);
  observance([false, initial, initial], [new Date(from + initial * MINUTE_MS)], null);
  const groups = new Map<string, typeof changes>();
  for (const change of changes) {
    const key = `${change.before}>${change.after}`;
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  for (const group of groups.values()) {
    const { before, after } = group[0]!;
    const kind: [boolean, number, number] = [after > before, before, after];
    // Each change as the wall-clock time it happens at (in the offset before it), as UTC fields.
    const walls = group.map((change) => new Date(change.at + before * MINUTE_MS));
    const ruled = yearlyRule(walls, last);
    const cut = ruled ? ruled.from : walls.length;
    if (cut > 0) observance(kind, walls.slice(0, cut), null);
    if (ruled) observance(kind, [walls[cut]!], ruled.rule);
  }
  return zone;
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** The BYDAY values that name the day of a wall-clock time (as UTC fields) in its month. */
function daysOfMonth(wall: Date): string[] {
  const day = wall.getUTCDate();
  const weekday = WEEKDAYS[wall.getUTCDay()]!;
  const length = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 0)).getUTCDate();
  const days: string[] = [];
  if (day <= 28) days.push(`${Math.ceil(day / 7)}${weekday}`);
  if (day + 7 > length) days.push(`-1${weekday}`);
  return days;
}

/**
 * The yearly rule that the changes of one kind (by time) keep from some change to the last year,
 * each year one, in the same month at the same time on the same n-th (or last) weekday, three
 * years at least: the first change it covers and the rule; null where there is none.
 */
function yearlyRule(walls: Date[], lastYear: number): { from: number; rule: ICAL.Recur } | null {
  const end = walls.length - 1;
  const final = walls[end];
  if (!final || final.getUTCFullYear() !== lastYear) return null;
  const timeOf = (wall: Date) => `${wall.getUTCMonth()} ${wall.toISOString().slice(11, 19)}`;
  let days = daysOfMonth(final);
  let from = end;
  while (from > 0) {
    const previous = walls[from - 1]!;
    if (previous.getUTCFullYear() !== walls[from]!.getUTCFullYear() - 1) break;
    if (timeOf(previous) !== timeOf(final)) break;
    const common = days.filter((day) => daysOfMonth(previous).includes(day));
    if (!common.length) break;
    days = common;
    from -= 1;
  }
  if (end - from < 2) return null;
  const rule = ICAL.Recur.fromData({
    freq: 'YEARLY',
    bymonth: [final.getUTCMonth() + 1],
    byday: [days[days.length - 1]!],
  });
  return { from, rule };
}
