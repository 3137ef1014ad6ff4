// The native menus in German (the default) or English by the system's language, with the
// usual roles and shortcuts, "Jetzt synchronisieren"/"Sync now" (Ctrl/Cmd+Shift+S and F5:
// Ctrl/Cmd+R is reload in Chromium, which a release build does not offer) and
// "Abmelden"/"Sign out". A template of plain data: tested in Node.
import type { MenuItemConstructorOptions } from 'electron';

export type MenuLanguage = 'de' | 'en';

export interface MenuActions {
  syncNow(): void;
  signOut(): void;
  about(): void;
}

export interface MenuOptions {
  language: MenuLanguage;
  platform: NodeJS.Platform;
  /** Development: reload and the developer tools in the View menu. */
  development: boolean;
  appName: string;
}

/** German for a German system (de, de-AT, de-CH, ...), English otherwise. */
export function menuLanguage(locale: string): MenuLanguage {
  return /^de\b/i.test(locale) ? 'de' : 'en';
}

const WORDS = {
  de: {
    file: 'Datei',
    syncNow: 'Jetzt synchronisieren',
    signOut: 'Abmelden …',
    quit: 'Beenden',
    close: 'Fenster schließen',
    edit: 'Bearbeiten',
    undo: 'Rückgängig',
    redo: 'Wiederholen',
    cut: 'Ausschneiden',
    copy: 'Kopieren',
    paste: 'Einfügen',
    selectAll: 'Alles auswählen',
    view: 'Ansicht',
    reload: 'Neu laden',
    devTools: 'Entwicklerwerkzeuge',
    resetZoom: 'Originalgröße',
    zoomIn: 'Vergrößern',
    zoomOut: 'Verkleinern',
    fullScreen: 'Vollbild',
    window: 'Fenster',
    minimize: 'Minimieren',
    zoom: 'Zoomen',
    front: 'Alle nach vorne bringen',
    help: 'Hilfe',
    about: (app: string) => `Über ${app}`,
    hide: (app: string) => `${app} ausblenden`,
    hideOthers: 'Andere ausblenden',
    unhide: 'Alle einblenden',
    services: 'Dienste',
  },
  en: {
    file: 'File',
    syncNow: 'Sync now',
    signOut: 'Sign out…',
    quit: 'Quit',
    close: 'Close window',
    edit: 'Edit',
    undo: 'Undo',
    redo: 'Redo',
    cut: 'Cut',
    copy: 'Copy',
    paste: 'Paste',
    selectAll: 'Select all',
    view: 'View',
    reload: 'Reload',
    devTools: 'Developer tools',
    resetZoom: 'Actual size',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    fullScreen: 'Full screen',
    window: 'Window',
    minimize: 'Minimise',
    zoom: 'Zoom',
    front: 'Bring all to front',
    help: 'Help',
    about: (app: string) => `About ${app}`,
    hide: (app: string) => `Hide ${app}`,
    hideOthers: 'Hide others',
    unhide: 'Show all',
    services: 'Services',
  },
} as const;

export function menuTemplate(
  options: MenuOptions,
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const words = WORDS[options.language];
  const mac = options.platform === 'darwin';
  const sync: MenuItemConstructorOptions[] = [
    {
      id: 'sync-now',
      label: words.syncNow,
      accelerator: 'CmdOrCtrl+Shift+S',
      click: () => actions.syncNow(),
    },
    // F5 as a second key for the same (an item of its own, hidden: a menu shows one accelerator).
    {
      id: 'sync-now-f5',
      label: words.syncNow,
      accelerator: 'F5',
      visible: false,
      acceleratorWorksWhenHidden: true,
      click: () => actions.syncNow(),
    },
    { type: 'separator' },
    { id: 'sign-out', label: words.signOut, click: () => actions.signOut() },
  ];
  const appMenu: MenuItemConstructorOptions = {
    label: options.appName,
    submenu: [
      { label: words.about(options.appName), click: () => actions.about() },
      { type: 'separator' },
      { role: 'services', label: words.services },
      { type: 'separator' },
      { role: 'hide', label: words.hide(options.appName) },
      { role: 'hideOthers', label: words.hideOthers },
      { role: 'unhide', label: words.unhide },
      { type: 'separator' },
      { role: 'quit', label: `${words.quit} ${options.appName}` },
    ],
  };
  const file: MenuItemConstructorOptions = {
    label: words.file,
    submenu: mac
      ? [...sync, { type: 'separator' }, { role: 'close', label: words.close }]
      : [
          ...sync,
          { type: 'separator' },
          { role: 'quit', label: words.quit, accelerator: 'Ctrl+Q' },
        ],
  };
  const edit: MenuItemConstructorOptions = {
    label: words.edit,
    submenu: [
      { role: 'undo', label: words.undo },
      { role: 'redo', label: words.redo },
      { type: 'separator' },
      { role: 'cut', label: words.cut },
      { role: 'copy', label: words.copy },
      { role: 'paste', label: words.paste },
      { role: 'selectAll', label: words.selectAll },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: words.view,
    submenu: [
      ...(options.development
        ? ([
            { role: 'reload', label: words.reload },
            { role: 'toggleDevTools', label: words.devTools },
            { type: 'separator' },
          ] satisfies MenuItemConstructorOptions[])
        : []),
      { role: 'resetZoom', label: words.resetZoom },
      { role: 'zoomIn', label: words.zoomIn },
      { role: 'zoomOut', label: words.zoomOut },
      { type: 'separator' },
      { role: 'togglefullscreen', label: words.fullScreen },
    ],
  };
  const window: MenuItemConstructorOptions = {
    label: words.window,
    submenu: mac
      ? [
          { role: 'minimize', label: words.minimize },
          { role: 'zoom', label: words.zoom },
          { type: 'separator' },
          { role: 'front', label: words.front },
        ]
      : [
          { role: 'minimize', label: words.minimize },
          { role: 'close', label: words.close },
        ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    label: words.help,
    submenu: [{ label: words.about(options.appName), click: () => actions.about() }],
  };
  return [...(mac ? [appMenu] : []), file, edit, view, window, ...(mac ? [] : [help])];
}
