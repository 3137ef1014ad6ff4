// The renderer's way to the core (design, Seam 3): one CoreBridge over either transport.
// - Electron: the preload's `window.vorort` (contextBridge; `invoke` answers an Outcome, so a
//   CoreError crosses the bridge as a value, not as a thrown Error that would lose its fields).
// - Browser mode: a WebSocket to /core on the page's own host, with the launch token from
//   `location.hash` (`#token=...`: never the query, which would leak into logs and Referer),
//   reconnecting with backoff and saying so. The launch token opens one connection only (the
//   browser's history keeps the address); the server answers it with the run's token, which the
//   bridge uses from then on and the tab keeps for a reload.
import type { CallArgs, CallName, CallResults, CoreError, CoreEvent } from './contract';

/** A call the core refused: `.error` is the contract's CoreError (code and words in both languages). */
export class CoreCallError extends Error {
  override name = 'CoreCallError';
  constructor(readonly error: CoreError) {
    super(error.message.en);
  }
}

/** Whether the bridge reaches the core: what the shell shows when it does not. */
export type ConnectionState =
  | { phase: 'connecting' }
  | { phase: 'open' }
  /** Lost (or never reached): the next attempt at `retryAt` (ms since epoch), the attempt's number. */
  | { phase: 'reconnecting'; attempt: number; retryAt: number };

export interface CoreBridge {
  call<N extends CallName>(name: N, args: CallArgs<N>): Promise<CallResults[N]>;
  onEvent(listener: (event: CoreEvent) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
  readonly connection: ConnectionState;
  /** Stops for good (no more reconnecting); calls waiting fail as offline. */
  close(): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: CoreError };

/** What the preload exposes (electron/preload.ts): the contract only. */
export interface VorortPreload {
  invoke(name: string, args: unknown): Promise<Outcome>;
  /** Every CoreEvent; answers the function that stops listening. */
  on(event: 'event', listener: (event: CoreEvent) => void): () => void;
}

declare global {
  interface Window {
    vorort?: VorortPreload;
  }
}

const internal = (en: string, de: string): CoreError => ({
  code: 'internal',
  message: { de, en },
});

function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'object' && value !== null && typeof (value as Outcome).ok === 'boolean';
}

/** The Electron bridge: the preload's invoke and on. */
export function electronBridge(preload: VorortPreload): CoreBridge {
  const open: ConnectionState = { phase: 'open' };
  return {
    connection: open,
    async call<N extends CallName>(name: N, args: CallArgs<N>) {
      const outcome: unknown = await preload.invoke(name, args);
      if (!isOutcome(outcome))
        throw new CoreCallError(
          internal('the app answered in an unknown form', 'die App antwortete in unbekannter Form'),
        );
      if (!outcome.ok) throw new CoreCallError(outcome.error);
      return outcome.value as CallResults[N];
    },
    onEvent: (listener) => preload.on('event', listener),
    onConnection(listener) {
      listener(open);
      return () => {};
    },
    close() {},
  };
}

/** The run's token from the page's fragment (`#token=...`), or null. */
export function tokenFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token');
  return token && token.length > 0 ? token : null;
}

/** How the WebSocket presents the token: as a subprotocol `vorort.<token>` (never in a URL). */
export const TOKEN_PROTOCOL_PREFIX = 'vorort.';

/** Backoff: 0.5 s, 1 s, 2 s, ... up to 10 s, with a little jitter so tabs do not march together. */
export function reconnectDelay(attempt: number, random = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: CoreCallError): void;
}

export interface WebSocketBridgeOptions {
  url: string;
  /** The launch token (single-use) or the run's token. */
  token: string;
  /** The run's token, sent by the server to a connection made with a launch token. */
  onSessionToken?: (token: string) => void;
  /** For tests; the browser's WebSocket by default. */
  WebSocketImpl?: typeof WebSocket;
}

/**
 * The browser-mode bridge. Calls made while the socket is down wait for it (up to 30 s, then
 * fail as `offline`); calls in flight when it drops fail at once as `offline` (the core may or
 * may not have done them: the screens read the state again after reconnecting).
 */
export function webSocketBridge(options: WebSocketBridgeOptions): CoreBridge {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const eventListeners = new Set<(event: CoreEvent) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  const pending = new Map<number, Pending>();
  const waiting: { send: () => void; fail: (error: CoreCallError) => void }[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let attempt = 0;
  let state: ConnectionState = { phase: 'connecting' };
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let token = options.token;

  const setState = (next: ConnectionState) => {
    state = next;
    for (const listener of connectionListeners) listener(next);
  };
  const lost = () =>
    new CoreCallError({
      code: 'offline',
      message: {
        de: 'Die Verbindung zur App ist unterbrochen; bitte erneut versuchen.',
        en: 'The connection to the app was lost; please try again.',
      },
    });

  const connect = () => {
    retry = null;
    if (closed) return;
    const ws = new Impl(options.url, [TOKEN_PROTOCOL_PREFIX + token]);
    socket = ws;
    // The close that follows says it all (and an unheard error must not throw outside a browser).
    ws.onerror = () => {};
    ws.onopen = () => {
      attempt = 0;
      setState({ phase: 'open' });
      for (const entry of waiting.splice(0)) entry.send();
    };
    ws.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      if (typeof data !== 'object' || data === null) return;
      const frame = data as {
        id?: unknown;
        ok?: unknown;
        value?: unknown;
        error?: CoreError;
        event?: CoreEvent;
        session?: unknown;
      };
      if (typeof frame.session === 'string' && frame.session) {
        token = frame.session;
        options.onSessionToken?.(token);
        return;
      }
      if (frame.event && typeof frame.event === 'object') {
        for (const listener of eventListeners) listener(frame.event);
        return;
      }
      if (typeof frame.id !== 'number') return;
      const entry = pending.get(frame.id);
      if (!entry) return;
      pending.delete(frame.id);
      if (frame.ok === true) entry.resolve(frame.value);
      else
        entry.reject(
          new CoreCallError(
            frame.error ?? internal('an answer without an error', 'eine Antwort ohne Fehler'),
          ),
        );
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      for (const entry of pending.values()) entry.reject(lost());
      pending.clear();
      if (closed) return;
      // A server gone and a token refused (a new run of `npm start` has a new one) look the
      // same to a page: the upgrade fails (1006). Both are retried; the banner says both.
      attempt += 1;
      const delay = reconnectDelay(attempt);
      setState({ phase: 'reconnecting', attempt, retryAt: Date.now() + delay });
      retry = setTimeout(connect, delay);
    };
  };

  connect();

  return {
    get connection() {
      return state;
    },
    call<N extends CallName>(name: N, args: CallArgs<N>) {
      return new Promise<CallResults[N]>((resolve, reject) => {
        const id = nextId++;
        const send = () => {
          if (!socket || socket.readyState !== Impl.OPEN) {
            reject(lost());
            return;
          }
          pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
          socket.send(JSON.stringify({ id, call: name, args }));
        };
        if (socket && socket.readyState === Impl.OPEN) {
          send();
          return;
        }
        const entry = { send, fail: reject };
        waiting.push(entry);
        setTimeout(() => {
          const index = waiting.indexOf(entry);
          if (index !== -1) {
            waiting.splice(index, 1);
            reject(lost());
          }
        }, 30_000);
      });
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(state);
      return () => connectionListeners.delete(listener);
    },
    close() {
      closed = true;
      if (retry !== null) clearTimeout(retry);
      for (const entry of waiting.splice(0)) entry.fail(lost());
      socket?.close();
    },
  };
}

const TOKEN_KEY = 'vorort.token';

/** The bridge for this page: Electron's preload if present, else the WebSocket of browser mode. */
export function createBridge(): CoreBridge | { missing: 'token' } {
  if (window.vorort) return electronBridge(window.vorort);
  // The launch token leaves the address bar (screenshots, a shared screen, a bookmark); the
  // browser's history keeps the address it opened, but the server takes a launch token once. The
  // tab keeps the run's token, which the server sends back, for a reload.
  const token = tokenFromHash(window.location.hash) ?? window.sessionStorage.getItem(TOKEN_KEY);
  if (!token) return { missing: 'token' };
  window.sessionStorage.setItem(TOKEN_KEY, token);
  if (window.location.hash)
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return webSocketBridge({
    url: `${scheme}//${window.location.host}/core`,
    token,
    onSessionToken: (session) => window.sessionStorage.setItem(TOKEN_KEY, session),
  });
}
