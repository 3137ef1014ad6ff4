// What the PDF exports share: an A4 document of pdfkit collected into bytes, and every page's
// footer ("Erstellt am … mit Vorort", "Seite n von m"). Output is deterministic for a given
// export time (pdfkit derives the file id from CreationDate).
import PDFDocument from 'pdfkit';
import { berlinGermanDate, berlinIsoDate, berlinTime } from '../contract/service-time';
import type { Language } from './words';

export const A4 = { width: 595.28, height: 841.89 };
export const MARGIN = { left: 42, right: 42, top: 40, bottom: 48 };
export const CONTENT_WIDTH = A4.width - MARGIN.left - MARGIN.right;
const FOOTER_Y = A4.height - 32;

const WORDS = {
  de: {
    page: (n: number, of: number) => `Seite ${n} von ${of}`,
    made: (day: string, time: string) => `Erstellt am ${day} um ${time} Uhr mit Vorort`,
  },
  en: {
    page: (n: number, of: number) => `Page ${n} of ${of}`,
    made: (day: string, time: string) => `Created on ${day} at ${time} with Vorort`,
  },
} as const;

export interface PdfDocument {
  doc: PDFKit.PDFDocument;
  /** Stamps every page's footer, ends the document and answers its bytes. */
  finish(): Promise<Uint8Array>;
}

export function startPdf(title: string, language: Language, now: Date): PdfDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    lang: language === 'de' ? 'de-DE' : 'en-GB',
    info: {
      Title: title,
      Creator: 'Vorort',
      Producer: 'Vorort (PDFKit)',
      CreationDate: now,
      ModDate: now,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const finish = async () => {
    stampFooters(doc, language, now);
    doc.end();
    await ended;
    return new Uint8Array(Buffer.concat(chunks));
  };
  return { doc, finish };
}

function stampFooters(doc: PDFKit.PDFDocument, language: Language, now: Date): void {
  const words = WORDS[language];
  const range = doc.bufferedPageRange();
  const made = words.made(
    language === 'de' ? berlinGermanDate(now.getTime()) : berlinIsoDate(now.getTime()),
    berlinTime(now.getTime()),
  );
  for (let page = 0; page < range.count; page += 1) {
    doc.switchToPage(range.start + page);
    // Below the bottom margin: without this pdfkit would begin a new page for the footer.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(8).fillColor('#444');
    doc.text(made, MARGIN.left, FOOTER_Y, { width: CONTENT_WIDTH / 2, lineBreak: false });
    doc.text(words.page(page + 1, range.count), MARGIN.left, FOOTER_Y, {
      width: CONTENT_WIDTH,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = margin;
  }
}
