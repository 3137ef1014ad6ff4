// The CSV writer: UTF-8 with a byte order mark (Excel reads UTF-8 only with it), a header row,
// CRLF line ends, and fields quoted where RFC 4180 needs it (the separator, a quote, a line break;
// quotes doubled). Built as one string in one pass: 10,000 rows in milliseconds.
//
// Spreadsheet safety: a text cell beginning with = + - @ (or a tab or carriage return) would be
// run as a formula by Excel and LibreOffice; it is written with a leading apostrophe, as
// OWASP advises for CSV injection. Numbers are written by the writer itself, never prefixed.

export type CsvCell = string | number | null | undefined;

export interface CsvStyle {
  separator: ';' | ',';
  /** ',' with the ';' separator (German), '.' with ','. */
  decimal: ',' | '.';
}

export function csvStyle(separator: ';' | ','): CsvStyle {
  return { separator, decimal: separator === ';' ? ',' : '.' };
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvText(value: string, style: CsvStyle): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  if (
    safe.includes(style.separator) ||
    safe.includes('"') ||
    safe.includes('\n') ||
    safe.includes('\r')
  )
    return `"${safe.replace(/"/g, '""')}"`;
  return safe;
}

/** A number with the style's decimal mark, without grouping; at most two decimals. */
export function csvNumber(value: number, style: CsvStyle): string {
  const text = String(Math.round(value * 100) / 100);
  return style.decimal === ',' ? text.replace('.', ',') : text;
}

function cell(value: CsvCell, style: CsvStyle): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? csvNumber(value, style) : '';
  return csvText(value, style);
}

/** The whole file as text, beginning with the byte order mark. */
export function renderCsv(
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  style: CsvStyle,
): string {
  let out = `\uFEFF${header.map((h) => csvText(h, style)).join(style.separator)}\r\n`;
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i += 1) {
      if (i > 0) line += style.separator;
      line += cell(row[i], style);
    }
    out += `${line}\r\n`;
  }
  return out;
}
