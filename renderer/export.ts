// The screens' one way to export (issue 13): exportFile(request) asks the core for the file
// (export.create), from the replica alone, offline too. In the desktop app the core shows the
// save dialog and writes the file; in browser mode it answers the bytes and the page downloads
// them (a Blob behind an <a download>). Answers what to tell the person, in the language in use
// ("42 Kurstermine gespeichert unter …"); a refusal (a course not there, a choice no file
// holds) is thrown as the core's CoreCallError, in words.
import i18next from 'i18next';
import { CoreCallError } from './bridge';
import type { ExportCreated, ExportRequestInput } from './contract';
import { currentLanguage } from './i18n';
import { useApp } from './stores';

export interface ExportDone {
  /** saved: a file where the person chose; downloaded: the browser's download; cancelled: nothing. */
  outcome: 'saved' | 'downloaded' | 'cancelled';
  /** What to tell the person, in the language in use; null when they cancelled (nothing to say). */
  message: string | null;
  created: ExportCreated;
}

/**
 * Exports as asked: the file's language follows the page's unless the request names one; the
 * desktop app saves through its dialog, browser mode downloads.
 */
export async function exportFile(request: ExportRequestInput): Promise<ExportDone> {
  const bridge = useApp.getState().bridge;
  if (!bridge)
    throw new CoreCallError({
      code: 'offline',
      message: {
        de: i18next.t('export.notConnected', { lng: 'de' }),
        en: i18next.t('export.notConnected', { lng: 'en' }),
      },
    });
  const created = await bridge.call('export.create', {
    request: { ...request, language: request.language ?? currentLanguage() },
    deliver: window.vorort ? 'save' : 'data',
  });
  if (created.cancelled) return { outcome: 'cancelled', message: null, created };
  if (created.base64 !== undefined) {
    downloadFile(created.fileName, created.mimeType, created.base64);
    return { outcome: 'downloaded', message: exportMessage(request, created), created };
  }
  return { outcome: 'saved', message: exportMessage(request, created), created };
}

/** The sentence for a finished export, in the language in use. */
export function exportMessage(request: ExportRequestInput, created: ExportCreated): string {
  const language = currentLanguage();
  const t = i18next.t.bind(i18next);
  const saved = typeof created.savedTo === 'string';
  const where = { path: created.savedTo ?? '', fileName: created.fileName };
  // A missing feed is said as the app says it (the core's own words name the command line);
  // another note (characters the attendance list has no font for) in the core's words.
  const feedMissing =
    created.note !== undefined && (request.what === 'events' || request.what === 'all');
  const note = created.note ? (feedMissing ? t('export.noFeed') : created.note[language]) : null;
  let sentence: string;
  if (created.empty) {
    const why = feedMissing
      ? null
      : request.what === 'participants'
        ? t('export.emptyParticipants')
        : request.from || request.until
          ? t('export.emptyRange')
          : t('export.emptyNothing');
    sentence = t(saved ? 'export.emptySaved' : 'export.emptyDownloaded', {
      ...where,
      why: why ?? note ?? t('export.emptyNothing'),
    });
    if (why === null) return sentence;
  } else
    sentence = t(saved ? 'export.saved' : 'export.downloaded', {
      ...where,
      counted: created.counted[language],
    });
  return note ? `${sentence}. ${note}` : sentence;
}

/** Browser mode: the bytes as a download, under the suggested name; the object URL freed after. */
export function downloadFile(fileName: string, mimeType: string, base64: string): void {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  const url = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The download has taken the URL by then; a minute is ample for a slow disk's dialog.
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
