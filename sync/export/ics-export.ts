// The .ics export: course dates, hours and the private feed's events as calendar entries, each
// with a UID that stays the same between exports and a SEQUENCE that grows when it changed (see
// uids.ts), so a calendar program takes a new export as an update.
import type { Replica } from '../db/open';
import { HOUR_MS } from '../contract/service-time';
import { seriesForm } from './feed-series';
import { renderCalendar, type CalendarEntry } from './ics';
import {
  courseInfo,
  readFeedEvents,
  type CourseDateRecord,
  type FeedEventRecord,
  type HourRecord,
} from './read';
import type { ExportRequest } from './request';
import { encoder, result, type ExportResult } from './result';
import { courseDatesOf, courseFileName, feedNote, hoursOf } from './selection';
import { assignSequences, contentDigest, localIdsOf, uidDomain, wasExported } from './uids';
import { WORDS, type Language } from './words';

const STATUS_OF_COURSE: Record<string, CalendarEntry['status']> = {
  cancelled: 'CANCELLED',
  draft: 'TENTATIVE',
};

export async function exportCalendar(
  replica: Replica,
  request: ExportRequest,
  now: Date,
): Promise<ExportResult> {
  const words = WORDS[request.language];
  const { sqlite } = replica;
  const domain = uidDomain(sqlite);
  const exported = wasExported(sqlite);
  const entries: (CalendarEntry & { digest: string; minimum?: number })[] = [];
  let note: { de: string; en: string } | undefined;
  let courseNumber: string | null = null;
  if (request.what === 'courses' || request.what === 'all') {
    const dates = await courseDatesOf(replica, request);
    if (request.courseId)
      courseNumber =
        (await courseInfo(replica.db, request.courseId)).courseNumber ?? request.courseId;
    const localCourses = localIdsOf(sqlite, 'course');
    for (const date of dates)
      entries.push(
        courseEntry(date, request.language, courseUid(date, domain, localCourses, exported)),
      );
  }
  if (request.what === 'hours' || request.what === 'all') {
    const hours = hoursOf(replica, request);
    const localHours = localIdsOf(sqlite, 'helferstunden');
    // Whose entry it is matters in a list of several people's hours.
    const named = new Set(hours.map((h) => h.userId)).size > 1 || !request.userId;
    for (const entry of hours) {
      const local = localHours.get(entry.id);
      const localUid = local ? `hours-${local}@${domain}` : null;
      const uid = localUid && exported(localUid) ? localUid : `hours-${entry.id}@${domain}`;
      entries.push(hourEntry(entry, request.language, uid, named));
    }
  }
  if (request.what === 'events' || request.what === 'all') {
    const events = await readFeedEvents(replica.db, request);
    if (!events.length) note = feedNote(replica);
    // A VTIMEZONE made from Intl's zone data (feed-series.ts) covers from the first event's year
    // (a year early) to 30 years from now.
    const first = events.reduce(
      (year, e) => Math.min(year, new Date(e.start).getUTCFullYear()),
      now.getUTCFullYear(),
    );
    const years: [number, number] = [first - 1, now.getUTCFullYear() + 30];
    for (const event of events) entries.push(feedEntry(event, years));
  }
  if (request.what === 'all') entries.sort((a, b) => a.start - b.start);
  const sequences = assignSequences(sqlite, entries, now.toISOString());
  entries.forEach((entry, index) => (entry.sequence = sequences[index]!));
  // checkCombination let through only what a calendar holds.
  const subject = request.what as 'courses' | 'hours' | 'events' | 'all';
  const calendarName = `Vorort: ${words.calendar[subject]}`;
  const text = renderCalendar(calendarName, entries, now);
  const base =
    request.what === 'courses' && request.courseId
      ? courseFileName(words.files.course, courseNumber, request.courseId)
      : words.files[subject];
  return result(request, `${base}.ics`, encoder.encode(text), entries.length, note);
}

/** See uids.ts: the service's date id, or a course created offline's local UID once exported. */
function courseUid(
  date: CourseDateRecord,
  domain: string,
  localCourses: Map<string, string>,
  exported: (uid: string) => boolean,
): string {
  const courseId = date.course.id;
  if (courseId.startsWith('local-')) return `course-${courseId}-date-${date.position}@${domain}`;
  const local = localCourses.get(courseId);
  if (local) {
    const localUid = `course-${local}-date-${date.position}@${domain}`;
    if (exported(localUid)) return localUid;
  }
  return `course-date-${date.id}@${domain}`;
}

function courseEntry(
  date: CourseDateRecord,
  language: Language,
  uid: string,
): CalendarEntry & { digest: string } {
  const words = WORDS[language];
  const c = date.course;
  const title = c.title?.trim() || words.course;
  const cancelled = c.status === 'cancelled';
  const summary = `${cancelled ? words.cancelledPrefix : ''}${title}${c.courseNumber ? ` (${c.courseNumber})` : ''}${date.of > 1 ? `, ${words.dayOf(date.position, date.of)}` : ''}`;
  const lines = [
    c.courseNumber && `${words.courseNumber}: ${c.courseNumber}`,
    c.courseType && `${words.courseType}: ${c.courseType}`,
    c.client && `${words.client}: ${c.client}`,
    `${words.participants}: ${words.seats(c.participants, c.maxParticipants)}`,
    c.trainers.length > 0 && `${words.trainers}: ${c.trainers.join(', ')}`,
    c.status && `${words.status}: ${words.courseStatus[c.status] ?? c.status}`,
    date.of > 1 && words.dateOf(date.position, date.of),
  ].filter((line): line is string => typeof line === 'string' && line.length > 0);
  return {
    uid,
    sequence: 0,
    start: date.start,
    end: date.end,
    summary,
    description: lines.join('\n'),
    location: c.location,
    categories: [words.course, ...(c.courseType ? [c.courseType] : [])],
    status: STATUS_OF_COURSE[c.status ?? ''] ?? 'CONFIRMED',
    digest: contentDigest([
      c.title,
      c.courseNumber,
      c.status,
      c.courseType,
      c.client,
      c.location,
      c.participants,
      c.maxParticipants,
      c.trainers,
      date.position,
      date.of,
      date.start,
      date.end,
    ]),
  };
}

function hoursText(stunden: number, language: Language): string {
  const text = String(Math.round(stunden * 100) / 100);
  return language === 'de' ? text.replace('.', ',') : text;
}

function hourEntry(
  entry: HourRecord,
  language: Language,
  uid: string,
  named: boolean,
): CalendarEntry & { digest: string } {
  const words = WORDS[language];
  const what = entry.anlass?.trim() || entry.typ?.trim() || words.hours;
  const end =
    entry.end ??
    (entry.stunden && entry.stunden > 0 ? entry.start + entry.stunden * HOUR_MS : null);
  const lines = [
    entry.userName && `${words.person}: ${entry.userName}`,
    entry.typ && `${words.hourType}: ${entry.typ}`,
    entry.stunden !== null && `${words.stunden}: ${hoursText(entry.stunden, language)}`,
    entry.approved !== null && words.approvedWords[entry.approved ? 0 : 1],
  ].filter((line): line is string => typeof line === 'string' && line.length > 0);
  return {
    uid,
    sequence: 0,
    start: entry.start,
    end,
    summary: `${words.hours}: ${what}${named && entry.userName ? ` (${entry.userName})` : ''}`,
    description: lines.join('\n'),
    categories: [words.hours, ...(entry.typ ? [entry.typ] : [])],
    transparent: true,
    digest: contentDigest([
      entry.userId,
      entry.userName,
      entry.start,
      entry.end,
      entry.stunden,
      entry.approved,
      entry.anlass,
      entry.anlassTyp,
      entry.typ,
    ]),
  };
}

const FEED_STATUS = new Set(['CONFIRMED', 'TENTATIVE', 'CANCELLED']);

function feedEntry(
  event: FeedEventRecord,
  years: [number, number],
): CalendarEntry & { digest: string; minimum: number } {
  const recurrence = event.recurrenceId
    ? /^\d{4}-\d{2}-\d{2}$/.test(event.recurrenceId)
      ? Date.parse(`${event.recurrenceId}T00:00:00Z`)
      : Date.parse(event.recurrenceId)
    : null;
  const status = event.status?.toUpperCase() ?? '';
  // A series with a rule, and its changed occurrences, in the series' own zone with its EXDATEs.
  const form = event.seriesIcal ? seriesForm(event.seriesIcal, years) : null;
  const series = form?.rrule && (event.rrule !== null || event.recurrenceId !== '') ? form : null;
  const own = series && event.rrule !== null ? series : null;
  return {
    uid: event.uid,
    sequence: 0,
    start: event.start,
    end: event.end,
    allDay: event.allDay,
    summary: event.summary ?? '',
    description: event.description,
    location: event.location,
    categories: event.categories ? event.categories.split(', ').filter(Boolean) : [],
    status: FEED_STATUS.has(status) ? (status as CalendarEntry['status']) : null,
    recurrenceId: recurrence !== null && Number.isFinite(recurrence) ? recurrence : null,
    rrule: own?.rrule ?? event.rrule,
    exclude: own?.exclude ?? null,
    add: own?.add ?? null,
    zone: series?.zone ?? null,
    minimum: event.sequence,
    // The occurrence is part of the key: one UID may stand for a series and its changed days.
    digest: contentDigest([
      event.recurrenceId,
      event.summary,
      event.description,
      event.location,
      event.categories,
      event.status,
      event.start,
      event.end,
      event.allDay,
      event.rrule,
      ...(series ? [series.zone?.tzid ?? null, own?.exclude ?? null, own?.add ?? null] : []),
    ]),
  };
}
