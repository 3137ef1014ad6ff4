// A stand-in for the `electron` module, for test/host/electron-main.test.ts: the built
// dist/electron/main.mjs runs in plain Node with it (Electron's binary cannot be downloaded on the
// build machines). It models only what main.mjs uses, with the rules of Electron's that the host
// could break (the sandbox and privileged schemes before `ready`, sessions and windows only after
// it, before-quit preventable, web-contents-created for every window, one handler per IPC channel,
// safeStorage under Linux's basic_text unavailable until setUsePlainTextEncryption(true)); any
// other member throws. The test drives it over the child process's IPC channel (it is forked):
// requests to the app:// handler, IPC invocations from frames it makes up, navigation, quit.
// What must outlive the process (the windows hidden, the exit code) goes to a journal file
// (VORORT_STAND_IN_JOURNAL), written synchronously. Bundled by the test into an .mjs beside
// electron-stand-in-hooks.mjs, which maps the specifier `electron` here.
import { EventEmitter } from 'node:events';
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Handler = (...args: never[]) => unknown;

const journalFile = process.env.VORORT_STAND_IN_JOURNAL;
function journal(entry: Record<string, unknown>): void {
  if (journalFile) appendFileSync(journalFile, `${JSON.stringify(entry)}\n`);
}

/** What main.mjs touched that the stand-in does not model (also thrown at the place). */
const unexpected: string[] = [];

/** The object, throwing on any member it does not have: main.mjs uses nothing unmodelled. */
function strict<T extends object>(name: string, target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'symbol' || key in object) return Reflect.get(object, key, receiver);
      // Asked by await and JSON of any object: not a use of Electron.
      if (key === 'then' || key === 'toJSON') return undefined;
      unexpected.push(`${name}.${key}`);
      journal({ kind: 'unexpected', what: `${name}.${key}` });
      throw new Error(`electron stand-in: ${name}.${key} is not modelled`);
    },
  });
}

function preventable<T extends object>(extra: T = {} as T) {
  const event = {
    ...extra,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

// ---------------------------------------------------------------------------------------------
// app

let ready = false;
const appEvents = new EventEmitter();
const paths = new Map<string, string>();
const calls = {
  name: '',
  sandbox: false,
  singleInstanceLock: false,
  schemes: [] as unknown[],
  menu: null as unknown,
  opened: [] as string[],
  notifications: [] as unknown[],
  errorBoxes: [] as string[],
};

function notReadyYet(what: string): void {
  if (ready) throw new Error(`electron stand-in: ${what} can be called only before app is ready`);
}
function readyAlready(what: string): void {
  if (!ready) throw new Error(`electron stand-in: ${what} cannot be used before app is ready`);
}

const whenReady = new Promise<void>((resolve) => {
  // Electron is ready after the main script ran: main.mjs's module body is synchronous.
  setImmediate(() => {
    ready = true;
    journal({ kind: 'ready' });
    appEvents.emit('ready');
    resolve();
  });
});

function exit(code: number): never {
  journal({ kind: 'app.exit', code });
  process.exit(code);
}

export const app = strict('app', {
  isPackaged: false,
  setName(name: string) {
    calls.name = name;
  },
  setAppUserModelId(_id: string) {},
  getName: () => calls.name,
  getVersion: () =>
    (
      JSON.parse(readFileSync(join(app.getAppPath(), 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version,
  getLocale: () => 'de',
  getAppPath() {
    const path = process.env.VORORT_STAND_IN_APP_PATH;
    if (!path) throw new Error('electron stand-in: VORORT_STAND_IN_APP_PATH is not set');
    return path;
  },
  setPath(name: string, path: string) {
    paths.set(name, path);
  },
  getPath(name: string) {
    const path = paths.get(name);
    // Electron answers a default; the test sets every folder the host may use (--user-data).
    if (!path) throw new Error(`electron stand-in: no path for '${name}'`);
    return path;
  },
  enableSandbox() {
    notReadyYet('app.enableSandbox');
    calls.sandbox = true;
  },
  /** Held by another instance when the test says so (VORORT_STAND_IN_LOCK=held). */
  requestSingleInstanceLock() {
    calls.singleInstanceLock = true;
    return process.env.VORORT_STAND_IN_LOCK !== 'held';
  },
  whenReady: () => whenReady,
  isReady: () => ready,
  on(event: string, listener: Handler) {
    appEvents.on(event, listener as never);
    return app;
  },
  once(event: string, listener: Handler) {
    appEvents.once(event, listener as never);
    return app;
  },
  /** As Electron's: before-quit (preventable), the windows closed, will-quit, quit, the exit. */
  quit() {
    journal({ kind: 'app.quit' });
    const beforeQuit = preventable();
    appEvents.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    for (const window of StandInWindow.getAllWindows()) window.close();
    if (StandInWindow.getAllWindows().length > 0) return;
    const willQuit = preventable();
    appEvents.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return;
    appEvents.emit('quit', preventable(), 0);
    exit(0);
  },
  exit(code = 0) {
    exit(code);
  },
});

// ---------------------------------------------------------------------------------------------
// protocol, session

type ProtocolHandler = (request: Request) => Response | Promise<Response>;
const protocolHandlers = new Map<string, ProtocolHandler>();
const permissions: { request: Handler | null; check: Handler | null } = {
  request: null,
  check: null,
};

export const protocol = strict('protocol', {
  registerSchemesAsPrivileged(schemes: unknown[]) {
    notReadyYet('protocol.registerSchemesAsPrivileged');
    calls.schemes.push(...schemes);
  },
  handle(scheme: string, handler: ProtocolHandler) {
    readyAlready('protocol.handle');
    if (protocolHandlers.has(scheme))
      throw new Error(`electron stand-in: the scheme ${scheme} is already handled`);
    protocolHandlers.set(scheme, handler);
  },
});

const defaultSession = strict('session.defaultSession', {
  protocol,
  setPermissionRequestHandler(handler: Handler | null) {
    permissions.request = handler;
  },
  setPermissionCheckHandler(handler: Handler | null) {
    permissions.check = handler;
  },
});

export const session = strict('session', {
  get defaultSession() {
    readyAlready('session.defaultSession');
    return defaultSession;
  },
});

// ---------------------------------------------------------------------------------------------
// Windows and their web contents

let nextId = 1;

class StandInWebContents extends EventEmitter {
  readonly id = nextId++;
  destroyed = false;
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  /** What went to the page: the channel and the event's type. */
  sent: { channel: string; type: string | null }[] = [];
  constructor() {
    super();
    return strict('webContents', this);
  }
  isDestroyed() {
    return this.destroyed;
  }
  setWindowOpenHandler(handler: StandInWebContents['openHandler']) {
    this.openHandler = handler;
  }
  send(channel: string, payload: { event?: { type?: string } }) {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.sent.push({ channel, type: payload?.event?.type ?? null });
  }
}

const windows: StandInWindow[] = [];

class StandInWindow extends EventEmitter {
  static getAllWindows(): StandInWindow[] {
    return windows.filter((window) => !window.destroyed);
  }
  static getFocusedWindow(): StandInWindow | null {
    return null;
  }
  readonly webContents: StandInWebContents;
  readonly options: Record<string, unknown>;
  destroyed = false;
  visible = false;
  /** Each loadURL and how the scheme's handler answered it. */
  loads: { url: string; status: number }[] = [];
  constructor(options: Record<string, unknown>) {
    readyAlready('new BrowserWindow');
    super();
    this.options = options;
    this.webContents = new StandInWebContents();
    const window = strict('BrowserWindow', this);
    windows.push(window);
    appEvents.emit('web-contents-created', preventable(), this.webContents);
    return window;
  }
  async loadURL(url: string): Promise<void> {
    const handler = protocolHandlers.get(new URL(url).protocol.slice(0, -1));
    if (!handler) throw new Error(`ERR_UNKNOWN_URL_SCHEME (-302) loading '${url}'`);
    const response = await handler(new Request(url));
    await response.arrayBuffer();
    this.loads.push({ url, status: response.status });
    this.webContents.emit('did-finish-load', preventable());
    this.emit('ready-to-show', preventable());
  }
  isDestroyed() {
    return this.destroyed;
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
    journal({ kind: 'window.hide', id: this.webContents.id });
  }
  focus() {}
  maximize() {}
  restore() {}
  isMaximized() {
    return false;
  }
  isMinimized() {
    return false;
  }
  getNormalBounds() {
    const { x = 0, y = 0, width = 800, height = 600 } = this.options as Record<string, number>;
    return { x, y, width, height };
  }
  close() {
    const event = preventable();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
    if (StandInWindow.getAllWindows().length === 0) appEvents.emit('window-all-closed');
  }
}

export const BrowserWindow = strict('BrowserWindow', StandInWindow);

// ---------------------------------------------------------------------------------------------
// IPC, dialogs, menus, notifications, the system

const ipcHandlers = new Map<string, Handler>();

export const ipcMain = strict('ipcMain', {
  handle(channel: string, listener: Handler) {
    if (ipcHandlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcHandlers.set(channel, listener);
  },
  removeHandler(channel: string) {
    ipcHandlers.delete(channel);
  },
});

export const dialog = strict('dialog', {
  showErrorBox(title: string, content: string) {
    calls.errorBoxes.push(content);
    journal({ kind: 'dialog.showErrorBox', title, content });
    console.error(`electron stand-in: error box: ${content}`);
  },
  async showSaveDialog() {
    return { canceled: true };
  },
  async showMessageBox(...args: unknown[]) {
    const options = args.at(-1) as { cancelId?: number };
    return { response: options.cancelId ?? 0, checkboxChecked: false };
  },
});

export const Menu = strict('Menu', {
  buildFromTemplate: (template: unknown[]) => strict('Menu', { items: template }),
  setApplicationMenu(menu: unknown) {
    calls.menu = menu;
  },
});

class StandInNotification extends EventEmitter {
  static isSupported() {
    return true;
  }
  readonly options: unknown;
  constructor(options: unknown) {
    super();
    this.options = options;
    return strict('Notification', this);
  }
  show() {
    calls.notifications.push(this.options);
  }
}
export const Notification = strict('Notification', StandInNotification);

export const shell = strict('shell', {
  async openExternal(url: string) {
    calls.opened.push(url);
  },
});

export const net = strict('net', { isOnline: () => true });

export const screen = strict('screen', {
  getAllDisplays: () => {
    readyAlready('screen');
    return [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }];
  },
});

const powerEvents = new EventEmitter();
export const powerMonitor = strict('powerMonitor', {
  on(event: string, listener: Handler) {
    powerEvents.on(event, listener as never);
    return powerMonitor;
  },
});

/** Linux's backend: basic_text (no key store, as on the build machines) unless told another. */
const backend = process.env.VORORT_STAND_IN_KEY_STORE ?? 'basic_text';
let plainText = false;
const encryptionAvailable = () =>
  process.platform !== 'linux' || backend !== 'basic_text' || plainText;
const MARK = Buffer.from('v10');

export const safeStorage = strict('safeStorage', {
  isEncryptionAvailable: () => ready && encryptionAvailable(),
  getSelectedStorageBackend: () => (ready ? backend : 'unknown'),
  setUsePlainTextEncryption(value: boolean) {
    plainText = value;
    journal({ kind: 'safeStorage.setUsePlainTextEncryption', value });
  },
  encryptString(text: string) {
    if (!ready || !encryptionAvailable())
      throw new Error('Error while encrypting the text provided to safeStorage.encryptString.');
    // Not encryption: a reversible scrambling, so that the plain text is not in the file.
    return Buffer.concat([MARK, Buffer.from(text, 'utf8').map((byte) => byte ^ 0x5a)]);
  },
  decryptString(encrypted: Buffer) {
    if (!encrypted.subarray(0, MARK.length).equals(MARK))
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
      );
    return Buffer.from(encrypted.subarray(MARK.length).map((byte) => byte ^ 0x5a)).toString('utf8');
  },
});

// ---------------------------------------------------------------------------------------------
// The test's side: commands over the child process's IPC channel

export interface FrameSpec {
  url: string;
  /** The parent frame's URL: the sender is a frame inside the page. */
  parent?: string;
}

export type Command =
  | { op: 'state' }
  | { op: 'fetch'; url: string; method?: string }
  | {
      op: 'invoke';
      message: unknown;
      /** The window's web contents, or one that is not a window of the app's. */
      sender: 'window' | 'stranger';
      frame: FrameSpec | null;
    }
  | {
      op: 'navigate';
      event: 'will-navigate' | 'will-redirect' | 'will-attach-webview';
      url: string;
    }
  | { op: 'open'; url: string }
  | { op: 'permission'; permission: string }
  /** Windows' log-off or shutdown: the window's session-end, no before-quit. */
  | { op: 'session-end' }
  | { op: 'quit' };

function mainWindow(): StandInWindow {
  const window = StandInWindow.getAllWindows()[0];
  if (!window) throw new Error('electron stand-in: there is no window');
  return window;
}

/** Node's native modules loaded in this thread (better-sqlite3's build, for the test). */
function nativeModules(): string[] {
  return Object.keys(createRequire(import.meta.url).cache).filter((id) => id.endsWith('.node'));
}

async function run(command: Command): Promise<unknown> {
  switch (command.op) {
    case 'state':
      return {
        ready,
        ...calls,
        paths: Object.fromEntries(paths),
        appEvents: appEvents.eventNames(),
        powerEvents: powerEvents.eventNames(),
        protocolHandlers: [...protocolHandlers.keys()],
        ipcHandlers: [...ipcHandlers.keys()],
        permissionHandlers: { request: !!permissions.request, check: !!permissions.check },
        windows: windows.map((window) => ({
          options: window.options,
          visible: window.visible,
          destroyed: window.destroyed,
          loads: window.loads,
          webContents: {
            id: window.webContents.id,
            openHandler: !!window.webContents.openHandler,
            events: window.webContents.eventNames(),
            sent: window.webContents.sent,
          },
        })),
        nativeModules: nativeModules(),
        unexpected,
      };
    case 'fetch': {
      const handler = protocolHandlers.get(new URL(command.url).protocol.slice(0, -1));
      if (!handler) throw new Error(`no handler for ${command.url}`);
      const response = await handler(new Request(command.url, { method: command.method ?? 'GET' }));
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      };
    }
    case 'invoke': {
      const listener = ipcHandlers.get('vorort:call');
      if (!listener) throw new Error('nothing handles vorort:call');
      const frame = command.frame;
      const event = strict('IpcMainInvokeEvent', {
        sender: command.sender === 'window' ? mainWindow().webContents : { id: 9_999 },
        senderFrame: frame
          ? {
              url: frame.url,
              parent: frame.parent ? { url: frame.parent, parent: null } : null,
            }
          : null,
      });
      // Electron passes the answer through a structured clone: JSON is enough for the test.
      const answer = await (listener as (event: unknown, message: unknown) => unknown)(
        event,
        command.message,
      );
      return JSON.parse(JSON.stringify(answer)) as unknown;
    }
    case 'navigate': {
      const event = preventable({ url: command.url });
      mainWindow().webContents.emit(command.event, event, command.url);
      return { prevented: event.defaultPrevented };
    }
    case 'open': {
      const handler = mainWindow().webContents.openHandler;
      if (!handler) throw new Error('no window open handler');
      const before = calls.opened.length;
      const result = handler({ url: command.url });
      await new Promise((resolve) => setImmediate(resolve));
      return { action: result.action, opened: calls.opened.slice(before) };
    }
    case 'permission': {
      const contents = mainWindow().webContents;
      let granted: boolean | null = null;
      (permissions.request as (...args: unknown[]) => void)(
        contents,
        command.permission,
        (answer: boolean) => (granted = answer),
        {},
      );
      const checked = (permissions.check as (...args: unknown[]) => boolean)(
        contents,
        command.permission,
        'app://vorort',
        {},
      );
      return { granted, checked };
    }
    case 'session-end':
      // After the answer went (and for quit below): the exit would cut it off.
      setTimeout(() => mainWindow().emit('session-end', preventable()), 50);
      return true;
    case 'quit':
      setTimeout(() => app.quit(), 50);
      return true;
  }
}

if (process.send) {
  process.on('message', (message: { id: number; command: Command }) => {
    run(message.command).then(
      (value) => process.send?.({ id: message.id, ok: true, value }),
      (error: unknown) =>
        process.send?.({
          id: message.id,
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
}
