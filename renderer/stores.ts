// The renderer's state, in zustand stores fed by the core's answers and events:
// the app (AppState: first run, signed in, ...), the sync (SchedulerState and sync.status),
// the errors to show (CoreErrors in both languages) and the app's settings (language, theme).
import { create } from 'zustand';
import type { CoreBridge, ConnectionState } from './bridge';
import { CoreCallError } from './bridge';
import type {
  AppSettings,
  AppState,
  CoreError,
  CoreEvent,
  SchedulerState,
  SyncStatus,
  UpdateState,
} from './contract';
import { currentLanguage, setLanguage } from './i18n';

interface AppStore {
  bridge: CoreBridge | null;
  connection: ConnectionState;
  state: AppState | null;
  /** A call of the host is running (demo, login, sign-out): which one. */
  busy: 'demo' | 'login' | 'logout' | 'configure' | null;
  setState(state: AppState): void;
}

export const useApp = create<AppStore>()((set) => ({
  bridge: null,
  connection: { phase: 'connecting' },
  state: null,
  busy: null,
  setState: (state) => set({ state }),
}));

/**
 * Whether the login may use `scope` (`personal:update`, …): true where the service did not name
 * the scopes it granted (changes are offered; the service decides).
 */
export function useGranted(scope: string): boolean {
  return useApp((store) => {
    const scopes = store.state?.user?.scopes;
    return !scopes || scopes.includes(scope);
  });
}

interface SyncStore {
  scheduler: SchedulerState | null;
  status: SyncStatus | null;
  /** Per table of the replica: bumped when data.changed names it. */
  tableVersions: Readonly<Record<string, number>>;
  /** Bumped when data.changed says 'all' (a replica replaced): every query reads again. */
  everyTableVersion: number;
}

export const useSync = create<SyncStore>()(() => ({
  scheduler: null,
  status: null,
  tableVersions: {},
  everyTableVersion: 0,
}));

/**
 * The version of what `tables` hold, as one string: it changes (and a screen reading them runs
 * its query again) only when the core says one of them changed.
 */
export function useTablesVersion(tables: readonly string[]): string {
  return useSync(
    (store) =>
      `${store.everyTableVersion}:${tables.map((table) => store.tableVersions[table] ?? 0).join('.')}`,
  );
}

function tablesChanged(tables: readonly string[] | 'all'): void {
  useSync.setState((store) => {
    if (tables === 'all') return { everyTableVersion: store.everyTableVersion + 1 };
    const next = { ...store.tableVersions };
    for (const table of tables) next[table] = (next[table] ?? 0) + 1;
    return { tableVersions: next };
  });
}

export interface ShownError {
  id: number;
  error: CoreError;
}

interface ErrorStore {
  errors: ShownError[];
  push(error: CoreError): void;
  dismiss(id: number): void;
}

let nextErrorId = 1;

export const useErrors = create<ErrorStore>()((set) => ({
  errors: [],
  push: (error) =>
    set((store) => ({
      // The same words twice in a row are shown once.
      errors: store.errors.some((shown) => shown.error.message.en === error.message.en)
        ? store.errors
        : [...store.errors.slice(-4), { id: nextErrorId++, error }],
    })),
  dismiss: (id) => set((store) => ({ errors: store.errors.filter((shown) => shown.id !== id) })),
}));

/** Any thrown value as a CoreError (the bridge's, or an unexpected one in words). */
export function asCoreError(error: unknown): CoreError {
  if (error instanceof CoreCallError) return error.error;
  const text = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: { de: text, en: text } };
}

/** Reports a failed call to the error store; answers undefined. */
export function reportError(error: unknown): undefined {
  useErrors.getState().push(asCoreError(error));
  return undefined;
}

function applyAppState(state: AppState): void {
  const signedInNow = state.phase === 'signed-in' && useApp.getState().state?.phase !== 'signed-in';
  useApp.setState({ state });
  // A sign-in may bring settings of its own (a demo's role sets the profile).
  if (signedInNow) loadSettings();
  if (state.scheduler) useSync.setState({ scheduler: state.scheduler });
  if (state.phase !== 'signed-in') useSync.setState({ status: null });
}

let statusTimer: number | null = null;

/** Reads sync.status again (at most every 500 ms: progress events come fast). */
export function refreshSyncStatus(): void {
  if (statusTimer !== null) return;
  statusTimer = window.setTimeout(() => {
    statusTimer = null;
    const { bridge, state } = useApp.getState();
    if (!bridge || state?.phase !== 'signed-in') return;
    bridge.call('sync.status', {}).then(
      (status) => useSync.setState({ status }),
      () => {
        // shown by the indicator as it is; a failed read here is not the person's problem
      },
    );
  }, 500);
}

/** What a new notification does in browser mode (Electron's main process notifies the OS). */
export type NotifyHandler = (items: { id: string; titel: string }[]) => void;

export function handleEvent(event: CoreEvent, notify: NotifyHandler): void {
  switch (event.type) {
    case 'app.state':
      applyAppState(event.state);
      refreshSyncStatus();
      return;
    case 'sync.state': {
      const previous = useSync.getState().scheduler;
      useSync.setState({ scheduler: event.state });
      if (
        previous?.phase !== event.state.phase ||
        previous.pending !== event.state.pending ||
        previous.parked !== event.state.parked ||
        previous.conflicts !== event.state.conflicts
      )
        refreshSyncStatus();
      return;
    }
    case 'sync.progress': {
      const scheduler = useSync.getState().scheduler;
      if (scheduler)
        useSync.setState({
          scheduler: {
            ...scheduler,
            phase: 'syncing',
            progress: {
              collection: event.collection,
              done: event.done,
              ...(event.total !== undefined ? { total: event.total } : {}),
            },
          },
        });
      return;
    }
    case 'sync.finished':
      refreshSyncStatus();
      return;
    case 'data.changed':
      tablesChanged(event.tables);
      refreshSyncStatus();
      return;
    case 'notifications.new':
      if (event.items.length > 0) notify(event.items);
      return;
    case 'settings.changed':
      applySettings(event.settings);
      return;
    case 'updates.state':
      useUpdates.setState({ updates: event.state });
      return;
  }
}

/** How often a window that shows the app says so again (the core forgets it after 60 s). */
const VISIBLE_RENEW_MS = 30_000;

/**
 * Tells the core whether this window shows the app (app.visible): while one does, the core checks
 * the service every few seconds, so the indicator says offline within seconds. Said on connecting,
 * on visibilitychange, focus and blur, and again every 30 s while visible. Answers a stop.
 */
function reportVisibility(bridge: CoreBridge): () => void {
  const say = () => {
    const visible = document.visibilityState === 'visible';
    // Best effort: a lost "visible" is said again within 30 s, a lost "hidden" runs out.
    bridge.call('app.visible', { visible }).catch(() => {});
  };
  document.addEventListener('visibilitychange', say);
  window.addEventListener('focus', say);
  window.addEventListener('blur', say);
  const timer = window.setInterval(() => {
    if (document.visibilityState === 'visible') say();
  }, VISIBLE_RENEW_MS);
  return () => {
    document.removeEventListener('visibilitychange', say);
    window.removeEventListener('focus', say);
    window.removeEventListener('blur', say);
    window.clearInterval(timer);
  };
}

/** Connects the stores to a bridge: events, the connection, and the state after (re)connecting. */
export function connectStores(bridge: CoreBridge, notify: NotifyHandler): () => void {
  useApp.setState({ bridge });
  const offEvent = bridge.onEvent((event) => handleEvent(event, notify));
  const offConnection = bridge.onConnection((connection) => {
    useApp.setState({ connection });
    if (connection.phase === 'open') {
      bridge.call('app.state', {}).then((state) => {
        applyAppState(state);
        refreshSyncStatus();
      }, reportError);
      loadSettings();
      bridge
        .call('app.visible', { visible: document.visibilityState === 'visible' })
        .catch(() => {});
    }
  });
  const offVisibility = reportVisibility(bridge);
  return () => {
    offEvent();
    offConnection();
    offVisibility();
  };
}

// ---------------------------------------------------------------------------------------------
// The app's settings: kept by the core (every window and every start has them), applied here
// as they arrive (settings.get on connecting and after a sign-in, the event settings.changed
// from another window). Before the first answer the language kept in this browser holds.

interface SettingsStore {
  settings: AppSettings | null;
}

export const useSettings = create<SettingsStore>()(() => ({ settings: null }));

export type Theme = AppSettings['theme'];

/** The theme on <html>: data-theme light or dark; none for the system's choice. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

/** Shows the settings on this page: theme at once, the language when one is chosen. */
export function applySettings(settings: AppSettings): void {
  useSettings.setState({ settings });
  applyTheme(settings.theme);
  if (settings.language && settings.language !== currentLanguage()) setLanguage(settings.language);
}

/** Reads the settings from the core and applies them (quietly: a core without them keeps the page as it is). */
export function loadSettings(): void {
  const bridge = useApp.getState().bridge;
  if (!bridge) return;
  bridge.call('settings.get', {}).then(applySettings, () => {
    // an older core, or not ready: the page keeps its language and the system's theme
  });
}

export type SettingsChange = Partial<Omit<AppSettings, 'language'>> & {
  language?: NonNullable<AppSettings['language']>;
};

/**
 * Changes settings: shown at once (language, theme), then kept by the core. A refusal puts the
 * previous settings back and answers the error (its issues name the fields).
 */
export async function updateSettings(
  change: SettingsChange,
): Promise<{ ok: true; settings: AppSettings } | { ok: false; error: CoreError }> {
  const previous = useSettings.getState().settings;
  if (previous) applySettings({ ...previous, ...change });
  else {
    if (change.theme) applyTheme(change.theme);
    if (change.language) setLanguage(change.language);
  }
  const bridge = useApp.getState().bridge;
  if (!bridge)
    return {
      ok: false,
      error: {
        code: 'offline',
        message: { de: 'Keine Verbindung zur App.', en: 'No connection to the app.' },
      },
    };
  try {
    const settings = await bridge.call('settings.update', change);
    applySettings(settings);
    return { ok: true, settings };
  } catch (error) {
    if (previous) applySettings(previous);
    return { ok: false, error: asCoreError(error) };
  }
}

// ---------------------------------------------------------------------------------------------
// The desktop app's updates (where the organisation set an update server): where they stand,
// asked once the settings show them, then kept by the core's updates.state events.

interface UpdatesStore {
  updates: UpdateState | null;
}

export const useUpdates = create<UpdatesStore>()(() => ({ updates: null }));

/** Calls updates.state, .check or .install and shows the answer (quietly off without a core). */
export function askUpdates(call: 'updates.state' | 'updates.check' | 'updates.install'): void {
  const bridge = useApp.getState().bridge;
  if (!bridge) return;
  bridge.call(call, {}).then(
    (updates) => useUpdates.setState({ updates }),
    (error: unknown) => {
      if (call !== 'updates.state') reportError(error);
    },
  );
}
