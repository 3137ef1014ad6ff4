// The attendance list of one course as a PDF (pdfkit, A4): the same bytes for the command line,
// the desktop app and browser mode, on a machine without any browser. Every page repeats the
// course's header and the table's head and ends with "Seite n von m". Names and the course's data
// are printed as the service has them, in DejaVu Sans with Noto Sans SC for the characters it
// lacks (font packages, embedded as subsets, see pdf-text.ts); a long name wraps inside its cell,
// or is set smaller, and never runs over. Output is deterministic for a given export time (pdfkit
// derives the file id from CreationDate).
import {
  berlinGermanDate,
  berlinIsoDate,
  berlinTime,
  berlinWallClock,
} from '../contract/service-time';
import { A4, CONTENT_WIDTH, MARGIN, startPdf } from './pdf-document';
import { PdfText, type Face, type Line } from './pdf-text';
import type { CourseDateRecord, CourseInfo, ParticipantRecord } from './read';
import { dayIn, type Language } from './words';

const WORDS = {
  de: {
    title: 'Anwesenheitsliste',
    number: 'Kursnummer',
    courseType: 'Kursart',
    dates: 'Termine',
    location: 'Ort',
    trainers: 'Ausbilder/in',
    client: 'Auftraggeber',
    columns: ['Nr.', 'Name', 'Firma', 'Geburtsdatum', 'Unterschrift'],
    none: 'Keine Teilnehmenden angemeldet.',
    weekdays: ['So', 'Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa'],
    untitled: 'Kurs ohne Titel',
  },
  en: {
    title: 'Attendance list',
    number: 'Course number',
    courseType: 'Course type',
    dates: 'Dates',
    location: 'Location',
    trainers: 'Trainers',
    client: 'Client',
    columns: ['No.', 'Name', 'Company', 'Date of birth', 'Signature'],
    none: 'No participants registered.',
    weekdays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    untitled: 'Untitled course',
  },
} as const;

export interface AttendanceInput {
  course: CourseInfo;
  dates: readonly CourseDateRecord[];
  participants: readonly ParticipantRecord[];
  language: Language;
  /** The export time: written on every page and as the file's creation date. */
  now: Date;
}

/** #, name, company, birthday, signature (the rest). */
const COLUMNS = [26, 150, 112, 76];
const SIGNATURE_WIDTH = CONTENT_WIDTH - COLUMNS.reduce((sum, w) => sum + w, 0);
const PAD = 4;
const ROW_MIN = 30;
const BODY_SIZE = 10;
/**
 * The most lines of the header's title and of each detail: the header repeats on every page, so a
 * title of thousands of lines made hundreds of pages; what is longer ends in "…".
 */
const TITLE_LINES = 3;
const DETAIL_LINES = 6;
/** The most characters of the title in the file's metadata. */
const METADATA_TITLE = 200;

/** "Sa 17.10.2026, 08:30–16:30" (German) or "Sat 2026-10-17, 08:30–16:30". */
export function dateLine(date: CourseDateRecord, language: Language): string {
  const words = WORDS[language];
  const weekday = words.weekdays[berlinWallClock(date.start).weekday];
  const day = language === 'de' ? berlinGermanDate(date.start) : berlinIsoDate(date.start);
  const endsOtherDay = date.end !== null && berlinIsoDate(date.end) !== berlinIsoDate(date.start);
  const end =
    date.end === null
      ? ''
      : endsOtherDay
        ? `–${language === 'de' ? berlinGermanDate(date.end) : berlinIsoDate(date.end)} ${berlinTime(date.end)}`
        : `–${berlinTime(date.end)}`;
  return `${weekday} ${day}, ${berlinTime(date.start)}${end}`;
}

export interface AttendancePdf {
  bytes: Uint8Array;
  /** Characters of the data that no font has: printed as "�". */
  missing: string[];
}

export async function renderAttendancePdf(input: AttendanceInput): Promise<AttendancePdf> {
  const words = WORDS[input.language];
  const { course } = input;
  const title = course.title?.trim() || words.untitled;
  const metadataTitle =
    title.length > METADATA_TITLE ? `${title.slice(0, METADATA_TITLE)}…` : title;
  const pdf = startPdf(
    `${words.title}: ${metadataTitle}${course.courseNumber ? ` (${course.courseNumber})` : ''}`,
    input.language,
    input.now,
  );
  const { doc } = pdf;
  const text = new PdfText(doc);

  const details: [string, string][] = [
    [words.dates, input.dates.map((d) => dateLine(d, input.language)).join('; ') || '–'],
    [words.location, course.location ?? '–'],
    [words.trainers, course.trainers.join(', ') || '–'],
    ...(course.courseType ? [[words.courseType, course.courseType] as [string, string]] : []),
    ...(course.client ? [[words.client, course.client] as [string, string]] : []),
  ];

  /** The course's header and the table's head at the top of a new page; answers where rows begin. */
  const newPage = (): number => {
    doc.addPage();
    let y = MARGIN.top;
    doc.font('bold').fontSize(16).fillColor('#000');
    doc.text(words.title, MARGIN.left, y, { width: CONTENT_WIDTH * 0.6, lineBreak: false });
    if (course.courseNumber) {
      const number = text.lines(`${words.number} ${course.courseNumber}`, 'bold', 12);
      text.draw(number, 'bold', 12, MARGIN.left, y + 4, { right: MARGIN.left + CONTENT_WIDTH });
    }
    y += 24;
    const titleLines = text.clipped(title, 'bold', 13, CONTENT_WIDTH, TITLE_LINES);
    y = text.draw(titleLines, 'bold', 13, MARGIN.left, y) + 4;
    const labelWidth = 78;
    for (const [label, value] of details) {
      doc.font('bold').fontSize(9.5);
      doc.text(`${label}:`, MARGIN.left, y, { width: labelWidth, lineBreak: false });
      const valueX = MARGIN.left + labelWidth;
      const lines = text.clipped(value, 'regular', 9.5, CONTENT_WIDTH - labelWidth, DETAIL_LINES);
      y = text.draw(lines, 'regular', 9.5, valueX, y) + 2;
    }
    y += 8;
    // The table's head: a grey band.
    const headHeight = 18;
    doc.rect(MARGIN.left, y, CONTENT_WIDTH, headHeight).fill('#e6e6e6');
    doc.fillColor('#000').font('bold');
    let x = MARGIN.left;
    words.columns.forEach((label, index) => {
      const width = COLUMNS[index] ?? SIGNATURE_WIDTH;
      // One line each: a head that does not fit is set smaller.
      let size = 9.5;
      while (size > 6 && doc.fontSize(size).widthOfString(label) > width - 2 * PAD) size -= 0.5;
      doc.text(label, x + PAD, y + 4.5, { width: width - 2 * PAD, lineBreak: false });
      x += width;
    });
    return y + headHeight;
  };

  const bottom = A4.height - MARGIN.bottom;
  let y = newPage();
  if (input.participants.length === 0) {
    doc.font('italic').fontSize(BODY_SIZE).fillColor('#555');
    doc.text(words.none, MARGIN.left + PAD, y + 8, { width: CONTENT_WIDTH - 2 * PAD });
    doc.fillColor('#000');
    y += 28;
  }
  input.participants.forEach((person, index) => {
    const cells = cellsOf(person, index + 1, input.language);
    const layout = cells.map((cell, column) => fitCell(text, cell, column));
    const height = Math.max(ROW_MIN, ...layout.map((l) => l.height + 2 * PAD));
    if (y + height > bottom) y = newPage();
    let x = MARGIN.left;
    doc.fillColor('#000');
    layout.forEach((cell, column) => {
      text.draw(cell.lines, faceOf(column), cell.size, x + PAD, y + PAD);
      x += COLUMNS[column]!;
    });
    drawRowLines(doc, y, height);
    y += height;
  });
  // The rest of the last page: empty rows for people who come unannounced.
  while (y + ROW_MIN <= bottom) {
    drawRowLines(doc, y, ROW_MIN);
    y += ROW_MIN;
  }

  return { bytes: await pdf.finish(), missing: [...text.missing] };
}

function cellsOf(person: ParticipantRecord, number: number, language: Language): string[] {
  const name = [person.lastName, person.firstName].filter((part) => part.trim()).join(', ');
  const birthday = person.birthday ? dayIn(language, person.birthday) : '';
  return [String(number), name || '–', person.company ?? '', birthday];
}

/** The name is bold, the other cells regular. */
const faceOf = (column: number): Face => (column === 1 ? 'bold' : 'regular');

/** A cell's lines and size: 10 pt up to two lines, else smaller (down to 7.5 pt). */
function fitCell(
  text: PdfText,
  cell: string,
  column: number,
): { lines: Line[]; size: number; height: number } {
  const width = COLUMNS[column]! - 2 * PAD;
  const face = faceOf(column);
  let fitted = { lines: [] as Line[], size: BODY_SIZE, height: 0 };
  for (const size of [BODY_SIZE, 9, 8, 7.5]) {
    const lines = text.lines(cell, face, size, width);
    fitted = { lines, size, height: lines.length * text.lineHeight(face, size) };
    if (lines.length <= 2) break;
  }
  return fitted;
}

/** A row's frame: the line under it, the column rules, and the signature line. */
function drawRowLines(doc: PDFKit.PDFDocument, y: number, height: number): void {
  doc.save();
  doc.lineWidth(0.5).strokeColor('#999');
  doc
    .moveTo(MARGIN.left, y + height)
    .lineTo(MARGIN.left + CONTENT_WIDTH, y + height)
    .stroke();
  let x = MARGIN.left;
  for (const width of [0, ...COLUMNS, SIGNATURE_WIDTH]) {
    x += width;
    doc
      .moveTo(x, y)
      .lineTo(x, y + height)
      .stroke();
  }
  const signatureX = MARGIN.left + CONTENT_WIDTH - SIGNATURE_WIDTH;
  doc.lineWidth(0.6).strokeColor('#333');
  doc
    .moveTo(signatureX + 8, y + height - 7)
    .lineTo(MARGIN.left + CONTENT_WIDTH - 8, y + height - 7)
    .stroke();
  doc.restore();
}
