// The installed app's updates (issue 24): electron-updater with a generic server whose address
// the organisation sets, never built in. Off when none is set. With one, the app asks the server
// in the background (a minute after the start, then every few hours), downloads a newer version
// in the background (progress as `updates.state` events) and installs it on a restart only when
// the person agrees (`updates.install`), and never while changes are being sent to the service:
// then it waits until they have arrived.
//
// Where the address comes from, the first of these files that exists (JSON: {"url": "https://…"}):
//   1. placed by IT for the whole computer: %ProgramData%\Vorort\update.json (Windows),
//      /Library/Application Support/Vorort/update.json (macOS), /etc/vorort/update.json (Linux);
//   2. built into an organisation's own installers: resources/update.json (extraResources);
//   3. the user's: update.json in the user data folder.
// https only (plain http on this computer, for a test server).
//
// Plain Node: electron-updater's autoUpdater comes in as an UpdaterLike, the sync's state as
// `sending`; electron/updates.test.ts drives the decisions with a stand-in.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLoopbackHostname, UPDATE_OFF, type UpdateState } from '../sync/contract';

export const UPDATE_FILE = 'update.json';
/** The first check after the start, then between checks. */
export const FIRST_CHECK_MS = 60_000;
export const CHECK_EVERY_MS = 4 * 60 * 60_000;

/** The part of electron-updater's AppUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  // electron-updater's events carry different arguments each (checked where they are heard).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface UpdatesOptions {
  /** Null where there is nothing to update (run from the sources): off. */
  updater: UpdaterLike | null;
  /** The organisation's update address (readUpdateFeed), or null: off. */
  feedUrl: string | null;
  /** Why the organisation's address is not used (an unreadable file): said in the state. */
  feedProblem?: string | null;
  /** Whether changes are being sent to the service now (a sync runs). */
  sending(): boolean;
  /** Before the app quits to install: the session closes (the replica, the scheduler). */
  beforeInstall(): Promise<void>;
  timers?: Timers;
  now?: () => Date;
  firstCheckMs?: number;
  checkEveryMs?: number;
  log?: (text: string) => void;
}

export interface Updates {
  state(): UpdateState;
  check(): Promise<UpdateState>;
  install(): Promise<UpdateState>;
  /** The sync's state changed: an agreed install waiting for the sending to end may go on. */
  syncChanged(): void;
  onChange(listener: (state: UpdateState) => void): () => void;
  stop(): void;
}

/** An update address the app accepts: https, or plain http on this computer only. */
export function updateFeedUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHostname(url.hostname)))
    return url.href;
  return null;
}

/** Where update.json is looked for, in order (see the file's header). */
export function updateFilePlaces(where: {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  resourcesPath: string | null;
  userDataDir: string;
}): string[] {
  const machine =
    where.platform === 'win32'
      ? join(where.env.ProgramData || 'C:\\ProgramData', 'Vorort', UPDATE_FILE)
      : where.platform === 'darwin'
        ? join('/Library/Application Support/Vorort', UPDATE_FILE)
        : join('/etc/vorort', UPDATE_FILE);
  return [
    machine,
    ...(where.resourcesPath ? [join(where.resourcesPath, UPDATE_FILE)] : []),
    join(where.userDataDir, UPDATE_FILE),
  ];
}

/**
 * The organisation's update address from the first update.json that exists; a file that exists
 * but says no usable address turns updates off, saying why (a later file does not override it).
 */
export function readUpdateFeed(places: string[]): { url: string | null; problem: string | null } {
  for (const place of places) {
    if (!existsSync(place)) continue;
    let url: string | null = null;
    try {
      url = updateFeedUrl((JSON.parse(readFileSync(place, 'utf8')) as { url?: unknown }).url);
    } catch {
      return { url: null, problem: `${place} is not JSON ({"url": "https://…"})` };
    }
    if (!url)
      return { url: null, problem: `${place} names no https address ({"url": "https://…"})` };
    return { url, problem: null };
  }
  return { url: null, problem: null };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createUpdates(options: UpdatesOptions): Updates {
  const timers: Timers = options.timers ?? {
    setTimeout: (run, ms) => {
      const handle = setTimeout(run, ms);
      handle.unref();
      return handle;
    },
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const listeners = new Set<(state: UpdateState) => void>();
  const updater = options.feedUrl ? options.updater : null;
  let state: UpdateState = updater
    ? { ...UPDATE_OFF, phase: 'idle' }
    : { ...UPDATE_OFF, error: options.feedProblem ?? null };
  let timer: unknown = null;
  let stopped = false;

  function set(change: Partial<UpdateState>): void {
    state = { ...state, ...change };
    for (const listener of listeners) listener(state);
  }

  function schedule(ms: number): void {
    if (stopped || !updater) return;
    if (timer !== null) timers.clearTimeout(timer);
    timer = timers.setTimeout(() => {
      timer = null;
      void check().finally(() => schedule(options.checkEveryMs ?? CHECK_EVERY_MS));
    }, ms);
  }

  async function check(): Promise<UpdateState> {
    // Once one is found it downloads and waits for the person: no second check meanwhile.
    if (
      !updater ||
      stopped ||
      ['checking', 'downloading', 'ready', 'installing'].includes(state.phase)
    )
      return state;
    set({ phase: 'checking', error: null });
    try {
      await updater.checkForUpdates();
    } catch (error) {
      set({ phase: 'failed', error: messageOf(error), checkedAt: now().toISOString() });
    }
    return state;
  }

  /** Installs once the person agreed, an update is ready and nothing is being sent. */
  async function installWhenFree(): Promise<void> {
    if (!updater || state.phase !== 'ready' || !state.waitingForSync) return;
    if (options.sending()) return; // syncChanged() comes back here when the sending ended
    set({ phase: 'installing', waitingForSync: false });
    stopped = true;
    if (timer !== null) timers.clearTimeout(timer);
    try {
      await options.beforeInstall();
    } finally {
      log(`installing Vorort ${state.version} and restarting`);
      // Not silent (the installer shows its progress), and the app starts again after it.
      updater.quitAndInstall(false, true);
    }
  }

  if (updater) {
    updater.setFeedURL({ provider: 'generic', url: options.feedUrl! });
    // Downloads in the background, but installs only when the person agrees: never on a quit.
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = false;
    updater.on('checking-for-update', () => set({ phase: 'checking', error: null }));
    updater.on('update-not-available', () =>
      set({ phase: 'idle', version: null, percent: null, checkedAt: now().toISOString() }),
    );
    updater.on('update-available', (info: { version: string }) =>
      set({
        phase: 'downloading',
        version: info.version,
        percent: 0,
        checkedAt: now().toISOString(),
      }),
    );
    updater.on('download-progress', (progress: { percent: number }) => {
      const percent = Math.max(0, Math.min(100, Math.floor(progress.percent)));
      // One event a percent, not one a chunk.
      if (state.phase === 'downloading' && percent !== state.percent) set({ percent });
    });
    updater.on('update-downloaded', (info: { version: string }) =>
      set({ phase: 'ready', version: info.version, percent: 100 }),
    );
    updater.on('error', (error: Error) => {
      if (state.phase === 'installing') return;
      set({ phase: 'failed', error: messageOf(error), percent: null });
    });
    log(`updates from ${options.feedUrl}`);
    schedule(options.firstCheckMs ?? FIRST_CHECK_MS);
  } else if (options.feedProblem) log(`updates off: ${options.feedProblem}`);

  return {
    state: () => state,
    check,
    async install() {
      if (!updater || state.phase !== 'ready') return state;
      set({ waitingForSync: true });
      await installWhenFree();
      return state;
    },
    syncChanged: () => void installWhenFree(),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
