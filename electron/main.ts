// The Electron app's main process (`npm run build:electron` builds it to dist/electron/main.mjs,
// package.json's main; `npm start` runs it where Electron's binary is installed). It holds the
// core: the app session (sync/host/session.ts) with its replica, tokens and scheduler, the sync
// itself in a worker thread. The window shows the renderer (dist/renderer/) from local files only,
// through the app:// protocol with a strict Content-Security-Policy, sandboxed and isolated; it
// reaches the core only through the preload's contract (./preload.ts, ./ipc.ts).
//
//   electron . [--user-data DIR] [--dev]
//
// better-sqlite3 is native: Electron runs another ABI than Node, so the app loads the build made
// for it (node_modules/.cache/vorort-electron/better_sqlite3.node, `npm run build:native-electron`;
// installed, resources/native/, see ./packaged.ts) in this thread and, through
// VORORT_SQLITE_BINDING, in the sync's worker threads.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  Notification,
  powerMonitor,
  protocol,
  safeStorage,
  screen,
  session as electronSessions,
  shell,
} from 'electron';
import {
  isLinkableAddress,
  type AppSettings,
  type AppState,
  type SchedulerState,
} from '../sync/contract';
import { contentTypeOf, rendererPolicy } from '../sync/host/renderer-files';
import { openHostSession, type HostSession } from '../sync/host/session';
import { defaultDemoWorkerUrl, sandboxDemo } from './demo';
import { bindSessionToIpc } from './ipc';
import { menuLanguage, menuTemplate, type MenuLanguage } from './menu';
import { APP_USER_MODEL_ID, createNotifier } from './notifications';
import { useSqliteBuild } from './native-sqlite';
import { outsideAsar, packagedBindingPath } from './packaged';
import { createQuit } from './quit';
import { safeStorageSecretStore } from './safe-storage';
import { exportSaver } from './save-dialog';
import { lockDown } from './window-guard';
import {
  createUpdates,
  readUpdateFeed,
  updateFilePlaces,
  type Updates,
  type UpdaterLike,
} from './updates';
import {
  MIN_HEIGHT,
  MIN_WIDTH,
  readWindowState,
  sanitizeWindowState,
  writeWindowState,
} from './window-state';

const APP_NAME = 'Vorort';
const SCHEME = 'app';
const HOST = 'vorort';
export const APP_ORIGIN = `${SCHEME}://${HOST}`;
const HERE = dirname(fileURLToPath(import.meta.url));

/** The page's policy: everything from the app itself, no inline scripts, no connections out. */
export const CONTENT_SECURITY_POLICY = rendererPolicy();

interface Arguments {
  userDataDir: string | null;
  development: boolean;
  /** Test hook: report that the window and the bridge work, then quit. */
  smoke: boolean;
}

function readArguments(argv: string[]): Arguments {
  const args: Arguments = {
    userDataDir: process.env.VORORT_USER_DATA || null,
    development: process.env.VORORT_DEV === '1',
    smoke: process.env.VORORT_SMOKE === '1',
  };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--user-data' && argv[index + 1]) args.userDataDir = argv[(index += 1)] ?? null;
    else if (arg?.startsWith('--user-data=')) args.userDataDir = arg.slice('--user-data='.length);
    else if (arg === '--dev') args.development = true;
  }
  return args;
}

// ---------------------------------------------------------------------------------------------
// Before the app is ready: name, folders, sandbox, the app:// scheme, one instance

const args = readArguments(process.argv.slice(1));
app.setName(APP_NAME);
// Windows shows notifications only for the AppUserModelID of the app's Start menu shortcut.
if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
if (args.userDataDir) app.setPath('userData', resolve(args.userDataDir));
const userDataDir = app.getPath('userData');
// Chromium's own caches apart from the replica and the settings.
app.setPath('sessionData', join(userDataDir, 'electron'));
app.enableSandbox();
protocol.registerSchemesAsPrivileged([
  {
    scheme: SCHEME,
    privileges: {
      standard: true,
      secure: true,
      supportFetchAPI: true,
      corsEnabled: true,
      codeCache: true,
    },
  },
]);

let mainWindow: BrowserWindow | null = null;
let hostSession: HostSession | null = null;
let updates: Updates | null = null;
/** The scheduler's last state: while it syncs, changes are being sent (no update installs). */
let scheduler: SchedulerState | null = null;
/** Quitting (./quit.ts): the windows hidden, the replica closed, then the exit. */
const quit = createQuit({
  windows: () => BrowserWindow.getAllWindows(),
  saveWindowState: () => saveWindowState(),
  stopUpdates: () => updates?.stop(),
  close: async () => {
    await hostSession?.close();
  },
  exit: (code) => app.exit(code),
  log: (text) => console.error(text),
});
/** New notifications from the service after a sync: an OS notification (./notifications.ts). */
const notifier = createNotifier({
  create: (options) => new Notification(options),
  isSupported: () => Notification.isSupported(),
  language: () => menuLanguage(app.getLocale()),
  onClick: () => showWindow(),
  log: (text) => console.warn(text),
});

if (!app.requestSingleInstanceLock()) {
  // Another Vorort runs with this folder: it shows its window (second-instance), this one goes.
  app.exit(0);
} else {
  app.on('second-instance', () => showWindow());
  app.on('web-contents-created', (_event, contents) => lockDown(contents, openInBrowser));
  app.on('before-quit', (event) => quit.beforeQuit(event));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin' || args.smoke) app.quit();
  });
  app.on('activate', () => {
    if (hostSession && BrowserWindow.getAllWindows().length === 0) void createWindow();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  app.whenReady().then(start, (error: unknown) => fail(error));
}

async function start(): Promise<void> {
  try {
    useSqliteBuild(
      app.getAppPath(),
      app.isPackaged ? packagedBindingPath(process.resourcesPath) : undefined,
      { packaged: app.isPackaged },
    );
    serveRenderer();
    const defaultSession = electronSessions.defaultSession;
    defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
      callback(false),
    );
    defaultSession.setPermissionCheckHandler(() => false);
    updates = await startUpdates();
    hostSession = await openHostSession({
      userDataDir,
      secrets: safeStorageSecretStore(join(userDataDir, 'secrets.safe'), safeStorage, {
        warn: (text) => console.warn(text),
      }),
      openExternal: (url) => openInBrowser(url),
      demo: sandboxDemo({ workerUrl: outsideAsar(defaultDemoWorkerUrl(import.meta.url)) }),
      workerUrl: outsideAsar(new URL('./sync-worker.mjs', import.meta.url)),
      // An export asks where to save it (the session answers the bytes only without this).
      saveFile: exportSaver<BrowserWindow>({
        dialog: {
          showSaveDialog: (window, options) =>
            window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options),
        },
        window: () => BrowserWindow.getFocusedWindow() ?? mainWindow,
        defaultFolders: () =>
          (['downloads', 'documents', 'home'] as const).flatMap((name) => {
            try {
              return [app.getPath(name)];
            } catch {
              return [];
            }
          }),
        language: () => dialogLanguage(),
      }),
      updates,
    });
    bindSessionToIpc({
      ipcMain,
      session: hostSession,
      appOrigin: APP_ORIGIN,
      windows: () => BrowserWindow.getAllWindows().map((window) => window.webContents),
    });
    hostSession.onEvent((event) => {
      notifier.notify(event);
      const state =
        event.type === 'sync.state'
          ? event.state
          : event.type === 'app.state'
            ? event.state.scheduler
            : undefined;
      if (state === undefined) return;
      scheduler = state;
      updates?.syncChanged();
    });
    watchTheSystem(hostSession);
    setMenu(menuLanguage(app.getLocale()));
    await createWindow();
  } catch (error) {
    fail(error);
  }
}

/** A failure before the window could work: said in a dialog (and on the console), then quit. */
function fail(error: unknown): void {
  const text = error instanceof Error ? error.message : String(error);
  console.error(`Vorort could not start: ${text}`);
  if (!args.smoke)
    dialog.showErrorBox(
      'Vorort',
      `Vorort konnte nicht starten.\nVorort could not start.\n\n${text}`,
    );
  quit.markClosed();
  app.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Updates (./updates.ts): only the installed app, only with the organisation's address

async function startUpdates(): Promise<Updates> {
  const feed = readUpdateFeed(
    updateFilePlaces({
      platform: process.platform,
      env: process.env,
      resourcesPath: app.isPackaged ? process.resourcesPath : null,
      userDataDir,
    }),
  );
  let updater: UpdaterLike | null = null;
  let problem = feed.problem;
  if (app.isPackaged && feed.url) {
    try {
      // Loaded only when used: it reads the installed app's files as it loads.
      const { default: electronUpdater } = await import('electron-updater');
      updater = electronUpdater.autoUpdater as unknown as UpdaterLike;
    } catch (error) {
      // The app works without updates; it says why they are off.
      problem = `electron-updater: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return createUpdates({
    updater,
    feedUrl: updater ? feed.url : null,
    feedProblem: problem,
    sending: () => scheduler?.phase === 'syncing',
    // The replica closes as on any quit; electron-updater then quits the app into the installer.
    beforeInstall: async () => {
      saveWindowState();
      await hostSession?.close();
    },
    log: (text) => console.warn(`Vorort: ${text}`),
  });
}

// ---------------------------------------------------------------------------------------------
// The renderer from local files: app://vorort/...

function rendererRoot(): string {
  return resolve(HERE, '..', 'renderer');
}

function serveRenderer(): void {
  const root = rendererRoot();
  electronSessions.defaultSession.protocol.handle(SCHEME, async (request) => {
    const answer = (status: number, body: string | Buffer, type: string, extra = {}) =>
      new Response(body as BodyInit, {
        status,
        headers: {
          'Content-Type': type,
          'Content-Security-Policy': CONTENT_SECURITY_POLICY,
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'no-referrer',
          ...extra,
        },
      });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return answer(400, 'Bad request', 'text/plain; charset=utf-8');
    }
    if (url.host !== HOST || request.method !== 'GET')
      return answer(404, 'Not found', 'text/plain; charset=utf-8');
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return answer(400, 'Bad path', 'text/plain; charset=utf-8');
    }
    const relative = pathname === '/' ? 'index.html' : normalize(pathname).replace(/^[/\\]+/, '');
    const file = resolve(root, relative);
    if (pathname.includes('\0') || !file.startsWith(root + sep))
      return answer(404, 'Not found', 'text/plain; charset=utf-8');
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
      const isIndex = file === join(root, 'index.html');
      return answer(200, readFileSync(file), contentTypeOf(file), {
        'Cache-Control': isIndex ? 'no-store' : 'no-cache',
      });
    } catch {
      const built = existsSync(join(root, 'index.html'));
      return answer(
        404,
        built
          ? `Not found: ${pathname}`
          : 'The app is not built: run npm run build:renderer.\nDie App ist nicht gebaut: npm run build:renderer ausführen.',
        'text/plain; charset=utf-8',
      );
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The window

async function createWindow(): Promise<void> {
  const stateFile = join(userDataDir, 'window-state.json');
  const state = sanitizeWindowState(
    readWindowState(stateFile),
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...(state.x === undefined ? {} : { x: state.x, y: state.y }),
    width: state.width,
    height: state.height,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    show: false,
    title: APP_NAME,
    autoHideMenuBar: false,
    webPreferences: {
      preload: join(HERE, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // Middle clicks open no window either (the open handler refuses them too).
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
      devTools: args.development,
    },
  });
  mainWindow = window;
  window.once('ready-to-show', () => {
    if (state.maximized) window.maximize();
    if (!args.smoke) window.show();
  });
  window.on('close', () => saveWindowState());
  // Windows' log-off or shutdown: no before-quit comes, the process ends soon after.
  window.on('session-end', () => void quit.sessionEnd());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  if (args.smoke) window.webContents.once('did-finish-load', () => void smokeReport(window));
  await window.loadURL(`${APP_ORIGIN}/index.html`);
}

function saveWindowState(): void {
  const window = mainWindow;
  if (!window || window.isDestroyed()) return;
  const bounds = window.getNormalBounds();
  try {
    writeWindowState(join(userDataDir, 'window-state.json'), {
      ...bounds,
      maximized: window.isMaximized(),
    });
  } catch {
    // A read-only folder: the window opens at its default next time.
  }
}

function showWindow(): void {
  const window = mainWindow;
  if (!window) {
    if (hostSession) void createWindow();
    return;
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** The test hook (test/electron-smoke.test.ts): what the page sees of the bridge, then quit. */
async function smokeReport(window: BrowserWindow): Promise<void> {
  let report: unknown;
  try {
    report = await window.webContents.executeJavaScript(
      `(async () => ({
        keys: Object.keys(window.vorort ?? {}).sort(),
        node: typeof require !== 'undefined' || typeof process !== 'undefined',
        state: await window.vorort.invoke('app.state', {}),
        evalBlocked: (() => { try { eval('1'); return false; } catch { return true; } })(),
      }))()`,
    );
  } catch (error) {
    report = { error: error instanceof Error ? error.message : String(error) };
  }
  process.stdout.write(`VORORT_SMOKE ${JSON.stringify(report)}\n`);
  app.quit();
}

// ---------------------------------------------------------------------------------------------
// Menus, notifications, the OS's network and sleep

function setMenu(language: MenuLanguage): void {
  const template = menuTemplate(
    { language, platform: process.platform, development: args.development, appName: APP_NAME },
    {
      syncNow: () => void hostSession?.call('sync.now', {}, { transport: 'local' }),
      signOut: () => void signOutAsked(language),
      about: () =>
        void dialog.showMessageBox({
          type: 'info',
          title: APP_NAME,
          message: `${APP_NAME} ${app.getVersion()}`,
          detail:
            language === 'de'
              ? 'Offline-fähiger Client für die Organisationsverwaltung von Hilfsorganisationen.'
              : 'Offline-first client for the organisation service of relief organisations.',
        }),
    },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

/** "Sign out" from the menu: says what would be lost and offers to keep or delete the local data. */
async function signOutAsked(language: MenuLanguage): Promise<void> {
  const session = hostSession;
  if (!session) return;
  const state = await session.call('app.state', {}, { transport: 'local' });
  if (!state.ok || (state.value as AppState).phase !== 'signed-in') return;
  const loss = await session.call('account.pendingLoss', {}, { transport: 'local' });
  const { pending, parked } = loss.ok
    ? (loss.value as { pending: number; parked: number })
    : { pending: 0, parked: 0 };
  const unsent = pending + parked;
  const de = language === 'de';
  const options = {
    type: 'question' as const,
    title: APP_NAME,
    message: de ? 'Abmelden?' : 'Sign out?',
    detail:
      unsent > 0
        ? de
          ? `${unsent} Änderungen sind noch nicht beim Dienst angekommen. Beim Abmelden bleiben sie erhalten, solange die lokalen Daten nicht gelöscht werden.`
          : `${unsent} changes have not reached the service yet. They are kept when signing out, unless the local data is deleted.`
        : de
          ? 'Alle Änderungen sind beim Dienst angekommen.'
          : 'All changes have reached the service.',
    buttons: de
      ? ['Abmelden', 'Abmelden und lokale Daten löschen', 'Abbrechen']
      : ['Sign out', 'Sign out and delete the local data', 'Cancel'],
    defaultId: 0,
    cancelId: 2,
  };
  const answer = mainWindow
    ? await dialog.showMessageBox(mainWindow, options)
    : await dialog.showMessageBox(options);
  if (answer.response === 2) return;
  await session.call(
    'account.logout',
    { deleteLocalData: answer.response === 1 },
    { transport: 'local' },
  );
}

/** The app's language (its setting, else the system's), for the dialogs the core asks for. */
async function dialogLanguage(): Promise<MenuLanguage> {
  const settings = await hostSession?.call('settings.get', {}, { transport: 'local' });
  const chosen = settings?.ok ? (settings.value as AppSettings).language : null;
  return chosen ?? menuLanguage(app.getLocale());
}

/** The OS's network state (polled: the main process has no event for it) and sleep/wake. */
function watchTheSystem(session: HostSession): void {
  let online = net.isOnline();
  session.networkChanged(online);
  const timer = setInterval(() => {
    const now = net.isOnline();
    if (now === online) return;
    online = now;
    session.networkChanged(now);
  }, 3_000);
  timer.unref();
  powerMonitor.on('suspend', () => session.suspended());
  powerMonitor.on('resume', () => session.resumed());
  // Linux's and macOS's shutdown: the replica closed as on a quit.
  powerMonitor.on('shutdown', () => void quit.sessionEnd());
}

/** The login page in the system browser (https, or http on loopback only). */
async function openInBrowser(url: string): Promise<void> {
  if (!isLinkableAddress(url))
    throw new Error('Refusing to open an address that is neither https nor on this computer');
  await shell.openExternal(url);
}
