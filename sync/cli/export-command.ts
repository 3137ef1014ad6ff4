// `vorort export`: a calendar (.ics), a spreadsheet (CSV) or the attendance list (PDF) from the
// replica alone, no network. The same engine (sync/export) serves the desktop app and browser
// mode. It speaks the language of the file (--lang, German by default), says what it wrote
// ("42 Kurstermine nach kurse.ics geschrieben"), and fails in words with an exit code.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { CoreFailure } from '../core-error';
import { openReplica } from '../db/open';
import {
  EXPORT_FORMATS,
  EXPORT_SUBJECTS,
  exportData,
  type ExportRequestInput,
  type ExportResult,
} from '../export';
import { writeExportFile } from '../export/write-file';
import { EXIT, describeFailure, exitCodeFor } from './exit-codes';

interface ExportCommandOptions {
  db: string;
  format: string;
  what: string;
  course?: string;
  participation?: string;
  from?: string;
  until?: string;
  trainer?: string;
  user?: string;
  anlass?: string;
  typ?: string;
  approved?: string;
  includeCancelled?: boolean;
  /** commander's --no-unread: false when given. */
  unread: boolean;
  separator: string;
  lang: string;
  out: string;
  json?: boolean;
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      'Write a calendar (.ics), a spreadsheet (CSV), a course’s attendance list or certificates of attendance, or what falls due (PDF) from the replica, offline',
    )
    .requiredOption('--db <file>', 'the replica (SQLite file)')
    .requiredOption('--format <format>', EXPORT_FORMATS.join(' | '))
    .requiredOption(
      '--what <what>',
      `${EXPORT_SUBJECTS.join(' | ')}: course dates, volunteer-hour entries, the private feed's events, one course's participants, the trainings and checks due by --until, one course's certificates of attendance (PDF, those marked present), or courses, hours and events in one calendar`,
    )
    .option(
      '--course <id>',
      'the course (participants, certificates: required; courses: only its dates)',
    )
    .option('--participation <id>', 'certificates: this participant’s alone')
    .option('--from <date>', 'first day, YYYY-MM-DD (Berlin time)')
    .option('--until <date>', 'last day, YYYY-MM-DD (included)')
    .option('--trainer <id>', 'courses this person trains; "self" for the signed-in user')
    .option('--user <id>', 'volunteer hours of this person; "self" for the signed-in user')
    .option('--anlass <id>', 'volunteer hours of this occasion')
    .option('--typ <id>', 'volunteer hours of this type')
    .option('--approved <yes|no>', 'volunteer hours approved (yes) or not yet (no)')
    .option('--include-cancelled', 'participants CSV: cancelled participations too')
    .option('--no-unread', 'due: leave out the people whose checks were never read')
    .option(
      '--separator <char>',
      `CSV: ";" (decimal comma, dates dd.mm.yyyy, German Excel) or "," (decimal point, ISO dates)`,
      ';',
    )
    .option('--lang <language>', 'de or en: headers, titles, and what this command says', 'de')
    .requiredOption('--out <file>', 'where to write the file; "-" for standard output')
    .option('--json', 'one JSON object instead of the sentence')
    .addHelpText(
      'after',
      `
Times are Berlin wall-clock times (the .ics holds them as UTC instants), whatever
this computer's zone. An export without any match writes a valid, empty file and
says so. Files are written readable by their owner only (0600): they hold personal
data. Calendar entries keep their UIDs from export to export; one that changed
since the last export gets a higher SEQUENCE, so a calendar updates it.

Exit codes: 0 written (also when empty); 2 bad options (format, what, a date, a
course that is not in the replica), --db is not a replica, or --out cannot be
written.`,
    )
    .action(async (options: ExportCommandOptions) => {
      process.exitCode = await exportCommand(options);
    });
}

type Language = 'de' | 'en';

function requestOf(options: ExportCommandOptions): ExportRequestInput {
  const approved =
    options.approved === undefined
      ? undefined
      : /^(yes|ja|true|1)$/i.test(options.approved)
        ? true
        : /^(no|nein|false|0)$/i.test(options.approved)
          ? false
          : options.approved;
  const request: Record<string, unknown> = {
    format: options.format,
    what: options.what,
    separator: options.separator,
    language: options.lang,
  };
  if (options.course !== undefined) request.courseId = options.course;
  if (options.participation !== undefined) request.participationId = options.participation;
  if (options.from !== undefined) request.from = options.from;
  if (options.until !== undefined) request.until = options.until;
  if (options.trainer !== undefined) request.trainerId = options.trainer;
  if (options.user !== undefined) request.userId = options.user;
  if (options.anlass !== undefined) request.anlassId = options.anlass;
  if (options.typ !== undefined) request.typId = options.typ;
  if (approved !== undefined) request.approved = approved;
  if (options.includeCancelled) request.includeCancelled = true;
  if (!options.unread) request.includeUnread = false;
  return request as ExportRequestInput;
}

class OutputError extends Error {
  override name = 'OutputError';
  constructor(readonly words: { de: string; en: string }) {
    super(words.en);
  }
}

async function exportCommand(options: ExportCommandOptions): Promise<number> {
  const language: Language = options.lang === 'en' ? 'en' : 'de';
  const say = (line: string) => process.stderr.write(`vorort export: ${line}\n`);
  const toStdout = options.out === '-';
  let result: ExportResult;
  try {
    if (!toStdout) checkTarget(options.out);
    const replica = openReplica(options.db, { mode: 'existing' });
    try {
      result = await exportData(replica, requestOf(options));
    } finally {
      await replica.close();
    }
    if (toStdout) process.stdout.write(result.bytes);
    else writeAtomically(options.out, result.bytes);
  } catch (error) {
    const { code, message } = failureOf(error, language);
    if (options.json)
      process.stdout.write(`${JSON.stringify({ ok: false, error: message, exitCode: code })}\n`);
    else say(message);
    return code;
  }
  const where = toStdout
    ? language === 'de'
      ? 'die Standardausgabe'
      : 'standard output'
    : options.out;
  if (options.json && !toStdout) {
    process.stdout.write(
      `${JSON.stringify({
        ok: true,
        file: options.out,
        count: result.count,
        empty: result.empty,
        bytes: result.bytes.byteLength,
        mimeType: result.mimeType,
        ...(result.note ? { note: result.note[language] } : {}),
      })}\n`,
    );
    return EXIT.ok;
  }
  const counted = result.counted[language];
  if (result.empty)
    say(
      language === 'de'
        ? `keine Treffer: leere, gültige Datei nach ${where} geschrieben (0 ${counted.replace(/^0 /, '')})`
        : `nothing matched: wrote an empty, valid file to ${where} (0 ${counted.replace(/^0 /, '')})`,
    );
  else
    say(
      language === 'de' ? `${counted} nach ${where} geschrieben` : `wrote ${counted} to ${where}`,
    );
  if (result.note) say(result.note[language]);
  return EXIT.ok;
}

/** Refuses an --out that cannot be a file before the replica is read. */
function checkTarget(out: string): void {
  const target = resolve(out);
  const folder = dirname(target);
  let folderIsFolder = false;
  try {
    folderIsFolder = statSync(folder).isDirectory();
  } catch {
    // Said below.
  }
  if (!folderIsFolder)
    throw new OutputError({
      de: `Kann nicht nach ${out} schreiben: den Ordner ${folder} gibt es nicht.`,
      en: `Cannot write ${out}: there is no folder ${folder}.`,
    });
  try {
    if (statSync(target).isDirectory())
      throw new OutputError({
        de: `Kann nicht nach ${out} schreiben: das ist ein Ordner; bitte einen Dateinamen angeben.`,
        en: `Cannot write ${out}: it is a folder; give a file name.`,
      });
  } catch (error) {
    if (error instanceof OutputError) throw error;
  }
}

/** The file whole or not at all (sync/export/write-file.ts); a refusal in the CLI's words. */
function writeAtomically(out: string, bytes: Uint8Array): void {
  try {
    writeExportFile(resolve(out), bytes);
  } catch (error) {
    if (error instanceof CoreFailure) throw new OutputError(error.messages);
    throw error;
  }
}

function failureOf(error: unknown, language: Language): { code: number; message: string } {
  if (error instanceof OutputError) return { code: EXIT.badInput, message: error.words[language] };
  if (error instanceof CoreFailure) {
    // Arguments refused and a course that is not there are the caller's to fix: bad input.
    const code =
      error.code === 'invalid_arguments' || error.code === 'not_found'
        ? EXIT.badInput
        : EXIT.partial;
    return { code, message: error.messages[language] };
  }
  return { code: exitCodeFor(error), message: describeFailure(error) };
}
