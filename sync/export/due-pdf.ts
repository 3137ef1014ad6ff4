// What falls due as a PDF (A4): the list an office prints before the yearly refresher courses.
// Per person their trainings and checks due by the day, the expired ones marked, and when the
// service last gave their checks here; the people whose checks were never read follow under a
// heading of their own, so an unknown never looks clear. Every page repeats the title and the
// table's head; a person's lines stay together on one page when they fit on one.
import { berlinGermanDate, berlinIsoDate } from '../contract/service-time';
import type { DuePerson, QueryResults } from '../contract';
import { A4, CONTENT_WIDTH, MARGIN, startPdf } from './pdf-document';
import { PdfText, type Face } from './pdf-text';
import { dayIn, type Language } from './words';

const WORDS = {
  de: {
    title: 'Fällige Ausbildungen und Prüfungen',
    range: (until: string, today: string) => `Fällig bis ${until} · abgelaufen: vor dem ${today}`,
    columns: ['Person', 'Art', 'Bezeichnung', 'Fällig am', 'Stand der Prüfungen'],
    kinds: { training: 'Ausbildung', check: 'Prüfung' },
    expired: 'abgelaufen',
    neverRead: 'nie gelesen',
    number: (n: string) => `Nr. ${n}`,
    none: 'Bis zu diesem Tag wird nichts fällig.',
    unreadHead:
      'Prüfungen nie gelesen: ob bei diesen Personen etwas fällig ist, ist hier nicht bekannt',
  },
  en: {
    title: 'Trainings and checks due',
    range: (until: string, today: string) => `Due by ${until} · expired: before ${today}`,
    columns: ['Person', 'Kind', 'Description', 'Due on', 'Checks as of'],
    kinds: { training: 'Training', check: 'Check' },
    expired: 'expired',
    neverRead: 'never read',
    number: (n: string) => `No. ${n}`,
    none: 'Nothing falls due by this day.',
    unreadHead: 'Checks never read: whether anything falls due for these people is not known here',
  },
} as const;

/** Person, kind, description, due on, checks read (the rest). */
const COLUMNS = [140, 58, 160, 68];
const LAST_WIDTH = CONTENT_WIDTH - COLUMNS.reduce((sum, w) => sum + w, 0);
const WIDTHS = [...COLUMNS, LAST_WIDTH];
const PAD = 4;
const SIZE = 9;
const BOTTOM = A4.height - MARGIN.bottom;
/** The column of the day an entry falls due. */
const DUE_COLUMN = 3;

/** One line of the table: a person's first, or one more of their entries. */
interface Line {
  cells: string[];
  faces: Face[];
  expired: boolean;
}

export interface DuePdf {
  bytes: Uint8Array;
  /** Characters of the data that no font has: printed as "�". */
  missing: string[];
}

export async function renderDuePdf(
  due: QueryResults['personnel.due'],
  until: string,
  language: Language,
  now: Date,
): Promise<DuePdf> {
  const words = WORDS[language];
  const day = (iso: string) => dayIn(language, iso);
  const pdf = startPdf(`${words.title} (${day(until)})`, language, now);
  const { doc } = pdf;
  const text = new PdfText(doc);
  const lineHeight = text.lineHeight('regular', SIZE);

  const head = (y: number): number => {
    const height = 16;
    doc.rect(MARGIN.left, y, CONTENT_WIDTH, height).fill('#e6e6e6');
    doc.fillColor('#000').font('bold');
    let x = MARGIN.left;
    words.columns.forEach((label, index) => {
      // One line each: a head that does not fit is set smaller.
      const width = WIDTHS[index]! - 2 * PAD;
      let size = 8.5;
      while (size > 6 && doc.fontSize(size).widthOfString(label) > width) size -= 0.5;
      doc.text(label, x + PAD, y + 4, { width, lineBreak: false });
      x += WIDTHS[index]!;
    });
    return y + height;
  };
  const newPage = (): number => {
    doc.addPage();
    let y = MARGIN.top;
    y = text.write(words.title, 'bold', 15, MARGIN.left, y, CONTENT_WIDTH) + 2;
    y = text.write(
      words.range(day(until), day(due.today)),
      'regular',
      9.5,
      MARGIN.left,
      y,
      CONTENT_WIDTH,
    );
    return head(y + 8);
  };

  /** A person's cells per line: the first line names them and says how current their checks are. */
  const linesOf = (person: DuePerson): Line[] => {
    const name = [person.nachname, person.vorname].filter((part) => part.trim()).join(', ') || '–';
    const who = person.mitgliednr ? `${name}\n${words.number(person.mitgliednr)}` : name;
    const asOf = person.checksConfirmedAt
      ? language === 'de'
        ? berlinGermanDate(Date.parse(person.checksConfirmedAt))
        : berlinIsoDate(Date.parse(person.checksConfirmedAt))
      : words.neverRead;
    const entries = person.entries.length ? person.entries : [null];
    return entries.map((entry, index) => ({
      expired: entry?.expired ?? false,
      cells: [
        index === 0 ? who : '',
        entry ? words.kinds[entry.kind] : '',
        entry?.bezeichnung ?? '',
        entry ? (entry.expired ? `${day(entry.due)}\n${words.expired}` : day(entry.due)) : '',
        index === 0 ? asOf : '',
      ],
      faces: [
        'bold',
        'regular',
        'regular',
        entry?.expired ? 'bold' : 'regular',
        person.checksConfirmedAt ? 'regular' : 'italic',
      ],
    }));
  };
  const laidOut = (line: Line) => {
    const cells = line.cells.map((cell, column) =>
      text.lines(cell, line.faces[column]!, SIZE, WIDTHS[column]! - 2 * PAD),
    );
    const height = Math.max(1, ...cells.map((lines) => lines.length)) * lineHeight + 2 * PAD;
    return { ...line, cells, height };
  };

  let y = newPage();
  if (due.items.length === 0) {
    doc.font('italic').fontSize(10).fillColor('#555');
    doc.text(words.none, MARGIN.left + PAD, y + 8, { width: CONTENT_WIDTH - 2 * PAD });
  }
  let unreadShown = false;
  for (const person of due.items) {
    if (person.entries.length === 0 && !unreadShown) {
      unreadShown = true;
      if (y + 40 > BOTTOM) y = newPage();
      y = text.write(words.unreadHead, 'bold', 9.5, MARGIN.left, y + 10, CONTENT_WIDTH) + 4;
    }
    const lines = linesOf(person).map(laidOut);
    const height = lines.reduce((sum, line) => sum + line.height, 0);
    // Together on one page when it fits on one; else line by line.
    if (y + height > BOTTOM && height <= BOTTOM - MARGIN.top - 60) y = newPage();
    for (const line of lines) {
      if (y + line.height > BOTTOM) y = newPage();
      let x = MARGIN.left;
      doc.fillColor('#000');
      line.cells.forEach((cell, column) => {
        // An expired entry's day in red.
        doc.fillColor(line.expired && column === DUE_COLUMN ? '#a00000' : '#000');
        text.draw(cell, line.faces[column]!, SIZE, x + PAD, y + PAD);
        x += WIDTHS[column]!;
      });
      y += line.height;
    }
    doc.save().lineWidth(0.5).strokeColor('#999');
    doc
      .moveTo(MARGIN.left, y)
      .lineTo(MARGIN.left + CONTENT_WIDTH, y)
      .stroke();
    doc.restore();
  }
  return { bytes: await pdf.finish(), missing: [...text.missing] };
}
