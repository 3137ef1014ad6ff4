// The PDF exports: one course's attendance list, and what falls due (personnel.due); each with a
// note naming the characters no font of the PDF has.
import type { Replica } from '../db/open';
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

export async function exportAttendance(
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
