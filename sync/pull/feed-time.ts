// The private calendar feed's times (ical.js values) as the replica keeps them: UTC instants (ISO
// 8601) and dates (YYYY-MM-DD). A time of a zone the file defines (VTIMEZONE) or UTC is read by
// ical.js; a TZID without VTIMEZONE through the IANA zone of that name; a time without a zone, or
// with a zone nobody knows, is Berlin wall-clock time, the service's. Never this machine's zone.
// Shared by the feed's reader (feed-parse.ts) and the expansion of repeating events (feed-recur.ts),
// so an occurrence and the RECURRENCE-ID of its override name the same instant the same way.
import ICAL from 'ical.js';
import { SERVICE_ZONE } from '../contract/service-time';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** YYYY-MM-DD of the time's own (wall-clock) date. */
export function dateOf(time: ICAL.Time): string {
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
}

export const tzidOf = (property: ICAL.Property | null | undefined): string | null => {
  const tzid = property?.getParameter('tzid');
  return typeof tzid === 'string' && tzid.trim() !== '' ? tzid : null;
};

/** The instant as ISO 8601 UTC, or null when the time makes none. */
export function instantOf(time: ICAL.Time, tzid: string | null): string | null {
  const ms = instantMs(time, tzid);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

export function instantMs(time: ICAL.Time, tzid: string | null): number {
  const zone = time.zone;
  // UTC, or a zone the file defines (VTIMEZONE): ical.js knows the offset.
  if (zone && zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
  return zonedInstant(time, tzid && knownZone(tzid) ? tzid : SERVICE_ZONE);
}

const zones = new Map<string, boolean>();

/** Whether Intl knows the zone by that name (an IANA zone). */
export function knownZone(zone: string): boolean {
  let known = zones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    if (zones.size < 1000) zones.set(zone, known);
  }
  return known;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes the (IANA) zone is ahead of UTC at the instant. */
export function offsetMinutes(ms: number, zone: string): number {
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

/** The instant's wall-clock time in an IANA zone, YYYY-MM-DDTHH:MM:SS (seconds cut off below). */
export function zonedWallClock(ms: number, zone: string): string {
  return new Date(ms + offsetMinutes(ms, zone) * 60_000).toISOString().slice(0, 19);
}

/** YYYY-MM-DD of the instant's day in the zone (the service's unless named). */
export function zonedDay(ms: number, zone: string = SERVICE_ZONE): string {
  const shifted = new Date(ms + offsetMinutes(ms, zone) * 60_000);
  return shifted.toISOString().slice(0, 10);
}
