// What an export asks for: the schema lives in the contract (sync/contract/export.ts: the
// renderer checks a request with it too), one place for the command line, the desktop app and
// browser mode, so each gets the same file for the same request. Here: the combinations that make
// no file, refused in words (checkCombination) before the replica is read.
import {
  EXPORT_FORMATS,
  EXPORT_SUBJECTS,
  exportRequestSchema,
  type ExportFormat,
  type ExportRequest,
  type ExportRequestInput,
  type ExportSubject,
} from '../contract';
import { invalid } from '../core-error';

export {
  EXPORT_FORMATS,
  EXPORT_SUBJECTS,
  exportRequestSchema,
  type ExportFormat,
  type ExportRequest,
  type ExportRequestInput,
  type ExportSubject,
};

/** What each format can hold. */
const SUPPORTED: Record<ExportFormat, readonly ExportSubject[]> = {
  ics: ['courses', 'hours', 'events', 'all'],
  csv: ['courses', 'hours', 'events', 'participants', 'due'],
  pdf: ['participants', 'due', 'certificates'],
};

const SUBJECT_WORDS: Record<ExportSubject, [string, string]> = {
  courses: ['Kurse', 'courses'],
  hours: ['Helferstunden', 'volunteer hours'],
  events: ['Termine des Kalender-Feeds', 'events of the calendar feed'],
  participants: ['Teilnehmende', 'participants'],
  due: ['fällige Ausbildungen und Prüfungen', 'trainings and checks due'],
  certificates: ['Teilnahmebescheinigungen', 'certificates of attendance'],
  all: ['alles', 'everything'],
};

/** Refuses what no file can hold, in both languages (invalid_arguments). */
export function checkCombination(request: ExportRequest): void {
  const [de, en] = SUBJECT_WORDS[request.what];
  if (!SUPPORTED[request.format].includes(request.what)) {
    const hint =
      request.format === 'pdf'
        ? [
            'Als PDF gibt es die Anwesenheitsliste eines Kurses (--what participants --course ID), seine Teilnahmebescheinigungen (--what certificates --course ID) und das Fällige (--what due --until TAG).',
            'PDF is the attendance list of one course (--what participants --course ID), its certificates of attendance (--what certificates --course ID) or what falls due (--what due --until DAY).',
          ]
        : request.format === 'ics'
          ? [
              'Teilnehmende gibt es als CSV oder als Anwesenheitsliste (PDF).',
              'Participants come as CSV or as the attendance list (PDF).',
            ]
          : [
              'Eine CSV-Datei enthält eine Art von Zeilen: courses, hours, events, participants oder due.',
              'A CSV file holds one kind of rows: courses, hours, events, participants or due.',
            ];
    throw invalid(
      `Die Auswahl „${request.what}“ (${de}) gibt es nicht als ${request.format.toUpperCase()}. ${hint[0]}`,
      `"${request.what}" (${en}) cannot be exported as ${request.format.toUpperCase()}. ${hint[1]}`,
      'what',
    );
  }
  if ((request.what === 'participants' || request.what === 'certificates') && !request.courseId)
    throw invalid(
      `Für ${de} fehlt der Kurs (courseId, --course ID).`,
      `${en[0]!.toUpperCase()}${en.slice(1)} need a course (courseId, --course ID).`,
      'courseId',
    );
  if (request.participationId && request.what !== 'certificates')
    throw invalid(
      `Eine Teilnahme (participationId) passt nur zu certificates, nicht zu ${request.what}.`,
      `A participation (participationId) goes with certificates only, not with ${request.what}.`,
      'participationId',
    );
  if (request.what === 'due' && !request.until)
    throw invalid(
      'Für das Fällige fehlt der Tag, bis zu dem es fällig wird (until, --until TAG).',
      'What falls due needs the day it falls due by (until, --until DAY).',
      'until',
    );
  if (request.courseId && !['participants', 'courses', 'certificates'].includes(request.what))
    throw invalid(
      `Ein Kurs (courseId) passt nur zu courses, participants oder certificates, nicht zu ${request.what}.`,
      `A course (courseId) goes with courses, participants or certificates only, not with ${request.what}.`,
      'courseId',
    );
  if ((request.anlassId || request.typId) && request.what !== 'hours')
    throw invalid(
      `Ein Anlass oder Typ (anlassId, typId) passt nur zu hours, nicht zu ${request.what}.`,
      `An occasion or type (anlassId, typId) goes with hours only, not with ${request.what}.`,
      request.anlassId ? 'anlassId' : 'typId',
    );
  if (request.from && request.until && request.from > request.until)
    throw invalid(
      `Der Zeitraum ist leer: ${request.from} liegt nach ${request.until}.`,
      `The range is empty: ${request.from} is after ${request.until}.`,
      'from',
    );
}
