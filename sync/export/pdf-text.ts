// Data set in a PDF as the service has it, whatever its script. DejaVu Sans Condensed has the
// letters of every European name (umlauts, ß, Ł, ş, ő, Greek, Cyrillic); Noto Sans SC (SIL Open
// Font License) has the Chinese characters and Japanese kana it lacks. Each character is set in
// the first of them that has it; one that neither has is printed as "�" and reported, never
// dropped in silence. pdfkit neither falls back to a second font nor wraps text of several fonts
// reliably, so lines are laid out here, the same way for measuring and for drawing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

const require = createRequire(import.meta.url);

export type Face = 'regular' | 'bold' | 'italic';

/** Each face's fonts, in the order they are tried (font packages, shipped with the app). */
const FONT_FILES: Record<Face, readonly string[]> = {
  regular: [
    'dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf',
    '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  ],
  bold: [
    'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf',
    '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  ],
  italic: [
    'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Oblique.ttf',
    '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  ],
};

/** What a character is printed as when no font has it. */
const MISSING_MARK = '\uFFFD';

interface LoadedFont {
  bytes: Buffer;
  font: fontkit.Font;
}

/** Fonts read once per process, when first needed (Noto Sans SC is 10 MB per face). */
const loaded = new Map<string, LoadedFont>();

function loadFont(file: string): LoadedFont {
  let entry = loaded.get(file);
  if (!entry) {
    const bytes = readFileSync(require.resolve(file));
    entry = { bytes, font: fontkit.create(bytes) as fontkit.Font };
    loaded.set(file, entry);
  }
  return entry;
}

/** A piece of a line set in one font. */
interface Piece {
  text: string;
  font: string;
  width: number;
}
export type Line = Piece[];

const segmenter = new Intl.Segmenter('de', { granularity: 'grapheme' });
/** Latin letters, spacing marks, dashes and quotes: one character is one grapheme. */
const SIMPLE = /^[ -\u02ff\u2010-\u201f]*$/u;

/** The graphemes of a text (Intl.Segmenter is slow: not where each character is one). */
function graphemes(text: string): Iterable<string> {
  return SIMPLE.test(text) ? text : Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Joiners and variation selectors: no font needs a glyph for them. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** Characters a line may break before and after, as in Chinese and Japanese text. */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Characters a line may break after: spaces, hyphens, dashes, the slash. */
const BREAK_AFTER = /^[\s\-\u2010\u2013\u2014/]$/u;

/**
 * The pieces of a paragraph a line may break between: a word with the spaces or the hyphen after
 * it, or one Chinese or Japanese character.
 */
function breakUnits(paragraph: string): string[] {
  const units: string[] = [];
  let unit = '';
  let closed = false;
  for (const segment of graphemes(paragraph)) {
    const space = /^\s+$/u.test(segment);
    if (unit && !space && (closed || WIDE.test(segment))) {
      units.push(unit);
      unit = '';
    }
    unit += segment;
    closed = space || BREAK_AFTER.test(segment) || WIDE.test(segment);
  }
  if (unit) units.push(unit);
  return units;
}

/** Sets text in one PDF document's fonts; registers each font with the document when first used. */
export class PdfText {
  /** Characters no font has, printed as MISSING_MARK. */
  readonly missing = new Set<string>();
  private readonly registered = new Set<string>();
  // Remembered per document: a cell is laid out once per size it is tried in, names repeat words.
  private readonly widths = new Map<string, number>();
  private readonly runsOf = new Map<string, readonly { text: string; font: string }[]>();
  private readonly unitsOf = new Map<string, string[]>();

  constructor(private readonly doc: PDFKit.PDFDocument) {
    // The first font of each face under the face's own name, for text that is ours (labels).
    for (const face of Object.keys(FONT_FILES) as Face[]) this.fontName(face, 0);
  }

  /** The line height of a face at a size (its first font's, whatever the text). */
  lineHeight(face: Face, size: number): number {
    return this.doc.font(this.fontName(face, 0)).fontSize(size).currentLineHeight(true);
  }

  /** The lines `text` takes in `width`: broken at spaces and hyphens, a too long word anywhere. */
  lines(text: string, face: Face, size: number, width = Infinity): Line[] {
    const lines: Line[] = [];
    for (const paragraph of text.split(/\r\n|\r|\n/)) {
      let line: Line = [];
      let used = 0;
      const endLine = () => {
        lines.push(this.trimEnd(line, size));
        line = [];
        used = 0;
      };
      for (const unit of this.breakUnits(paragraph)) {
        const pieces = this.pieces(unit, face, size);
        const total = widthOf(pieces);
        const visible = widthOf(this.trimEnd(pieces, size));
        if (used + visible <= width) {
          append(line, pieces);
          used += total;
          continue;
        }
        if (line.length > 0) endLine();
        if (visible <= width) {
          append(line, pieces);
          used = total;
          continue;
        }
        // Longer than a line: broken between any two characters.
        for (const segment of graphemes(unit)) {
          const piece = this.pieces(segment, face, size);
          const added = widthOf(piece);
          if (line.length > 0 && used + added > width && !/^\s+$/u.test(segment)) endLine();
          append(line, piece);
          used += added;
        }
      }
      endLine();
    }
    return lines;
  }

  /**
   * The lines `text` takes in `width`, at most `max` of them: a longer text's last line ends in
   * "…" (what no longer fits on it dropped).
   */
  clipped(text: string, face: Face, size: number, width: number, max: number): Line[] {
    // Only the start can be shown: a text of thousands of lines is not laid out whole. No
    // character is narrower than 2 pt at the sizes used, so `limit` characters fill `max` lines.
    const limit = max * Math.ceil(width / 2);
    // (Never half a surrogate pair: it would be reported as a character no font has.)
    const start = text.slice(0, limit).replace(/[\uD800-\uDBFF]$/, '');
    const all = this.lines(start, face, size, width);
    if (all.length <= max && text.length <= limit) return all;
    const kept = all.slice(0, max);
    const ellipsis = this.pieces('…', face, size);
    const room = width - widthOf(ellipsis);
    let last = this.trimEnd(kept.at(-1) ?? [], size);
    // Drop graphemes from the end of the last line until the ellipsis fits after it.
    while (last.length > 0 && widthOf(last) > room) {
      const piece = last.at(-1)!;
      const shorter = [...graphemes(piece.text)].slice(0, -1).join('');
      if (shorter)
        last = [
          ...last.slice(0, -1),
          { ...piece, text: shorter, width: this.widthIn(piece.font, size, shorter) },
        ];
      else last = last.slice(0, -1);
    }
    const line: Line = [];
    append(line, last);
    append(line, ellipsis);
    kept[kept.length - 1] = line;
    return kept;
  }

  /** breakUnits of a paragraph. */
  private breakUnits(paragraph: string): string[] {
    let units = this.unitsOf.get(paragraph);
    if (!units) {
      units = breakUnits(paragraph);
      this.unitsOf.set(paragraph, units);
    }
    return units;
  }

  /** Draws lines from (x, y), the top of the first; answers the y below the last. */
  draw(
    lines: readonly Line[],
    face: Face,
    size: number,
    x: number,
    y: number,
    align: { right: number } | null = null,
  ): number {
    const lineHeight = this.lineHeight(face, size);
    const first = loadFont(FONT_FILES[face][0]!).font;
    const ascent = (first.ascent / first.unitsPerEm) * size;
    for (const [index, line] of lines.entries()) {
      let left = align ? align.right - widthOf(line) : x;
      const baseline = y + index * lineHeight + ascent;
      for (const piece of line) {
        this.doc.font(piece.font).fontSize(size);
        this.doc.text(piece.text, left, baseline, { lineBreak: false, baseline: 'alphabetic' });
        left += piece.width;
      }
    }
    return y + lines.length * lineHeight;
  }

  /** Writes `text` wrapped in `width` at (x, y); answers the y below it. */
  write(text: string, face: Face, size: number, x: number, y: number, width: number): number {
    return this.draw(this.lines(text, face, size, width), face, size, x, y);
  }

  /** The width of text in one font. */
  private widthIn(font: string, size: number, text: string): number {
    const key = `${font}\u0000${size}\u0000${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      width = this.doc.font(font).fontSize(size).widthOfString(text);
      this.widths.set(key, width);
    }
    return width;
  }

  /** The pieces without the spaces at their end (a line's end shows none). */
  private trimEnd(pieces: readonly Piece[], size: number): Piece[] {
    const result = pieces.map((piece) => ({ ...piece }));
    while (result.length > 0) {
      const last = result.at(-1)!;
      const trimmed = last.text.trimEnd();
      if (trimmed === last.text) break;
      if (trimmed) {
        last.text = trimmed;
        last.width = this.widthIn(last.font, size, trimmed);
        break;
      }
      result.pop();
    }
    return result;
  }

  /** Text as pieces of one font each, measured. */
  private pieces(text: string, face: Face, size: number): Piece[] {
    return this.runs(text, face).map(({ text: run, font }) => ({
      text: run,
      font,
      width: this.widthIn(font, size, run),
    }));
  }

  /** Text as runs of one font each. */
  private runs(text: string, face: Face): readonly { text: string; font: string }[] {
    const key = `${face}\u0000${text}`;
    let runs = this.runsOf.get(key);
    if (!runs) {
      const built: { text: string; font: string }[] = [];
      for (const segment of graphemes(text)) {
        const { font, shown } = this.fontFor(segment, face);
        const last = built.at(-1);
        if (last?.font === font) last.text += shown;
        else built.push({ text: shown, font });
      }
      runs = built;
      this.runsOf.set(key, runs);
    }
    return runs;
  }

  /** The first of a face's fonts that has every character of a grapheme, and what to print. */
  private fontFor(grapheme: string, face: Face): { font: string; shown: string } {
    const shown = grapheme.replace(IGNORABLE, '');
    const points = [...shown].map((c) => c.codePointAt(0)!);
    const files = FONT_FILES[face];
    if (points.length === 0 || /^\s+$/u.test(shown)) return { font: this.fontName(face, 0), shown };
    for (const [index, file] of files.entries()) {
      const { font } = loadFont(file);
      if (points.every((point) => font.hasGlyphForCodePoint(point)))
        return { font: this.fontName(face, index), shown };
    }
    this.missing.add(shown);
    return { font: this.fontName(face, 0), shown: MISSING_MARK };
  }

  /** The document's name of a face's font (the face itself for its first), registered once. */
  private fontName(face: Face, index: number): string {
    const name = index === 0 ? face : `${face}-${index}`;
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, loadFont(FONT_FILES[face][index]!).bytes);
      this.registered.add(name);
    }
    return name;
  }
}

const widthOf = (pieces: readonly Piece[]) => pieces.reduce((sum, p) => sum + p.width, 0);

/** Adds pieces to a line, joining neighbours of one font. */
function append(line: Line, pieces: readonly Piece[]): void {
  for (const piece of pieces) {
    const last = line.at(-1);
    if (last?.font === piece.font) {
      last.text += piece.text;
      last.width += piece.width;
    } else line.push({ ...piece });
  }
}
