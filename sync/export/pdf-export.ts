// The PDF exports: one course's attendance list and its certificates of attendance, and what
// falls due (personnel.due); each with a note naming the characters no font of the PDF has.
import type { Replica } from '../db/open';
import { invalid } from '../core-error';
import { renderCertificatesPdf } from './certificates-pdf';
import { renderDuePdf } from './due-pdf';
import { renderAttendancePdf } from './pdf';
import { courseInfo, readCourseDates, readParticipants } from './read';
import type { ExportRequest } from './request';
import { result, type ExportResult } from './result';
import { courseFileName, dueOf } from './selection';
import { WORDS } from './words';

/** Characters of the data that no font of the PDF has, so it prints them as "�". */
function missingCharactersNote(
  characters: readonly string[],
): { de: string; en: string } | undefined {
  if (characters.length === 0) return undefined;
  const list = characters.join(' ');
  return {
    de: `Diese Zeichen hat keine Schrift der PDF-Datei, sie stehen dort als „\uFFFD“: ${list}`,
    en: `No font of the PDF has these characters, they are printed as “\uFFFD”: ${list}`,
  };
}

/** What a course's paper shows: the course, its dates and its participants (not cancelled). */
async function courseSheet(replica: Replica, courseId: string) {
  const course = await courseInfo(replica.db, courseId);
  const [dates, participants] = await Promise.all([
    readCourseDates(replica.db, { courseId: course.id }),
    readParticipants(replica, course.id, false),
  ]);
  return { course, dates, participants };
}

export async function exportAttendance(
  replica: Replica,
  request: ExportRequest,
  now: Date,
): Promise<ExportResult> {
  const words = WORDS[request.language];
  const { course, dates, participants } = await courseSheet(replica, request.courseId!);
  const pdf = await renderAttendancePdf({
    course,
    dates,
    participants,
    language: request.language,
    now,
  });
  const base = courseFileName(words.files.attendance, course.courseNumber, course.id);
  return result(
    request,
    `${base}.pdf`,
    pdf.bytes,
    participants.length,
    missingCharactersNote(pdf.missing),
  );
}

export async function exportDuePdf(
  replica: Replica,
  request: ExportRequest,
  now: Date,
): Promise<ExportResult> {
  const due = dueOf(replica, request, now);
  const pdf = await renderDuePdf(due, request.until!, request.language, now);
  const name = `${WORDS[request.language].files.due}-${request.until}.pdf`;
  return result(request, name, pdf.bytes, due.total, missingCharactersNote(pdf.missing));
}

/**
 * The certificates of the participants marked present (not cancelled), or of one of them; a
 * participant not marked present gets none (the service has not been told they came).
 */
export async function exportCertificates(
  replica: Replica,
  request: ExportRequest,
  now: Date,
): Promise<ExportResult> {
  const words = WORDS[request.language];
  const { course, dates, participants: everyone } = await courseSheet(replica, request.courseId!);
  const present = everyone.filter((person) => person.attended === true);
  const chosen = request.participationId
    ? present.filter((person) => person.id === request.participationId)
    : present;
  if (chosen.length === 0)
    throw request.participationId
      ? invalid(
          'Diese Teilnahme ist keine als anwesend markierte dieses Kurses: eine Bescheinigung gibt es erst, wenn sie als anwesend markiert ist.',
          'This participation is not one of the course marked present: a certificate is made once it is marked present.',
          'participationId',
        )
      : invalid(
          'In diesem Kurs ist noch niemand als anwesend markiert: Bescheinigungen gibt es für die Anwesenden.',
          'Nobody in this course is marked present yet: certificates are made for those present.',
          'courseId',
        );
  const pdf = await renderCertificatesPdf({
    course,
    dates,
    participants: chosen,
    language: request.language,
    now,
  });
  const base = courseFileName(words.files.certificates, course.courseNumber, course.id);
  const one = chosen.length === 1 && request.participationId ? `-${chosen[0]!.lastName}` : '';
  return result(
    request,
    `${base}${one.replace(/[^\p{L}\p{N}-]+/gu, '')}.pdf`,
    pdf.bytes,
    chosen.length,
    missingCharactersNote(pdf.missing),
  );
}
