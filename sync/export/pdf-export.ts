// The PDF export: one course's attendance list, with a note naming the characters no font of the
// PDF has.
import type { Replica } from '../db/open';
import { renderAttendancePdf } from './pdf';
import { courseInfo, readCourseDates, readParticipants } from './read';
import type { ExportRequest } from './request';
import { result, type ExportResult } from './result';
import { courseFileName } from './selection';
import { WORDS } from './words';

/** Characters of the data that no font of the PDF has, so it prints them as "�". */
function missingCharactersNote(characters: readonly string[]): { de: string; en: string } {
  const list = characters.join(' ');
  return {
    de: `Diese Zeichen hat keine Schrift der Anwesenheitsliste, sie stehen dort als „\uFFFD“: ${list}`,
    en: `No font of the attendance list has these characters, they are printed as “\uFFFD”: ${list}`,
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
  const note = pdf.missing.length > 0 ? missingCharactersNote(pdf.missing) : undefined;
  return result(request, `${base}.pdf`, pdf.bytes, participants.length, note);
}
