// The renderer's state, in three zustand stores fed by the core's answers and events:
// the app (AppState: first run, signed in, ...), the sync (SchedulerState and sync.status)
// and the errors to show (CoreErrors in both languages).
import { create } from 'zustand';
import type { CoreBridge, ConnectionState } from './bridge';
import { CoreCallError } from './bridge';
import type { AppState, CoreError, CoreEvent, SchedulerState, SyncStatus } from './contract';

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

interface SyncStore {
  scheduler: SchedulerState | null;
  status: SyncStatus | null;
  /** Bumped on every data.changed and sync.finished: screens read again when it moves. */
  dataVersion: number;
}

export const useSync = create<SyncStore>()(() => ({
  scheduler: null,
  status: null,
  dataVersion: 0,
}));

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
  useApp.setState({ state });
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
    case 'data.changed':
      useSync.setState((store) => ({ dataVersion: store.dataVersion + 1 }));
      refreshSyncStatus();
      return;
    case 'notifications.new':
      if (event.items.length > 0) notify(event.items);
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
