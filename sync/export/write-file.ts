// Writing an exported file where the person chose (the desktop app's save dialog, the command
// line's --out): whole or not at all (a temporary file beside the target, then renamed over it,
// so a calendar or spreadsheet never reads half a file; a special file such as /dev/stdout is
// written directly), readable by its owner only (0600, as the replica: an attendance list holds
// names and birthdays; the person widens it to pass it on). Failures are said in words, in both
// languages, with the path the person chose (never a stack trace).
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CoreFailure } from '../core-error';

export function writeExportFile(path: string, bytes: Uint8Array): void {
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // No file there yet.
  }
  if (isFolder) throw cannotWrite(path, ['das ist ein Ordner', 'it is a folder']);
  let special = false;
  try {
    special = !statSync(path).isFile();
  } catch {
    // No file yet.
  }
  const temporary = special
    ? path
    : join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, special ? 'w' : 'wx', 0o600);
    try {
      let written = 0;
      while (written < bytes.byteLength)
        written += writeSync(fd, bytes, written, bytes.byteLength - written);
    } finally {
      closeSync(fd);
    }
    if (!special) renameSync(temporary, path);
  } catch (error) {
    if (!special) rmSync(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const first = ((error as Error).message ?? String(error)).split('\n')[0] ?? code;
    throw cannotWrite(
      path,
      code === 'EACCES' || code === 'EPERM'
        ? ['keine Schreibrechte', 'permission denied']
        : code === 'ENOENT'
          ? ['den Ordner gibt es nicht', 'there is no such folder']
          : code === 'EROFS'
            ? ['das Dateisystem ist schreibgeschützt', 'the file system is read-only']
            : code === 'ENOSPC'
              ? ['kein Platz mehr auf dem Datenträger', 'no space left on the device']
              : code === 'EBUSY'
                ? [
                    'die Datei ist in einem anderen Programm geöffnet (etwa Excel); bitte dort schließen',
                    'the file is open in another program (Excel, say); close it there first',
                  ]
                : [first, first],
    );
  }
}

function cannotWrite(path: string, [de, en]: [string, string]): CoreFailure {
  return new CoreFailure('not_allowed', {
    de: `Die Datei konnte nicht unter ${path} gespeichert werden: ${de}.`,
    en: `The file could not be saved as ${path}: ${en}.`,
  });
}
