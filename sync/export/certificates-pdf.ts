// Certificates of attendance (Teilnahmebescheinigungen) of one course as a PDF (pdfkit, A4): one
// page for each participant marked present, with the course, its dates and place, the
// participant's name and certificate number, the trainers' names and a line to sign on. From
// the replica alone, the same bytes for the command line, the desktop app and browser mode.
// Names are printed as the service has them, with the fonts' fallbacks of pdf-text.ts; a very
// long title or name is cut to a few lines, so a page stays one page.
import { A4, CONTENT_WIDTH, MARGIN, startPdf } from './pdf-document';
import { PdfText, type Face, type Line } from './pdf-text';
import { dateLine } from './pdf';
import type { CourseDateRecord, CourseInfo, ParticipantRecord } from './read';
import { dayIn, type Language } from './words';
import { berlinIsoDate } from '../contract/service-time';

const WORDS = {
  de: {
    title: 'Teilnahmebescheinigung',
    certify: 'Hiermit wird bescheinigt, dass',
    attended: 'an folgendem Kurs teilgenommen hat:',
    number: 'Kursnummer',
    courseType: 'Kursart',
    dates: 'Termine',
    location: 'Ort',
    trainers: 'Ausbilder/in',
    certificate: 'Bescheinigungs-Nr.',
    placeDate: 'Ort, Datum',
    signature: 'Unterschrift Ausbilder/in',
    untitled: 'Kurs ohne Titel',
  },
  en: {
    title: 'Certificate of attendance',
    certify: 'This is to certify that',
    attended: 'attended the following course:',
    number: 'Course number',
    courseType: 'Course type',
    dates: 'Dates',
    location: 'Location',
    trainers: 'Trainers',
    certificate: 'Certificate no.',
    placeDate: 'Place, date',
    signature: 'Signature of the trainer',
    untitled: 'Untitled course',
  },
} as const;

export interface CertificatesInput {
  course: CourseInfo;
  dates: readonly CourseDateRecord[];
  /** The participants to certify, in print order (each one page). */
  participants: readonly ParticipantRecord[];
  language: Language;
  now: Date;
}

const lineWidth = (line: Line) => line.reduce((sum, piece) => sum + piece.width, 0);

export async function renderCertificatesPdf(
  input: CertificatesInput,
): Promise<{ bytes: Uint8Array; missing: string[] }> {
  const words = WORDS[input.language];
  const { course } = input;
  const title = course.title?.trim() || words.untitled;
  const pdf = startPdf(`${words.title}: ${title}`, input.language, input.now);
  const { doc } = pdf;
  const text = new PdfText(doc);
  const middle = MARGIN.left + CONTENT_WIDTH / 2;

  /** Lines centred on the page, at most `most` of them; answers the y below them. */
  const centred = (value: string, face: Face, size: number, y: number, most: number) => {
    const lines = text.lines(value, face, size, CONTENT_WIDTH).slice(0, most);
    const height = text.lineHeight(face, size);
    lines.forEach((line, index) =>
      text.draw([line], face, size, 0, y + index * height, { right: middle + lineWidth(line) / 2 }),
    );
    return y + lines.length * height;
  };

  const details: [string, string][] = [
    ...(course.courseNumber ? [[words.number, course.courseNumber] as [string, string]] : []),
    ...(course.courseType ? [[words.courseType, course.courseType] as [string, string]] : []),
    [words.dates, input.dates.map((d) => dateLine(d, input.language)).join('\n') || '–'],
    [words.location, course.location ?? '–'],
    [words.trainers, course.trainers.join(', ') || '–'],
  ];
  const lastDay = input.dates.at(-1);

  for (const person of input.participants) {
    doc.addPage();
    let y = MARGIN.top + 60;
    y = centred(words.title, 'bold', 24, y, 1) + 40;
    y = centred(words.certify, 'regular', 12, y, 1) + 14;
    const name = [person.firstName, person.lastName].filter((part) => part.trim()).join(' ');
    y = centred(name || '–', 'bold', 20, y, 2) + 14;
    y = centred(words.attended, 'regular', 12, y, 1) + 18;
    y = centred(title, 'bold', 15, y, 3) + 24;

    const labelWidth = 120;
    const valueWidth = CONTENT_WIDTH - labelWidth - 40;
    const left = MARGIN.left + 20;
    for (const [label, value] of details) {
      doc.font('bold').fontSize(10.5).fillColor('#000');
      doc.text(`${label}:`, left, y, { width: labelWidth, lineBreak: false });
      const lines = text.lines(value, 'regular', 10.5, valueWidth).slice(0, 8);
      y = text.draw(lines, 'regular', 10.5, left + labelWidth, y) + 6;
    }
    if (person.certificateNumber) {
      doc.font('bold').fontSize(10.5);
      doc.text(`${words.certificate}:`, left, y, { width: labelWidth, lineBreak: false });
      y = text.write(person.certificateNumber, 'regular', 10.5, left + labelWidth, y, valueWidth);
    }

    // Place and date on the left, the trainer's signature on the right, near the page's foot.
    const lineY = A4.height - MARGIN.bottom - 120;
    const half = CONTENT_WIDTH / 2 - 20;
    const place = [
      (course.location?.split(',').at(-1) ?? '').trim().replace(/^\d{4,5}\s+/, ''),
      lastDay ? dayIn(input.language, berlinIsoDate(lastDay.end ?? lastDay.start)) : '',
    ]
      .filter(Boolean)
      .join(', ');
    if (place) text.write(place, 'regular', 10.5, MARGIN.left, lineY - 18, half);
    doc.save().lineWidth(0.6).strokeColor('#333');
    doc
      .moveTo(MARGIN.left, lineY)
      .lineTo(MARGIN.left + half, lineY)
      .stroke();
    doc
      .moveTo(MARGIN.left + CONTENT_WIDTH - half, lineY)
      .lineTo(MARGIN.left + CONTENT_WIDTH, lineY)
      .stroke();
    doc.restore();
    doc.font('regular').fontSize(9).fillColor('#444');
    doc.text(words.placeDate, MARGIN.left, lineY + 4, { width: half, lineBreak: false });
    doc.text(words.signature, MARGIN.left + CONTENT_WIDTH - half, lineY + 4, {
      width: half,
      lineBreak: false,
    });
    doc.fillColor('#000');
  }
  return { bytes: await pdf.finish(), missing: [...text.missing] };
}
