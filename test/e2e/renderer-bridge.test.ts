// The renderer's pieces that need no browser: the WebSocket bridge (renderer/bridge.ts) against
// the real browser-mode server (sync/host/browser-server.ts) with a small session of its own,
// and the two languages' strings.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import de from '../../renderer/i18n/de.json';
import en from '../../renderer/i18n/en.json';
import {
  CoreCallError,
  reconnectDelay,
  tokenFromHash,
  webSocketBridge,
  type ConnectionState,
  type CoreBridge,
} from '../../renderer/bridge';
import type { CoreEvent } from '../../sync/contract';
import { startBrowserServer, type BrowserServer } from '../../sync/host/browser-server';

/** A session answering app.state, failing everything else in words, and emitting on demand. */
function stubSession() {
  const listeners = new Set<(event: CoreEvent) => void>();
  return {
    emit: (event: CoreEvent) => listeners.forEach((listener) => listener(event)),
    session: {
      async call(name: string) {
        if (name === 'app.state')
          return {
            ok: true as const,
            value: { phase: 'first-run', account: null, user: null, scheduler: null },
          };
        if (name === 'slow') return new Promise<never>(() => {});
        return {
          ok: false as const,
          error: {
            code: 'not_allowed' as const,
            message: { de: 'Nicht erlaubt.', en: 'Not allowed.' },
          },
        };
      },
      onEvent(listener: (event: CoreEvent) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

/** ws as the browser's WebSocket, sending the page's Origin as a browser does. */
function pageSocket(origin: string): typeof globalThis.WebSocket {
  class PageSocket extends WebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols, { origin });
    }
  }
  return PageSocket as unknown as typeof globalThis.WebSocket;
}

function states(bridge: CoreBridge): ConnectionState[] {
  const seen: ConnectionState[] = [];
  bridge.onConnection((state) => seen.push(state));
  return seen;
}

const servers: BrowserServer[] = [];
const bridges: CoreBridge[] = [];
afterEach(async () => {
  for (const bridge of bridges.splice(0)) bridge.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(port = 0, token?: string) {
  const stub = stubSession();
  const server = await startBrowserServer({
    session: stub.session,
    port,
    ...(token ? { token } : {}),
  });
  servers.push(server);
  return { server, stub };
}

function bridgeTo(
  server: BrowserServer,
  token = server.token,
  onSessionToken?: (token: string) => void,
): CoreBridge {
  const bridge = webSocketBridge({
    url: server.socketUrl,
    token,
    WebSocketImpl: pageSocket(`http://127.0.0.1:${server.port}`),
    ...(onSessionToken ? { onSessionToken } : {}),
  });
  bridges.push(bridge);
  return bridge;
}

describe('renderer/bridge.ts over the browser-mode server', () => {
  it('reads the token from the fragment only', () => {
    expect(tokenFromHash('#token=abc123')).toBe('abc123');
    expect(tokenFromHash('#a=1&token=xyz')).toBe('xyz');
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#token=')).toBeNull();
  });

  it('backs off from half a second to at most ten (with jitter)', () => {
    expect(reconnectDelay(1, () => 0.5)).toBe(500);
    expect(reconnectDelay(3, () => 0.5)).toBe(2000);
    expect(reconnectDelay(30, () => 1)).toBe(12_000);
    expect(reconnectDelay(30, () => 0)).toBe(8000);
  });

  it('calls answer values, refusals come as CoreCallError with the CoreError, events arrive', async () => {
    const { server, stub } = await serve();
    const bridge = bridgeTo(server);
    const events: CoreEvent[] = [];
    bridge.onEvent((event) => events.push(event));
    await expect(bridge.call('app.state', {})).resolves.toMatchObject({ phase: 'first-run' });
    const refused = await bridge.call('sync.now', {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CoreCallError);
    expect((refused as CoreCallError).error).toEqual({
      code: 'not_allowed',
      message: { de: 'Nicht erlaubt.', en: 'Not allowed.' },
    });
    stub.emit({ type: 'data.changed', tables: ['users'] });
    await expect.poll(() => events).toEqual([{ type: 'data.changed', tables: ['users'] }]);
  });

  it("opens with the address's launch token once, then reconnects with the run's token it was sent", async () => {
    const { server } = await serve();
    const { port, token } = server;
    const launch = tokenFromHash(new URL(server.url).hash)!;
    const kept: string[] = [];
    const bridge = bridgeTo(server, launch, (session) => kept.push(session));
    await expect(bridge.call('app.state', {})).resolves.toMatchObject({ phase: 'first-run' });
    await expect.poll(() => kept).toEqual([token]);
    // Another page with the same address (the browser's history): never opens.
    const copy = bridgeTo(server, launch);
    const seen = states(copy);
    await expect
      .poll(() => seen.filter((state) => state.phase === 'reconnecting').length)
      .toBeGreaterThanOrEqual(1);
    expect(seen.some((state) => state.phase === 'open')).toBe(false);
    // The first page reconnects after the server was gone, with the run's token.
    await server.close();
    await expect.poll(() => bridge.connection.phase).toBe('reconnecting');
    await serve(port, token);
    await expect(bridge.call('app.state', {})).resolves.toMatchObject({ phase: 'first-run' });
  }, 20_000);

  it('a wrong token never opens: it keeps retrying and says so', async () => {
    const { server } = await serve();
    const bridge = bridgeTo(server, 'not-the-token');
    const seen = states(bridge);
    await expect
      .poll(() => seen.filter((state) => state.phase === 'reconnecting').length, {
        timeout: 5000,
      })
      .toBeGreaterThanOrEqual(2);
    expect(seen.some((state) => state.phase === 'open')).toBe(false);
  });

  it('the server gone: calls in flight fail as offline, the bridge reconnects by itself when it is back', async () => {
    const { server } = await serve();
    const { port, token } = server;
    const bridge = bridgeTo(server);
    const seen = states(bridge);
    await bridge.call('app.state', {});
    const inFlight = bridge.call('slow' as 'app.state', {}).catch((error: unknown) => error);
    await server.close();
    const lost = await inFlight;
    expect(lost).toBeInstanceOf(CoreCallError);
    expect((lost as CoreCallError).error.code).toBe('offline');
    await expect.poll(() => bridge.connection.phase).toBe('reconnecting');

    // A call made while it is down waits for the connection.
    const waiting = bridge.call('app.state', {});
    await serve(port, token);
    await expect(waiting).resolves.toMatchObject({ phase: 'first-run' });
    expect(bridge.connection.phase).toBe('open');
    expect(seen.map((state) => state.phase)).toEqual(
      expect.arrayContaining(['connecting', 'open', 'reconnecting']),
    );
  }, 20_000);
});

describe('renderer/i18n', () => {
  const keys = (value: unknown, prefix = ''): string[] =>
    typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, inner]) => keys(inner, `${prefix}${key}.`))
      : [prefix.slice(0, -1)];

  it('German and English have the same strings, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(de).sort());
    for (const language of [de, en])
      for (const key of keys(language)) {
        const text = key
          .split('.')
          .reduce<unknown>((node, part) => (node as never)[part], language);
        expect(text, key).not.toBe('');
      }
  });
});
