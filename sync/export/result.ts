// What an export answers, the same for every format: the file's suggested name, its type and
// bytes, and what it holds in numbers and words.
import type { ExportRequest } from './request';
import { countWords } from './words';

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

const MIME = {
  ics: 'text/calendar; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
} as const;

export const encoder = new TextEncoder();

export function result(
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
