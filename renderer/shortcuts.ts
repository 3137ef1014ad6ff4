// The shortcut for "new" (a walk-in) that works where the app runs. The desktop app gets Ctrl+N;
// a browser keeps Ctrl+N for a new window and never hands it to the page, so in browser mode the
// screens name Alt+N (which both understand).
import type { TFunction } from 'i18next';

/** Browser mode: no preload bridge (electron/preload.ts) in this page. */
export function inBrowser(): boolean {
  return !window.vorort;
}

/**
 * Ctrl+N or Alt+N. macOS's Option+N is a dead key (its `key` is no letter): the physical key
 * counts there.
 */
export function isNewChord(event: KeyboardEvent): boolean {
  if (event.metaKey || event.ctrlKey === event.altKey) return false;
  const letter = /^\p{L}$/u.test(event.key) ? event.key.toLowerCase() : null;
  return letter === 'n' || (letter === null && event.code === 'KeyN');
}

/** The shortcut as the screens show it, and as aria-keyshortcuts names it. */
export function newShortcut(t: TFunction): { words: string; aria: string } {
  return inBrowser()
    ? { words: t('keys.newInBrowser'), aria: 'Alt+N' }
    : { words: t('keys.newInApp'), aria: 'Control+N Alt+N' };
}
