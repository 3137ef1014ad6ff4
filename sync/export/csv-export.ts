// The CSV export: participants, hours, course dates or feed events as rows for a spreadsheet,
// dates written the way the separator's spreadsheet reads them (German with ";", ISO with ",").
import type { Replica } from '../db/open';
import { berlinGermanDate, berlinIsoDate, berlinTime } from '../contract/service-time';
import { csvStyle, renderCsv, type CsvCell, type CsvStyle } from './csv';
import { courseInfo, readFeedEvents, readParticipants } from './read';
import type { ExportRequest } from './request';
import { encoder, result, type ExportResult } from './result';
import { courseDatesOf, courseFileName, dueOf, feedNote, hoursOf } from './selection';
import { germanDay, WORDS } from './words';

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
        day: (d) => (d ? germanDay(d) : ''),
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

export async function exportCsv(
  replica: Replica,
  request: ExportRequest,
  now: Date,
): Promise<ExportResult> {
  const words = WORDS[request.language];
  const style = csvStyle(request.separator);
  const dates = csvDates(style);
  const yesNo = (value: boolean | null) => (value === null ? '' : value ? words.yes : words.no);
  let header: string[];
  let rows: CsvCell[][];
  let base: string;
  let note: { de: string; en: string } | undefined;
  /** What the file holds, counted (rows, unless said otherwise). */
  let count: number | undefined;
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
    case 'due': {
      // One row per training or check due; a person never read, one row saying so.
      const due = dueOf(replica, request, now);
      header = [
        words.lastName,
        words.firstName,
        words.memberNumber,
        words.status,
        words.kind,
        words.description,
        words.dueOn,
        words.expired,
        words.checksAsOf,
      ];
      rows = due.items.flatMap((person) => {
        const who = [person.nachname, person.vorname, person.mitgliednr, person.status];
        const asOf = person.checksConfirmedAt
          ? dates.date(Date.parse(person.checksConfirmedAt))
          : words.neverRead;
        if (person.entries.length === 0) return [[...who, '', '', '', '', asOf]];
        return person.entries.map((entry) => [
          ...who,
          words.dueKinds[entry.kind],
          entry.bezeichnung,
          dates.day(entry.due),
          entry.expired ? words.yes : words.no,
          asOf,
        ]);
      });
      count = due.total;
      base = `${words.files.due}-${request.until}`;
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
  return result(request, `${base}.csv`, encoder.encode(text), count ?? rows.length, note);
}
