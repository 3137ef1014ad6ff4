// Export from local data (issue 13): .ics calendars, CSV for spreadsheets and the attendance list
// as PDF, from the replica alone. One call serves the command line, the desktop app and browser
// mode: exportData(replica, request) answers the file's suggested name, type and bytes; whoever
// calls it writes them (a file, a save dialog, a download). Its failures are CoreFailures in
// German and English (invalid_arguments, not_found), never a stack trace. An .ics export writes
// one thing into the replica: each entry's content digest and SEQUENCE (export_uids, see uids.ts).
import type { Replica } from '../db/open';
import { refusedArguments } from '../core-error';
import { getFeedUrl } from '../pull/feed';
import { berlinGermanDate, berlinIsoDate, berlinTime, HOUR_MS } from '../contract/service-time';
import { csvStyle, renderCsv, type CsvCell, type CsvStyle } from './csv';
import { renderCalendar, type CalendarEntry } from './ics';
import { renderAttendancePdf } from './pdf';
import {
  courseInfo,
  readCourseDates,
  readFeedEvents,
  readHours,
  readParticipants,
  resolveSelf,
  type CourseDateRecord,
  type FeedEventRecord,
  type HourRecord,
} from './read';
import { checkCombination, exportRequestSchema, type ExportRequest } from './request';
import { assignSequences, contentDigest, localIdsOf, uidDomain, wasExported } from './uids';
import { WORDS, countWords, fileNamePart, type Language } from './words';

export {
  exportRequestSchema,
  EXPORT_FORMATS,
  EXPORT_SUBJECTS,
  type ExportRequest,
  type ExportRequestInput,
} from './request';

export interface ExportResult {
  /** A name to suggest for the file ("kurse.ics", "anwesenheitsliste-EH-2026-17.pdf"). */
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
  /** Entries, rows or participants written. */
  count: number;
  /** Nothing matched: the file is valid but holds no entries (the PDF: a list without names). */
  empty: boolean;
  /** The count in words: "42 Kurstermine" / "42 course dates". */
  counted: { de: string; en: string };
  /** Something a person should know about the result (e.g. no calendar feed set up). */
  note?: { de: string; en: string };
}

export interface ExportOptions {
  /** The export time (DTSTAMP, the PDF's date); default now. */
  now?: Date;
}

const MIME = {
  ics: 'text/calendar; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
} as const;

export async function exportData(
  replica: Replica,
  /** An ExportRequestInput, checked here with exportRequestSchema (any caller, any transport). */
  input: unknown,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const parsed = exportRequestSchema.safeParse(input);
  if (!parsed.success) throw refusedArguments('export', exportRequestSchema, input, parsed.error);
  const request = parsed.data;
  checkCombination(request);
  // Whole seconds: DTSTAMP and the PDF's dates carry no fractions.
  const now = new Date(Math.floor((options.now ?? new Date()).getTime() / 1000) * 1000);
  switch (request.format) {
    case 'ics':
      return exportCalendar(replica, request, now);
    case 'csv':
      return exportCsv(replica, request);
    case 'pdf':
      return exportAttendance(replica, request, now);
  }
}

const encoder = new TextEncoder();

function result(
  request: ExportRequest,
  fileName: string,
  bytes: Uint8Array,
  count: number,
  note?: { de: string; en: string },
): ExportResult {
  return {
    fileName,
    mimeType: MIME[request.format],
    bytes,
    count,
    empty: count === 0,
    counted: countWords(request.what, count),
    ...(note ? { note } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading, shared by the formats

async function courseDatesOf(replica: Replica, request: ExportRequest) {
  return readCourseDates(replica.db, {
    from: request.from,
    until: request.until,
    courseId: request.courseId,
    trainerId: resolveSelf(replica.sqlite, request.trainerId),
  });
}

function hoursOf(replica: Replica, request: ExportRequest): HourRecord[] {
  return readHours(replica.sqlite, {
    from: request.from,
    until: request.until,
    userId: resolveSelf(replica.sqlite, request.userId),
    approved: request.approved,
  });
}

/** Said when the private feed was never set up: an empty list has a reason. */
function feedNote(replica: Replica): { de: string; en: string } | undefined {
  if (getFeedUrl(replica.sqlite)) return undefined;
  return {
    de: 'Kein privater Kalender-Feed eingerichtet (vorort sync --feed-url ADRESSE).',
    en: 'No private calendar feed is set up (vorort sync --feed-url ADDRESS).',
  };
}

/** Characters of the data that no font of the PDF has, so it prints them as "�". */
function missingCharactersNote(characters: readonly string[]): { de: string; en: string } {
  const list = characters.join(' ');
  return {
    de: `Diese Zeichen hat keine Schrift der Anwesenheitsliste, sie stehen dort als „\uFFFD“: ${list}`,
    en: `No font of the attendance list has these characters, they are printed as “\uFFFD”: ${list}`,
  };
}

function courseFileName(base: string, courseNumber: string | null, id: string) {
  return `${base}-${fileNamePart(courseNumber || id)}`;
}

const STATUS_OF_COURSE: Record<string, CalendarEntry['status']> = {
  cancelled: 'CANCELLED',
  draft: 'TENTATIVE',
};

// ---------------------------------------------------------------------------------------------
// .ics

async function exportCalendar(
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
    for (const event of events) entries.push(feedEntry(event));
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

function feedEntry(event: FeedEventRecord): CalendarEntry & { digest: string; minimum: number } {
  const recurrence = event.recurrenceId
    ? /^\d{4}-\d{2}-\d{2}$/.test(event.recurrenceId)
      ? Date.parse(`${event.recurrenceId}T00:00:00Z`)
      : Date.parse(event.recurrenceId)
    : null;
  const status = event.status?.toUpperCase() ?? '';
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
    rrule: event.rrule,
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
    ]),
  };
}

// ---------------------------------------------------------------------------------------------
// CSV

interface CsvDates {
  date(ms: number): string;
  time(ms: number): string;
  day(isoDate: string): string;
}

function csvDates(style: CsvStyle): CsvDates {
  return style.separator === ';'
    ? {
        date: berlinGermanDate,
        time: berlinTime,
        day: (d) => (d ? d.split('-').reverse().join('.') : ''),
      }
    : { date: berlinIsoDate, time: berlinTime, day: (d) => d };
}

/** The end's time, with its date too when it falls on another day than the start. */
function endText(start: number, end: number | null, dates: CsvDates): string {
  if (end === null) return '';
  return berlinIsoDate(end) === berlinIsoDate(start)
    ? dates.time(end)
    : `${dates.date(end)} ${dates.time(end)}`;
}

async function exportCsv(replica: Replica, request: ExportRequest): Promise<ExportResult> {
  const words = WORDS[request.language];
  const style = csvStyle(request.separator);
  const dates = csvDates(style);
  const yesNo = (value: boolean | null) => (value === null ? '' : value ? words.yes : words.no);
  let header: string[];
  let rows: CsvCell[][];
  let base: string;
  let note: { de: string; en: string } | undefined;
  switch (request.what) {
    case 'participants': {
      const course = await courseInfo(replica.db, request.courseId!);
      const people = await readParticipants(replica, course.id, request.includeCancelled);
      header = [
        words.number,
        words.lastName,
        words.firstName,
        words.company,
        words.birthday,
        words.email,
        words.phone,
        words.status,
        words.attended,
      ];
      rows = people.map((p, index) => [
        index + 1,
        p.lastName,
        p.firstName,
        p.company,
        dates.day(p.birthday),
        p.email,
        p.phone,
        p.status ? (words.participationStatus[p.status] ?? p.status) : '',
        yesNo(p.attended),
      ]);
      base = courseFileName(words.files.participants, course.courseNumber, course.id);
      break;
    }
    case 'hours': {
      const hours = hoursOf(replica, request);
      header = [
        words.date,
        words.start,
        words.end,
        words.stunden,
        words.person,
        words.occasion,
        words.occasionKind,
        words.hourType,
        words.approved,
      ];
      rows = hours.map((h) => [
        dates.date(h.start),
        dates.time(h.start),
        endText(h.start, h.end, dates),
        h.stunden,
        h.userName,
        h.anlass,
        h.anlassTyp ? (words.occasionKinds[h.anlassTyp] ?? h.anlassTyp) : '',
        h.typ,
        yesNo(h.approved),
      ]);
      base = words.files.hours;
      break;
    }
    case 'courses': {
      const courseDates = await courseDatesOf(replica, request);
      header = [
        words.courseNumber,
        words.title,
        words.courseType,
        words.status,
        words.date,
        words.start,
        words.end,
        words.dayColumn,
        words.location,
        words.client,
        words.trainers,
        words.participants,
        words.maxParticipants,
      ];
      rows = courseDates.map((d) => [
        d.course.courseNumber,
        d.course.title,
        d.course.courseType,
        d.course.status ? (words.courseStatus[d.course.status] ?? d.course.status) : '',
        dates.date(d.start),
        dates.time(d.start),
        endText(d.start, d.end, dates),
        words.dayNumber(d.position, d.of),
        d.course.location,
        d.course.client,
        d.course.trainers.join(', '),
        d.course.participants,
        d.course.maxParticipants,
      ]);
      base =
        request.courseId && courseDates[0]
          ? courseFileName(words.files.course, courseDates[0].course.courseNumber, request.courseId)
          : words.files.courses;
      break;
    }
    default: {
      const events = await readFeedEvents(replica.db, request);
      if (!events.length) note = feedNote(replica);
      header = [
        words.date,
        words.start,
        words.endDate,
        words.end,
        words.allDay,
        words.summary,
        words.location,
        words.category,
        words.status,
        words.description,
      ];
      rows = events.map((e) => {
        if (e.allDay) {
          const lastDay =
            e.end !== null ? new Date(e.end - 86_400_000).toISOString().slice(0, 10) : e.startDay;
          return [
            dates.day(e.startDay),
            '',
            lastDay !== e.startDay ? dates.day(lastDay) : '',
            '',
            words.yes,
            e.summary,
            e.location,
            e.categories,
            e.status,
            e.description,
          ];
        }
        const otherDay = e.end !== null && berlinIsoDate(e.end) !== berlinIsoDate(e.start);
        return [
          dates.date(e.start),
          dates.time(e.start),
          otherDay && e.end !== null ? dates.date(e.end) : '',
          e.end !== null ? dates.time(e.end) : '',
          words.no,
          e.summary,
          e.location,
          e.categories,
          e.status,
          e.description,
        ];
      });
      base = words.files.events;
    }
  }
  const text = renderCsv(header, rows, style);
  return result(request, `${base}.csv`, encoder.encode(text), rows.length, note);
}

// ---------------------------------------------------------------------------------------------
// PDF

async function exportAttendance(
  replica: Replica,
  request: ExportRequest,
  now: Date,
): Promise<ExportResult> {
  const words = WORDS[request.language];
  const course = await courseInfo(replica.db, request.courseId!);
  const [dates, participants] = await Promise.all([
    readCourseDates(replica.db, { courseId: course.id }),
    readParticipants(replica, course.id, false),
  ]);
  const pdf = await renderAttendancePdf({
    course,
    dates,
    participants,
    language: request.language,
    now,
  });
  const base = courseFileName(words.files.attendance, course.courseNumber, course.id);
  const note = pdf.missing.length > 0 ? missingCharactersNote(pdf.missing) : undefined;
  return result(request, `${base}.pdf`, pdf.bytes, participants.length, note);
}
