// The desktop's save dialog for exports, without Electron (a dialog that answers as told): the
// suggested name in the default folder, then in the folder used last; a filter for the file's
// type in the app's language; the file written whole where chosen (its extension added when typed
// without one); nothing written when the person cancels; a folder that is not there said in words.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SaveDialogOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { CoreFailure } from '../sync/core-error';
import { temporaryFiles } from '../test/support/temp-files';
import { exportSaver, saveDialogOptions } from './save-dialog';

const temp = temporaryFiles('save-dialog');

function fakeDialog(answers: (string | null)[]) {
  const asked: { window: string | null; options: SaveDialogOptions }[] = [];
  return {
    asked,
    dialog: {
      async showSaveDialog(window: string | null, options: SaveDialogOptions) {
        asked.push({ window, options });
        const path = answers.shift() ?? null;
        return path === null ? { canceled: true } : { canceled: false, filePath: path };
      },
    },
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the save dialog of exports', () => {
  it('suggests the name with its type, in German or English', () => {
    expect(saveDialogOptions('kurse.ics', '/home/a/Downloads', 'de')).toEqual({
      title: 'Export speichern',
      buttonLabel: 'Speichern',
      defaultPath: join('/home/a/Downloads', 'kurse.ics'),
      filters: [
        { name: 'Kalender (iCalendar)', extensions: ['ics'] },
        { name: 'Alle Dateien', extensions: ['*'] },
      ],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    const english = saveDialogOptions('attendance-list-EH-1.pdf', '/tmp', 'en');
    expect(english.title).toBe('Save export');
    expect(english.filters?.[0]).toEqual({ name: 'PDF document', extensions: ['pdf'] });
    expect(saveDialogOptions('x.csv', '/tmp', 'de').filters?.[0]?.name).toBe('Tabelle (CSV)');
  });

  it('writes where chosen, remembers the folder, adds a missing extension, writes nothing when cancelled', async () => {
    const downloads = dirname(temp('downloads/x'));
    const chosen = dirname(temp('chosen/x'));
    mkdirSync(downloads, { recursive: true });
    mkdirSync(chosen, { recursive: true });
    const { dialog, asked } = fakeDialog([
      join(chosen, 'meine-kurse.ics'),
      join(chosen, 'stunden'),
      null,
    ]);
    const save = exportSaver({
      dialog,
      window: () => 'the focused window',
      defaultFolders: () => [join(downloads, 'missing'), downloads],
      language: async () => 'de' as const,
    });

    expect(await save('kurse.ics', bytes('BEGIN:VCALENDAR'))).toBe(join(chosen, 'meine-kurse.ics'));
    // The first existing default folder, with the dialog on the focused window.
    expect(asked[0]).toMatchObject({
      window: 'the focused window',
      options: { defaultPath: join(downloads, 'kurse.ics') },
    });
    expect(readFileSync(join(chosen, 'meine-kurse.ics'), 'utf8')).toBe('BEGIN:VCALENDAR');

    // Next time in the folder used last; a name typed without its extension gets the type's.
    expect(await save('helferstunden.csv', bytes('a;b'))).toBe(join(chosen, 'stunden.csv'));
    expect(asked[1]?.options.defaultPath).toBe(join(chosen, 'helferstunden.csv'));
    expect(readFileSync(join(chosen, 'stunden.csv'), 'utf8')).toBe('a;b');

    // Closed: null, and nothing new in the folder.
    expect(await save('kurse.ics', bytes('other'))).toBeNull();
    expect(readdirSync(chosen).sort()).toEqual(['meine-kurse.ics', 'stunden.csv']);
  });

  it('keeps a name without extension when that would replace a file the dialog did not ask about', async () => {
    const folder = dirname(temp('keep/x'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'liste.pdf'), 'old');
    const { dialog } = fakeDialog([join(folder, 'liste')]);
    const save = exportSaver({
      dialog,
      window: () => null,
      defaultFolders: () => [folder],
      language: () => 'en' as const,
    });
    expect(await save('anwesenheitsliste.pdf', bytes('%PDF-'))).toBe(join(folder, 'liste'));
    expect(readFileSync(join(folder, 'liste.pdf'), 'utf8')).toBe('old');
  });

  it('says in words when the chosen folder is not there', async () => {
    const folder = dirname(temp('gone/x'));
    const target = join(folder, 'nowhere', 'kurse.ics');
    const { dialog } = fakeDialog([target]);
    const save = exportSaver({
      dialog,
      window: () => null,
      defaultFolders: () => [],
      language: () => 'de' as const,
    });
    const failure = await save('kurse.ics', bytes('x')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CoreFailure);
    expect((failure as CoreFailure).messages.de).toBe(
      `Die Datei konnte nicht unter ${target} gespeichert werden: den Ordner gibt es nicht.`,
    );
  });
});
