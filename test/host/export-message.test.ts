// What the export button says after an export (renderer/export.ts's exportMessage), in German
// and English, from the core's answer: saved where, downloaded as what, an empty file and why
// (the chosen range, no participants, no calendar feed: the app's words, not the command line's).
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import de from '../../renderer/i18n/de.json';
import en from '../../renderer/i18n/en.json';
import { exportMessage } from '../../renderer/export';
import type { ExportCreated } from '../../sync/contract';

beforeAll(async () => {
  await i18next.init({
    resources: { de: { translation: de }, en: { translation: en } },
    lng: 'de',
    interpolation: { escapeValue: false },
  });
});

const answer = (more: Partial<ExportCreated>): ExportCreated => ({
  fileName: 'kurse.ics',
  mimeType: 'text/calendar; charset=utf-8',
  size: 1000,
  count: 42,
  empty: false,
  counted: { de: '42 Kurstermine', en: '42 course dates' },
  ...more,
});

describe('what an export says', () => {
  it('saved and downloaded, in the language in use', async () => {
    await i18next.changeLanguage('de');
    const courses = { format: 'ics', what: 'courses' } as const;
    expect(exportMessage(courses, answer({ savedTo: '/home/a/kurse.ics' }))).toBe(
      '42 Kurstermine gespeichert unter /home/a/kurse.ics',
    );
    expect(exportMessage(courses, answer({ base64: '' }))).toBe(
      '42 Kurstermine heruntergeladen (kurse.ics)',
    );
    await i18next.changeLanguage('en');
    expect(exportMessage(courses, answer({ savedTo: '/home/a/kurse.ics' }))).toBe(
      'Saved 42 course dates to /home/a/kurse.ics',
    );
  });

  it('an empty file says why', async () => {
    await i18next.changeLanguage('de');
    const empty = { count: 0, empty: true, counted: { de: '0 Kurstermine', en: '0 course dates' } };
    expect(
      exportMessage(
        { format: 'ics', what: 'courses', from: '2030-01-01' },
        answer({ ...empty, savedTo: '/tmp/kurse.ics' }),
      ),
    ).toBe('Leere Datei gespeichert unter /tmp/kurse.ics: nichts im gewählten Zeitraum');
    expect(
      exportMessage(
        { format: 'pdf', what: 'participants', courseId: '1' },
        answer({ ...empty, fileName: 'liste.pdf', base64: '' }),
      ),
    ).toBe('Leere Datei heruntergeladen (liste.pdf): keine Teilnehmenden');
    const noFeed = answer({
      ...empty,
      fileName: 'termine.ics',
      base64: '',
      note: {
        de: 'Kein privater Kalender-Feed eingerichtet (vorort sync --feed-url ADRESSE).',
        en: '…',
      },
    });
    const said = exportMessage({ format: 'ics', what: 'events' }, noFeed);
    expect(said).toBe(
      'Leere Datei heruntergeladen (termine.ics): Kein privater Kalender-Feed eingerichtet (Einstellungen → Kalender-Feed).',
    );
    expect(said).not.toContain('--feed-url');
  });
});
