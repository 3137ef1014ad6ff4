// Browser mode's server (shared DESIGN.md, "One contract, three transports" and Security): the
// built renderer over HTTP on 127.0.0.1, and the contract over a WebSocket at /core, served by
// the app session. Only the run's random token opens the socket, and only from this server's
// own pages:
// - the token (32 random bytes, hex) travels as the WebSocket subprotocol `vorort.<token>`
//   (`new WebSocket(url, ['vorort.' + token])`; the server selects it, as browsers require), so
//   it never stands in a URL, a log or a Referer;
// - the address to open (`url`) holds a launch token instead (`#token=...`, never sent to a
//   server), a new one each time it is read, and each opens one connection only: the browser's
//   history keeps the address, so a second use is refused (401). That connection is sent the
//   run's token first (`{ session }`), which the page keeps for its reconnections and reloads;
// - the Origin must be this server's own (http://127.0.0.1:PORT or http://localhost:PORT), and
//   the Host header one of those names (DNS rebinding);
// - anything else is refused before the upgrade: 401 without the right token, 403 for a foreign
//   origin or host, 404 for another path.
// Every message is read by ./browser-server-messages (malformed ones, and those over 1 MB, are
// answered with `invalid_arguments`, never thrown; one over 4 MB closes the connection with 1009
// as it arrives); the session's events go to every connection. A client
// that does not read its answers is not allowed to grow memory: its reading is paused while its
// calls pile up, and past MAX_BUFFERED bytes unsent it is closed (1013) with the reason.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { CoreEvent } from '../contract';
import type { Outcome } from '../dispatch';
import {
  encode,
  HARD_MAX_MESSAGE_BYTES,
  parseMessage,
  type CallMessage,
  type ServerMessage,
} from './browser-server-messages';
import {
  isOwnHost,
  loopbackOrigins,
  securityHeaders,
  serveRenderer,
} from './browser-server-static';
import type { CallOrigin } from './session';

/** What the server needs of the app session (sync/host/session.ts's HostSession has it). */
export interface ServedSession {
  call(name: string, args: unknown, origin?: CallOrigin): Promise<Outcome<unknown>>;
  onEvent(listener: (event: CoreEvent) => void): () => void;
}

export interface BrowserServerOptions {
  session: ServedSession;
  /** 0 (the default): any free port. */
  port?: number;
  /** The built renderer; default dist/renderer/ of this checkout. */
  rendererDir?: string;
  /** The run's token (tests); default 32 random bytes as hex. */
  token?: string;
  /** Unsent bytes of one connection past which it is closed (default 16 MB). */
  maxBufferedBytes?: number;
}

export interface BrowserServer {
  port: number;
  token: string;
  /**
   * The page to open, http://127.0.0.1:PORT/#token=<launch token>: a new address each time it is
   * read, each good for one connection (the first; a second use is refused).
   */
  readonly url: string;
  /** ws://127.0.0.1:PORT/core */
  socketUrl: string;
  /** The subprotocol carrying the token: `vorort.<token>`. */
  protocol: string;
  /** Open WebSocket connections. */
  connections(): number;
  /** Closes every connection (1001) and the listener. Idempotent. */
  close(): Promise<void>;
}

export const SOCKET_PATH = '/core';
export const PROTOCOL_PREFIX = 'vorort.';
/** Calls of one connection run at most this many at once; the rest wait in its queue. */
const CONCURRENT_CALLS = 4;
/** Past this many waiting calls the connection's reading is paused (TCP backpressure) ... */
const PAUSE_AT = 64;
/** ... and resumed below this many. */
const RESUME_AT = 16;
const DEFAULT_MAX_BUFFERED = 16 * 1024 * 1024;
const PING_MS = 30_000;

export const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  /** Launch tokens handed out (url) and not yet used. */
  const launches = new Set<string>();
  /** The launch token among the offered ones, or the run's token, or null. */
  const credentialOf = (offered: readonly string[]): { launch: string | null } | null => {
    if (offered.some((given) => sameToken(given, token))) return { launch: null };
    for (const launch of launches)
      if (offered.some((given) => sameToken(given, launch))) return { launch };
    return null;
  };
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED;
  const session = options.session;
  let port = 0;

  const http: Server = createServer((request, response) => {
    serveRenderer(request, response, rendererDir, port);
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: HARD_MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    clientTracking: true,
    // The subprotocol whose token the upgrade was let through with (below).
    handleProtocols: (protocols, request) => {
      const chosen = accepted.get(request);
      return chosen !== undefined && protocols.has(chosen) ? chosen : false;
    },
  });

  /** Each upgrade let through, with the subprotocol of its token (handleProtocols selects it). */
  const accepted = new WeakMap<IncomingMessage, string>();
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const credential = credentialOf(offeredTokens(request));
    const refusal = refuseUpgrade(request, port, credential !== null);
    if (refusal || credential === null) {
      const { status, text } = refusal ?? TOKEN_REFUSED;
      rejectSocket(socket, port, status, text);
      return;
    }
    // Used now, before anything else may run: a second upgrade with it is refused.
    if (credential.launch !== null) launches.delete(credential.launch);
    accepted.set(request, `${PROTOCOL_PREFIX}${credential.launch ?? token}`);
    wss.handleUpgrade(request, socket, head, (ws) => {
      wss.emit('connection', ws, request);
      if (credential.launch !== null) send(ws, { session: token });
    });
  });
  http.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  const send = (ws: WebSocket, message: ServerMessage): void => {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > maxBuffered) {
      closeSlow(ws);
      return;
    }
    ws.send(encode(message));
  };

  const unsubscribe = session.onEvent((event) => {
    for (const ws of wss.clients) send(ws, { event });
  });

  wss.on('connection', (ws: WebSocket) => {
    const queue: CallMessage[] = [];
    let running = 0;
    let alive = true;

    const pump = (): void => {
      while (running < CONCURRENT_CALLS && queue.length > 0) {
        const message = queue.shift()!;
        running += 1;
        void answer(message).finally(() => {
          running -= 1;
          if (ws.isPaused && queue.length < RESUME_AT && ws.readyState === WebSocket.OPEN)
            ws.resume();
          pump();
        });
      }
    };
    const answer = async (message: CallMessage): Promise<void> => {
      let outcome: Outcome<unknown>;
      try {
        outcome = await session.call(message.call, message.args, { transport: 'websocket' });
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        outcome = {
          ok: false,
          error: {
            code: 'internal',
            message: { de: `Interner Fehler: ${text}`, en: `Internal error: ${text}` },
          },
        };
      }
      send(
        ws,
        outcome.ok
          ? { id: message.id, ok: true, value: outcome.value }
          : { id: message.id, ok: false, error: outcome.error },
      );
    };

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const parsed = parseMessage(toText(data), isBinary);
      if (!parsed.ok) {
        send(ws, {
          ...(parsed.id === undefined ? {} : { id: parsed.id }),
          ok: false,
          error: parsed.error,
        });
        return;
      }
      queue.push(parsed.message);
      if (queue.length >= PAUSE_AT && !ws.isPaused) ws.pause();
      pump();
    });
    ws.on('pong', () => {
      alive = true;
    });
    const ping = setInterval(() => {
      if (!alive) {
        ws.terminate();
        return;
      }
      alive = false;
      if (ws.readyState === WebSocket.OPEN) ws.ping();
    }, PING_MS);
    ping.unref();
    ws.on('close', () => {
      clearInterval(ping);
      queue.length = 0;
    });
    // A socket error (a frame too big: 1009, bad UTF-8: 1007) closes with its reason; never thrown.
    ws.on('error', () => undefined);
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen({ port: options.port ?? 0, host: '127.0.0.1', exclusive: true }, () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    port,
    token,
    get url() {
      const launch = randomBytes(32).toString('hex');
      launches.add(launch);
      return `http://127.0.0.1:${port}/#token=${launch}`;
    },
    socketUrl: `ws://127.0.0.1:${port}${SOCKET_PATH}`,
    protocol: `${PROTOCOL_PREFIX}${token}`,
    connections: () => wss.clients.size,
    close() {
      closing ??= (async () => {
        unsubscribe();
        for (const ws of wss.clients) ws.close(1001, 'Vorort stopped');
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
        for (const ws of wss.clients) ws.terminate();
      })();
      return closing;
    },
  };
}

function toText(data: RawData): string | Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

function closeSlow(ws: WebSocket): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  ws.close(1013, 'too slow: answers piled up unread; reconnect');
  // A client that reads nothing would not read the close frame either.
  setTimeout(() => ws.terminate(), 2_000).unref();
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The tokens an upgrade offers as subprotocols `vorort.<token>`. */
function offeredTokens(request: IncomingMessage): string[] {
  return (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.startsWith(PROTOCOL_PREFIX))
    .map((p) => p.slice(PROTOCOL_PREFIX.length));
}

/** Why an upgrade is refused, or null: path, host, origin, then the token. */
function refuseUpgrade(
  request: IncomingMessage,
  port: number,
  tokenGood: boolean,
): { status: number; text: string } | null {
  let url: URL;
  try {
    url = new URL(request.url ?? '/', 'http://127.0.0.1');
  } catch {
    return { status: 400, text: 'Bad path.' };
  }
  if (url.pathname !== SOCKET_PATH)
    return { status: 404, text: `Not found: the socket is at ${SOCKET_PATH}.` };
  if (!isOwnHost(request, port))
    return { status: 403, text: 'Refused: this server answers to 127.0.0.1 only.' };
  const origin = request.headers.origin;
  if (origin === undefined || !loopbackOrigins(port).includes(origin.toLowerCase()))
    return { status: 403, text: 'Refused: only pages of this server may connect.' };
  return tokenGood ? null : TOKEN_REFUSED;
}

const TOKEN_REFUSED = {
  status: 401,
  text: 'Refused: the token of this run is missing or wrong, or the address was used already.',
};

function rejectSocket(socket: Duplex, port: number, status: number, text: string): void {
  const reason =
    { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[status] ??
    'Refused';
  const body = `${text}\n`;
  const headers = {
    ...securityHeaders(port),
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    Connection: 'close',
  };
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        `\r\n${body}`,
    );
  } else socket.destroy();
}
