// The desktop app's save dialog for an export (the session's saveFile, sync/host/session.ts): asks
// where, suggesting the file's name in the folder used last (else Downloads, else Documents),
// with a filter for its type, then writes it whole (sync/export/write-file.ts) and answers the
// path, or null when the person closed the dialog. Takes Electron's dialog and the focused window
// as plain interfaces, so it is tested in Node without Electron.
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import type { SaveDialogOptions } from 'electron';
import { writeExportFile } from '../sync/export/write-file';

type Language = 'de' | 'en';

/** Electron's dialog.showSaveDialog, with the window (BrowserWindow, opaque here) or without. */
export interface SaveDialogLike<W> {
  showSaveDialog(
    window: W | null,
    options: SaveDialogOptions,
  ): Promise<{ canceled: boolean; filePath?: string | undefined }>;
}

export interface ExportSaverOptions<W> {
  dialog: SaveDialogLike<W>;
  /** The window the dialog belongs to (the focused one), or null for a free dialog. */
  window(): W | null;
  /** The folders to start in when none was used yet, first existing one wins (Downloads, Documents, home). */
  defaultFolders(): string[];
  /** The language of the dialog's words (the app's setting). */
  language(): Promise<Language> | Language;
}

const TYPES: Record<string, { de: string; en: string }> = {
  ics: { de: 'Kalender (iCalendar)', en: 'Calendar (iCalendar)' },
  csv: { de: 'Tabelle (CSV)', en: 'Spreadsheet (CSV)' },
  pdf: { de: 'PDF-Dokument', en: 'PDF document' },
};

/** The dialog's options: the name suggested in the folder, its type first, then any file. */
export function saveDialogOptions(
  suggestedName: string,
  folder: string,
  language: Language,
): SaveDialogOptions {
  const extension = extname(suggestedName).slice(1).toLowerCase();
  const type = TYPES[extension];
  const de = language === 'de';
  return {
    title: de ? 'Export speichern' : 'Save export',
    buttonLabel: de ? 'Speichern' : 'Save',
    defaultPath: join(folder, suggestedName),
    filters: [
      ...(extension
        ? [{ name: type ? type[language] : extension.toUpperCase(), extensions: [extension] }]
        : []),
      { name: de ? 'Alle Dateien' : 'All files', extensions: ['*'] },
    ],
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  };
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The session's saveFile: the dialog, then the file written where chosen. */
export function exportSaver<W>(options: ExportSaverOptions<W>) {
  let lastFolder: string | null = null;
  return async (suggestedName: string, bytes: Uint8Array): Promise<string | null> => {
    const folder =
      [...(lastFolder ? [lastFolder] : []), ...options.defaultFolders()].find(isFolder) ?? '';
    const dialogOptions = saveDialogOptions(suggestedName, folder, await options.language());
    const answer = await options.dialog.showSaveDialog(options.window(), dialogOptions);
    if (answer.canceled || !answer.filePath) return null;
    let path = answer.filePath;
    // A name typed without its extension (Linux's dialogs add none): the type's, unless that
    // would replace a file the dialog did not ask about.
    const extension = extname(suggestedName);
    if (!extname(path) && extension && !existsSync(path + extension)) path += extension;
    writeExportFile(path, bytes);
    lastFolder = dirname(path);
    return path;
  };
}
