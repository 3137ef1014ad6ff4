// The IPC binding (electron/ipc.ts) in Node, with plain objects standing in for ipcMain, the
// windows' webContents and the invoking frame (the host's API surface, no Electron binary):
// every contract entry reachable, a call from a foreign frame or another window refused,
// invalid arguments answered with invalid_arguments by the real app session, events to every
// window, and a seeded fuzz of 10,000 malformed messages answered with refusals, with no throw
// and the replica byte-for-byte unchanged.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands, hostCalls, queries, type CoreEvent } from '../sync/contract';
import type { Outcome } from '../sync/dispatch';
import { SCHEMAS } from '../sync/dispatch';
import { fileSecretStore, openHostSession, type HostSession } from '../sync/host/session';
import {
  bindSessionToIpc,
  CALL_CHANNEL,
  EVENT_CHANNEL,
  type FrameLike,
  type InvokeEventLike,
  type IpcMainLike,
  type WebContentsLike,
} from './ipc';

const ORIGIN = 'app://vorort';

/** ipcMain as the binding sees it: one handler per channel, invoked by the test. */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<
    string,
    (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>
  >();
  handle(
    channel: string,
    listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>,
  ) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  invoke(event: InvokeEventLike, message: unknown): Promise<unknown> {
    const handler = this.handlers.get(CALL_CHANNEL);
    if (!handler) throw new Error('no handler');
    return handler(event, message);
  }
}

class FakeContents implements WebContentsLike {
  readonly sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;
  constructor(readonly id: number) {}
  isDestroyed() {
    return this.destroyed;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
}

const topFrame = (url: string): FrameLike => ({ url, parent: null });
const from = (contents: WebContentsLike, frame: FrameLike | null): InvokeEventLike => ({
  sender: { id: contents.id },
  senderFrame: frame,
});

interface Answer {
  id?: number;
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: { de: string; en: string } };
}

/** A session that records what reaches it and answers with the name (events sent by the test). */
function recordingSession() {
  const calls: { name: string; args: unknown; transport?: string }[] = [];
  const listeners = new Set<(event: CoreEvent) => void>();
  return {
    calls,
    emit: (event: CoreEvent) => listeners.forEach((listener) => listener(event)),
    listenerCount: () => listeners.size,
    session: {
      async call(name: string, args: unknown, origin?: { transport: string }) {
        calls.push({ name, args, ...(origin ? { transport: origin.transport } : {}) });
        return { ok: true, value: { reached: name } } as Outcome<unknown>;
      },
      onEvent(listener: (event: CoreEvent) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

describe('the IPC binding', () => {
  it('reaches every query, command and host call of the contract, args as sent, answers with the id', async () => {
    const ipcMain = new FakeIpcMain();
    const window = new FakeContents(1);
    const recorder = recordingSession();
    const unbind = bindSessionToIpc({
      ipcMain,
      session: recorder.session,
      appOrigin: ORIGIN,
      windows: () => [window],
    });
    const names = [...Object.keys(queries), ...Object.keys(commands), ...Object.keys(hostCalls)];
    expect(names.length).toBeGreaterThan(40);
    let id = 0;
    for (const name of names) {
      id += 1;
      const args = { probe: name, nested: { list: [1, 'two', null] } };
      const answer = (await ipcMain.invoke(from(window, topFrame(`${ORIGIN}/index.html`)), {
        id,
        call: name,
        args,
      })) as Answer;
      expect(answer, name).toEqual({ id, ok: true, value: { reached: name } });
      expect(recorder.calls.at(-1), name).toEqual({ name, args, transport: 'ipc' });
    }
    expect(recorder.calls).toHaveLength(names.length);
    unbind();
    expect(ipcMain.handlers.size).toBe(0);
    expect(recorder.listenerCount()).toBe(0);
  });

  it('refuses a foreign origin, a subframe, a gone frame and a window not ours, before the session sees it', async () => {
    const ipcMain = new FakeIpcMain();
    const ours = new FakeContents(1);
    const stranger = new FakeContents(2);
    const recorder = recordingSession();
    bindSessionToIpc({
      ipcMain,
      session: recorder.session,
      appOrigin: ORIGIN,
      windows: () => [ours],
    });
    const message = { id: 5, call: 'app.state', args: {} };
    const refusals: [string, InvokeEventLike][] = [
      ['another site', from(ours, topFrame('https://evil.example/'))],
      ['a file: page', from(ours, topFrame('file:///tmp/index.html'))],
      ['another app:// host', from(ours, topFrame('app://other/index.html'))],
      ['a look-alike origin', from(ours, topFrame('app://vorort.evil/index.html'))],
      ['about:blank', from(ours, topFrame('about:blank'))],
      [
        'a frame inside our page',
        from(ours, { url: `${ORIGIN}/x.html`, parent: topFrame(`${ORIGIN}/`) }),
      ],
      ['a gone frame', from(ours, null)],
      ['another window', from(stranger, topFrame(`${ORIGIN}/index.html`))],
    ];
    for (const [what, event] of refusals) {
      const answer = (await ipcMain.invoke(event, message)) as Answer;
      expect(answer.ok, what).toBe(false);
      expect(answer.id, what).toBe(5);
      expect(answer.error?.code, what).toBe('not_allowed');
      expect(answer.error?.message.en, what).toMatch(/^Forbidden: /);
      expect(answer.error?.message.de, what).toMatch(/^Nicht erlaubt: /);
    }
    ours.destroyed = true;
    const closed = (await ipcMain.invoke(from(ours, topFrame(`${ORIGIN}/`)), message)) as Answer;
    expect(closed.error?.code).toBe('not_allowed');
    expect(recorder.calls).toHaveLength(0);
  });

  it('sends every event to every window still open', () => {
    const ipcMain = new FakeIpcMain();
    const first = new FakeContents(1);
    const second = new FakeContents(2);
    const gone = new FakeContents(3);
    gone.destroyed = true;
    const recorder = recordingSession();
    bindSessionToIpc({
      ipcMain,
      session: recorder.session,
      appOrigin: ORIGIN,
      windows: () => [first, second, gone],
    });
    const event: CoreEvent = { type: 'notifications.new', items: [{ id: '1', titel: 'Dienst' }] };
    recorder.emit(event);
    for (const window of [first, second])
      expect(window.sent).toEqual([{ channel: EVENT_CHANNEL, payload: { event } }]);
    expect(gone.sent).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Against the real app session on a real replica

describe('the IPC binding over the app session', () => {
  let dir: string;
  let session: HostSession;
  const ipcMain = new FakeIpcMain();
  const window = new FakeContents(7);
  const event = from(window, topFrame(`${ORIGIN}/index.html`));
  const call = (message: unknown) => ipcMain.invoke(event, message) as Promise<Answer>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vorort-ipc-'));
    session = await openHostSession({
      userDataDir: dir,
      secrets: fileSecretStore(join(dir, 'secrets.json')),
      openExternal: async () => undefined,
      loginTimeoutMs: 200,
    });
    bindSessionToIpc({ ipcMain, session, appOrigin: ORIGIN, windows: () => [window] });
  });
  afterAll(async () => {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers data and host calls, invalid arguments with invalid_arguments, unknown names with unknown_name', async () => {
    expect(await call({ id: 1, call: 'app.state', args: {} })).toMatchObject({
      id: 1,
      ok: true,
      value: { phase: 'first-run' },
    });
    expect(await call({ id: 2, call: 'personnel.list', args: { limit: 5 } })).toMatchObject({
      id: 2,
      ok: true,
      value: { total: 0 },
    });
    const invalid = await call({ id: 3, call: 'personnel.list', args: { limit: 'many' } });
    expect(invalid).toMatchObject({ id: 3, ok: false, error: { code: 'invalid_arguments' } });
    expect(invalid.error?.message.de).toContain('personnel.list');
    expect(
      await call({ id: 4, call: 'account.logout', args: { deleteLocalData: 'yes' } }),
    ).toMatchObject({ id: 4, ok: false, error: { code: 'invalid_arguments' } });
    expect(await call({ id: 5, call: 'no.such', args: {} })).toMatchObject({
      id: 5,
      ok: false,
      error: { code: 'unknown_name' },
    });
    expect(await call({ id: 6, call: 'sync.now', args: {} })).toMatchObject({
      id: 6,
      ok: false,
      error: { code: 'not_signed_in' },
    });
    // Not the message's shape: refused by the reading, with the id when it had one.
    expect(await call({ id: 7, call: 'app.state', args: {}, extra: 1 })).toMatchObject({
      id: 7,
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    expect(await call('app.state')).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
  });

  it('a seeded fuzz of 10,000 malformed messages: refusals only, no throw, the replica byte-for-byte unchanged', async () => {
    const files = ['replica.sqlite', 'replica.sqlite-wal', 'settings.json'].map((name) =>
      join(dir, name),
    );
    const digest = () =>
      files.map((file) =>
        existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : '-',
      );
    const before = digest();
    const random = seeded(1111);
    const counts = new Map<string, number>();
    for (let id = 1; id <= 10_000; id += 1) {
      const { message, expect: expected } = malformed(random, id);
      let answer: Answer;
      try {
        answer = await call(message);
      } catch (error) {
        throw new Error(`message ${id} threw: ${String(error)}`);
      }
      expect(answer.ok, `message ${id}: ${show(message)}`).toBe(false);
      const code = answer.error?.code ?? 'none';
      counts.set(code, (counts.get(code) ?? 0) + 1);
      if (expected === 'invalid_arguments') expect(code, `message ${id}`).toBe('invalid_arguments');
      else expect(['invalid_arguments', 'unknown_name'], `message ${id}: ${code}`).toContain(code);
      expect(answer.error?.message.de.length, `message ${id}`).toBeGreaterThan(0);
    }
    expect(digest()).toEqual(before);
    expect(counts.get('invalid_arguments')).toBeGreaterThan(5_000);
    expect(counts.get('unknown_name')).toBeGreaterThan(100);
    // The session still answers.
    expect(await call({ id: 1, call: 'app.state', args: {} })).toMatchObject({ ok: true });
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// The fuzz's messages

type Random = ReturnType<typeof seeded>;

function show(message: unknown): string {
  try {
    return String(JSON.stringify(message)).slice(0, 300);
  } catch {
    return String(message);
  }
}

/** mulberry32: the same messages on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

const WRITES = [...Object.keys(commands), ...Object.keys(hostCalls)];
const ALL = [...Object.keys(queries), ...WRITES];
const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''];

/** An own member, also for `__proto__` (plain assignment would set the prototype). */
function put(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function junk(random: Random, depth = 0): unknown {
  switch (random.int(depth > 3 ? 8 : 12)) {
    case 0:
      return null;
    case 1:
      return random.next() < 0.5;
    case 2:
      return random.pick([0, -1, 1.5, 1e308, NaN, Infinity, 2 ** 53]);
    case 3:
      return random.pick(['', 'x', '2026-13-45', 'self', '\u0000', '\ud800', '<script>']);
    case 4:
      return 'y'.repeat(random.pick([101, 10_000, 300_000]));
    case 5:
      return random.pick([
        new Date(0),
        new Map([['a', 1]]),
        new Set([1]),
        new Uint8Array(3),
        undefined,
      ]);
    case 6:
      return random.pick(NASTY_KEYS);
    case 7:
      return Array.from({ length: random.int(4) }, () => junk(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = random.int(4); i > 0; i -= 1)
        put(
          object,
          random.next() < 0.4 ? random.pick(NASTY_KEYS) : `k${random.int(5)}`,
          junk(random, depth + 1),
        );
      return object;
    }
  }
}

/** Whether the session would take these arguments (read as the binding reads them). */
function accepted(name: string, args: unknown): boolean {
  let seen: unknown;
  try {
    const text = JSON.stringify(args);
    seen = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return false;
  }
  const schema =
    (SCHEMAS as Record<string, { safeParse(v: unknown): { success: boolean } }>)[name] ??
    (hostCalls as Record<string, { safeParse(v: unknown): { success: boolean } }>)[name];
  return schema ? schema.safeParse(seen ?? {}).success : false;
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = random01(i) ? [value] : { a: value };
  return value;
}
const random01 = (i: number) => i % 2 === 0;

function malformed(
  random: Random,
  id: number,
): { message: unknown; expect: 'invalid_arguments' | 'refusal' } {
  for (;;) {
    switch (random.int(9)) {
      case 0:
        // Not a message at all.
        return {
          message: random.pick([
            null,
            undefined,
            42,
            'app.state',
            [],
            [id, 'app.state'],
            new Map(),
            new Date(),
          ]),
          expect: 'invalid_arguments',
        };
      case 1: {
        // A wrong id.
        const bad = random.pick([undefined, -1, 1.5, 'one', 2 ** 60, null, {}, [], 10n]);
        return { message: { id: bad, call: 'app.state', args: {} }, expect: 'invalid_arguments' };
      }
      case 2:
        // A wrong call: not a name, a huge one, an unknown one.
        return {
          message: {
            id,
            call: random.pick([null, 7, {}, '', 'x'.repeat(500), ['app.state']]),
            args: {},
          },
          expect: 'invalid_arguments',
        };
      case 3:
        return {
          message: {
            id,
            call: random.pick([
              'no.such',
              'constructor',
              '__proto__',
              'toString',
              'app.state ',
              'APP.STATE',
            ]),
            args: {},
          },
          expect: 'refusal',
        };
      case 4: {
        // Too deep, too large, cyclic, BigInt: not readable as JSON of bounded size.
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        const args = random.pick([
          nested(65 + random.int(200)),
          { text: 'z'.repeat(1024 * 1024 + random.int(100)) },
          cyclic,
          { n: 12n },
        ]);
        return { message: { id, call: random.pick(ALL), args }, expect: 'invalid_arguments' };
      }
      case 5: {
        // A __proto__ key, at the top of the arguments or deeper.
        const args: Record<string, unknown> = { k: junk(random) };
        const inner: Record<string, unknown> = { k: junk(random) };
        put(inner, '__proto__', { polluted: true });
        if (random.next() < 0.5) put(args, '__proto__', { polluted: 1 });
        else args.k2 = [inner];
        return { message: { id, call: random.pick(ALL), args }, expect: 'invalid_arguments' };
      }
      case 6: {
        // An extra member beside id, call and args.
        const message = { id, call: random.pick(ALL), args: {} };
        put(message, random.pick(['extra', 'constructor', 'prototype', 'then']), junk(random) ?? 0);
        return { message, expect: 'invalid_arguments' };
      }
      default: {
        // A write or host call with junk arguments the contract refuses.
        const name = random.pick(WRITES);
        const args = junk(random);
        if (accepted(name, args)) continue;
        return { message: { id, call: name, args }, expect: 'invalid_arguments' };
      }
    }
  }
}
