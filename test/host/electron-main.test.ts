// The Electron host's logic, run: the built main.mjs (electron/build-bundles.mjs, as
// `npm run build:electron` builds it, here into a folder of this run) in a child Node process with
// a stand-in `electron` module (test/support/electron-stand-in.ts). Electron's binary cannot be
// downloaded on the build machines, so the real window runs only in the release workflow's smoke
// test; this shows what the host does with Electron's API there: the window sandboxed and
// isolated with a CommonJS preload, the renderer served over app:// with its CSP and nothing
// outside it or of another origin, navigation and new windows refused, the IPC binding answering
// the app's own top frame only, the demo signed in through that channel (its sandbox in a worker
// thread, the first sync in the sync's worker) and quitting closing the replica before the exit;
// beside it, SIGTERM and Windows' session-end, a missing Electron build and a second instance.
// The renderer is a small stand-in page (vite's build takes too long for a test); better-sqlite3's
// Node build sits where the host looks for its Electron build (an app folder of this run).
import { execFileSync, fork } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { compileFunction } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppState } from '../../sync/contract';
import { rendererPolicy } from '../../sync/host/renderer-files';
import type { Command, FrameSpec } from '../support/electron-stand-in';

const ROOT = resolve(import.meta.dirname, '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
const APP = 'app://vorort';
const PAGE = { url: `${APP}/index.html` } satisfies FrameSpec;

const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-t3st.js"></script><link rel="stylesheet" href="/assets/index-t3st.css"></head><body><div id="root"></div></body></html>`;
const SCRIPT = `document.getElementById('root').textContent = 'Vorort';`;
const STYLE = `body { margin: 0; }`;
const SECRET = 'a file beside the renderer the page must never read';

let run: string;
let appPath: string;

interface Answer {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}
type JournalEntry = { kind: string } & Record<string, unknown>;

/** One run of main.mjs in a child process, driven through the stand-in. */
interface Host {
  userData: string;
  /** What the host wrote on stdout and stderr so far. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** One command to the stand-in; its value, or a failure with the host's output. */
  send<T>(command: Command, ms?: number): Promise<T>;
  kill(signal: NodeJS.Signals): void;
  /** The stand-in's journal: what it recorded up to the exit. */
  journal(): JournalEntry[];
}
const hosts: Host[] = [];

function startHost(
  name: string,
  options: { appPath?: string; env?: Record<string, string> } = {},
): Host {
  const userData = join(run, name);
  const journalFile = join(run, `${name}.jsonl`);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('VORORT_')) env[key] = value;
  const child = fork(
    join(run, 'stand-in', 'electron-stand-in-register.mjs'),
    [join(run, 'electron', 'main.mjs'), '--user-data', userData],
    {
      cwd: run,
      execArgv: [],
      env: {
        ...env,
        VORORT_STAND_IN_APP_PATH: options.appPath ?? appPath,
        VORORT_STAND_IN_JOURNAL: journalFile,
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 0;
  child.on('message', (message: Answer) => waiting.get(message.id)?.(message));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  void exited.then(({ code }) => {
    for (const [id, done] of waiting)
      done({ id, ok: false, error: `the host exited (${code}) before it answered` });
  });
  const host: Host = {
    userData,
    output: () => output,
    exited,
    async send<T>(command: Command, ms = 30_000): Promise<T> {
      const id = (nextId += 1);
      const answer = await new Promise<Answer>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`${command.op}: no answer\n${output}`)), ms);
        waiting.set(id, (message) => {
          clearTimeout(timer);
          waiting.delete(id);
          done(message);
        });
        child.send({ id, command });
      });
      if (!answer.ok) throw new Error(`${command.op}: ${answer.error}\n${output}`);
      return answer.value as T;
    },
    kill: (signal) => child.kill(signal),
    journal: () =>
      existsSync(journalFile)
        ? readFileSync(journalFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as JournalEntry)
        : [],
  };
  hosts.push(host);
  return host;
}

/** The exit within `ms`, or null. */
const exitOf = (host: Host, ms = 30_000) =>
  Promise.race([host.exited, new Promise<null>((done) => setTimeout(() => done(null), ms))]);

const stateOf = (host: Host) => host.send<StandInState>({ op: 'state' });

async function until<T>(check: () => Promise<T | undefined>, what: string, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Started, its window showing the page. */
async function started(host: Host): Promise<void> {
  await until(
    async () => ((await stateOf(host)).windows[0]?.loads.length ? true : undefined),
    `the window to load its page\n${host.output()}`,
    45_000,
  );
}

// The host the main tests share, started once.
let host: Host;
const send = <T>(command: Command, ms?: number) => host.send<T>(command, ms);

interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: string;
}
const get = (url: string, method = 'GET') => send<Fetched>({ op: 'fetch', url, method });

type Outcome =
  { id?: number; ok: true; value: unknown } | { id?: number; ok: false; error: { code: string } };
let nextCall = 0;
const invoke = (
  call: string,
  args: unknown,
  from: { sender?: 'window' | 'stranger'; frame?: FrameSpec | null } = {},
) =>
  send<Outcome>({
    op: 'invoke',
    message: { id: (nextCall += 1), call, args },
    sender: from.sender ?? 'window',
    frame: from.frame === undefined ? PAGE : from.frame,
  });

async function appState(): Promise<AppState> {
  const outcome = await invoke('app.state', {});
  if (!outcome.ok) throw new Error(`app.state: ${JSON.stringify(outcome.error)}`);
  return outcome.value as AppState;
}

interface StandInState {
  ready: boolean;
  sandbox: boolean;
  singleInstanceLock: boolean;
  schemes: { scheme: string; privileges: Record<string, boolean> }[];
  menu: unknown;
  paths: Record<string, string>;
  appEvents: string[];
  powerEvents: string[];
  protocolHandlers: string[];
  ipcHandlers: string[];
  permissionHandlers: { request: boolean; check: boolean };
  windows: {
    options: { show?: boolean; webPreferences: Record<string, unknown> };
    visible: boolean;
    destroyed: boolean;
    loads: { url: string; status: number }[];
    webContents: {
      id: number;
      openHandler: boolean;
      events: string[];
      sent: { channel: string; type: string | null }[];
    };
  }[];
  nativeModules: string[];
  errorBoxes: string[];
  unexpected: string[];
}
const state = () => stateOf(host);

/** The app's folder as the stand-in's app.getAppPath() answers it: Node's build at Electron's place. */
function appFolder(dir: string): void {
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '.cache', 'vorort-electron'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  const sqlite = dirname(require.resolve('better-sqlite3/package.json'));
  symlinkSync(sqlite, join(modules, 'better-sqlite3'), 'junction');
  symlinkSync(
    dirname(require.resolve('bindings/package.json', { paths: [sqlite] })),
    join(modules, 'bindings'),
    'junction',
  );
  copyFileSync(
    join(sqlite, 'build', 'Release', 'better_sqlite3.node'),
    join(modules, '.cache', 'vorort-electron', 'better_sqlite3.node'),
  );
}

beforeAll(async () => {
  // Inside the repository, so that main.mjs finds node_modules as the installed app does.
  mkdirSync(join(ROOT, 'dist', 'test-host'), { recursive: true });
  run = mkdtempSync(join(ROOT, 'dist', 'test-host', 'run-'));
  execFileSync(
    process.execPath,
    [join(ROOT, 'electron', 'build-bundles.mjs'), join(run, 'electron')],
    {
      cwd: ROOT,
      stdio: 'pipe',
    },
  );
  await build({
    entryPoints: ['electron-stand-in', 'electron-stand-in-hooks', 'electron-stand-in-register'].map(
      (name) => join(ROOT, 'test', 'support', `${name}.ts`),
    ),
    outdir: join(run, 'stand-in'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  // main.mjs serves ../renderer/ from where it is.
  mkdirSync(join(run, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(run, 'renderer', 'index.html'), INDEX);
  writeFileSync(join(run, 'renderer', 'assets', 'index-t3st.js'), SCRIPT);
  writeFileSync(join(run, 'renderer', 'assets', 'index-t3st.css'), STYLE);
  writeFileSync(join(run, 'secret.txt'), SECRET);
  appPath = join(run, 'app');
  appFolder(appPath);
  host = startHost('user-data');
  await started(host);
}, 120_000);

afterAll(async () => {
  for (const one of hosts) {
    one.kill('SIGKILL');
    await one.exited;
  }
  if (run) rmSync(run, { recursive: true, force: true });
});

describe('the Electron host (dist/electron/main.mjs) under Node with a stand-in electron', () => {
  it('opens one sandboxed, isolated window from app://, its preload CommonJS needing only electron', async () => {
    const now = await state();
    expect(now.unexpected).toEqual([]);
    expect(now.errorBoxes).toEqual([]);
    expect(now.sandbox).toBe(true);
    expect(now.singleInstanceLock).toBe(true);
    expect(now.schemes).toEqual([
      {
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true }) as unknown,
      },
    ]);
    expect(now.paths).toEqual({
      userData: host.userData,
      sessionData: join(host.userData, 'electron'),
    });
    expect(now.protocolHandlers).toEqual(['app']);
    expect(now.ipcHandlers).toEqual(['vorort:call']);
    expect(now.appEvents).toEqual(
      expect.arrayContaining(['before-quit', 'web-contents-created', 'second-instance']),
    );
    expect(now.powerEvents).toEqual(expect.arrayContaining(['suspend', 'resume', 'shutdown']));
    expect(now.menu).not.toBeNull();
    // The replica loads the build at the Electron build's place, nothing else.
    expect(now.nativeModules).toEqual([
      join(appPath, 'node_modules', '.cache', 'vorort-electron', 'better_sqlite3.node'),
    ]);

    expect(now.windows).toHaveLength(1);
    const [window] = now.windows;
    expect(window!.loads).toEqual([{ url: `${APP}/index.html`, status: 200 }]);
    // Shown once ready, not before.
    expect(window!.options.show).toBe(false);
    expect(window!.visible).toBe(true);
    const preferences = window!.options.webPreferences;
    expect(preferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      devTools: false,
    });
    // A sandboxed preload is CommonJS that may require electron only: compiled as a function
    // body (an import statement would not compile), run with that require alone.
    const preload = preferences.preload as string;
    expect(preload).toBe(join(run, 'electron', 'preload.cjs'));
    const exposed: Record<string, Record<string, unknown>> = {};
    const fakeElectron = {
      contextBridge: {
        exposeInMainWorld: (name: string, api: Record<string, unknown>) => (exposed[name] = api),
      },
      ipcRenderer: { invoke: async () => ({ ok: true, value: null }), on: () => {} },
    };
    const body = compileFunction(readFileSync(preload, 'utf8'), ['require', 'module', 'exports']);
    const module = { exports: {} };
    body(
      (name: string) => {
        if (name !== 'electron') throw new Error(`the preload requires ${name}`);
        return fakeElectron;
      },
      module,
      module.exports,
    );
    expect(Object.keys(exposed)).toEqual(['vorort']);
    expect(Object.keys(exposed.vorort!).sort()).toEqual(['invoke', 'on']);

    // Every permission (camera, notifications, …) refused, asked or checked.
    expect(now.permissionHandlers).toEqual({ request: true, check: true });
    for (const permission of ['media', 'notifications', 'geolocation'])
      expect(await send({ op: 'permission', permission })).toEqual({
        granted: false,
        checked: false,
      });
  });

  it('serves the renderer over app:// with its CSP, and nothing outside it nor of another origin', async () => {
    const policy = rendererPolicy();
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");

    for (const url of [`${APP}/`, `${APP}/index.html`]) {
      const page = await get(url);
      expect(page).toMatchObject({ status: 200, body: INDEX });
      expect(page.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': policy,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      });
    }
    const script = await get(`${APP}/assets/index-t3st.js`);
    expect(script).toMatchObject({ status: 200, body: SCRIPT });
    expect(script.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'content-security-policy': policy,
    });
    const style = await get(`${APP}/assets/index-t3st.css`);
    expect(style).toMatchObject({ status: 200, body: STYLE });
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');

    // Out of the renderer's folder (the file is there, one level up), another host, not a GET.
    for (const [url, method] of [
      [`${APP}/..%2fsecret.txt`, 'GET'],
      [`${APP}/assets/..%2f..%2fsecret.txt`, 'GET'],
      [`${APP}/%2e%2e%2fsecret.txt`, 'GET'],
      [`${APP}/..%5csecret.txt`, 'GET'],
      [`${APP}/assets%00/index-t3st.js`, 'GET'],
      ['app://evil.example/index.html', 'GET'],
      ['app://vorort.evil.example/index.html', 'GET'],
      [`${APP}/index.html`, 'POST'],
      [`${APP}/missing.js`, 'GET'],
    ] as const) {
      const refused = await get(url, method);
      expect(refused.status, url).toBeGreaterThanOrEqual(400);
      expect(refused.body, url).not.toContain(SECRET);
      expect(refused.body, url).not.toContain(INDEX);
      expect(refused.headers['content-security-policy'], url).toBe(policy);
    }
  });

  it('refuses navigation and new windows; a web address goes to the system browser instead', async () => {
    for (const [event, url] of [
      ['will-navigate', 'https://evil.example/'],
      ['will-navigate', `${APP}/index.html`],
      ['will-navigate', 'file:///etc/passwd'],
      ['will-redirect', 'https://evil.example/'],
      ['will-attach-webview', 'https://evil.example/'],
    ] as const)
      expect(await send({ op: 'navigate', event, url }), `${event} ${url}`).toEqual({
        prevented: true,
      });

    expect(await send({ op: 'open', url: 'https://example.org/map?q=1&z=2' })).toEqual({
      action: 'deny',
      opened: ['https://example.org/map?q=1&z=2'],
    });
    for (const url of [
      'http://evil.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      `${APP}/index.html`,
      'smb://evil.example/share',
    ])
      expect(await send({ op: 'open', url }), url).toEqual({ action: 'deny', opened: [] });
  });

  it('answers IPC calls from the top frame of its own window and origin only', async () => {
    const answered = await invoke('app.state', {});
    expect(answered, JSON.stringify(answered)).toMatchObject({
      ok: true,
      value: { phase: 'first-run' },
    });
    for (const from of [
      { sender: 'stranger' as const },
      { frame: { url: 'https://evil.example/' } },
      { frame: { url: 'app://evil.example/index.html' } },
      { frame: { url: 'file:///index.html' } },
      { frame: { url: `${APP}/index.html`, parent: `${APP}/index.html` } },
      { frame: null },
    ]) {
      const refused = await invoke('app.state', {}, from);
      expect(refused, JSON.stringify(from)).toMatchObject({
        ok: false,
        error: { code: 'not_allowed' },
      });
    }
    // A message of another shape than { id, call, args } is refused as the WebSocket's are.
    const odd = await send<Outcome>({
      op: 'invoke',
      message: { id: 7, call: 'app.state', args: {}, extra: true },
      sender: 'window',
      frame: PAGE,
    });
    expect(odd).toMatchObject({ id: 7, ok: false, error: { code: 'invalid_arguments' } });
  });

  it('signs in to the demo through IPC: its sandbox in a worker thread, the first sync in the replica', async () => {
    const signedIn = await send<Outcome>(
      {
        op: 'invoke',
        message: { id: 8, call: 'account.demo', args: { role: 'office' } },
        sender: 'window',
        frame: PAGE,
      },
      90_000,
    );
    expect(signedIn, JSON.stringify(signedIn) + host.output()).toMatchObject({
      id: 8,
      ok: true,
      value: { phase: 'signed-in', demoRole: 'office', demoService: 'online' },
    });
    const account = (signedIn as { value: AppState }).value.account!;
    expect(account.demo).toBe(true);
    expect(account.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    // The sandbox answers on its loopback port (without a token: refused).
    const sandbox = await fetch(`${account.baseUrl}/kalender`);
    expect(sandbox.status).toBe(401);
    await sandbox.arrayBuffer();
    // Under another name (DNS rebinding) it does not answer: the host asked for its Host check.
    const address = new URL(account.baseUrl);
    const rebound = await new Promise<number | undefined>((done, fail) =>
      request(
        {
          host: address.hostname,
          port: address.port,
          path: `${address.pathname}/kalender`,
          headers: { host: `evil.example:${address.port}` },
        },
        (response) => {
          response.resume();
          done(response.statusCode);
        },
      )
        .on('error', fail)
        .end(),
    );
    expect(rebound).toBe(421);

    const synced = await until(
      async () => {
        const scheduler = (await appState()).scheduler;
        return scheduler?.lastSuccessfulSyncAt ? scheduler : undefined;
      },
      'the first sync',
      60_000,
    );
    expect(synced.problem).toBeNull();

    // Linux without a key store (basic_text): the login stored, only obfuscated, and said so.
    const secrets = join(host.userData, 'secrets.safe');
    if (process.platform !== 'win32') expect(statSync(secrets).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(secrets, 'utf8'))).toMatchObject({
      format: 'vorort-safestorage-1',
    });
    if (process.platform === 'linux') {
      expect(host.journal()).toContainEqual({
        kind: 'safeStorage.setUsePlainTextEncryption',
        value: true,
      });
      expect(host.output()).toContain('the login is stored only obfuscated');
    }
    // The page heard the session's events.
    const sent = (await state()).windows[0]!.webContents.sent;
    expect(sent.every((message) => message.channel === 'vorort:event')).toBe(true);
    expect(sent.map((message) => message.type)).toEqual(
      expect.arrayContaining(['app.state', 'sync.state']),
    );
    // The replica is open: SQLite's write-ahead log beside it.
    expect(existsSync(join(host.userData, 'replica.sqlite-wal'))).toBe(true);

    // The login's tokens (the stand-in's scrambling undone) are not in what the window was sent,
    // not in the host's log and not in the replica.
    const scrambled = Buffer.from(
      (JSON.parse(readFileSync(secrets, 'utf8')) as { data: string }).data,
      'base64',
    ).subarray(3);
    const login = JSON.parse(
      Buffer.from(scrambled.map((byte) => byte ^ 0x5a)).toString('utf8'),
    ) as Record<string, unknown>;
    const tokens = Object.entries(login)
      .filter(
        ([key, value]) => /token/i.test(key) && key !== 'tokenUrl' && typeof value === 'string',
      )
      .map(([, value]) => value as string)
      .filter((value) => value.length >= 16);
    expect(tokens.length).toBeGreaterThan(0);
    const replica = ['replica.sqlite', 'replica.sqlite-wal']
      .map((name) => readFileSync(join(host.userData, name)).toString('latin1'))
      .join('');
    for (const token of tokens) {
      expect(JSON.stringify(sent).includes(token)).toBe(false);
      expect(host.output().includes(token)).toBe(false);
      expect(replica.includes(token)).toBe(false);
    }
  }, 150_000);

  it('quits: the window hidden, the demo and the replica closed, then the exit with 0', async () => {
    expect(await send({ op: 'quit' })).toBe(true);
    expect(await exitOf(host), host.output()).toEqual({ code: 0, signal: null });
    const kinds = host.journal().map((entry) => entry.kind);
    expect(kinds).not.toContain('unexpected');
    expect(kinds).not.toContain('dialog.showErrorBox');
    expect(kinds.indexOf('app.quit')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('window.hide')).toBeGreaterThan(kinds.indexOf('app.quit'));
    expect(kinds.at(-1)).toBe('app.exit');
    expect(host.journal().at(-1)).toEqual({ kind: 'app.exit', code: 0 });
    // Where the window was, for the next start.
    expect(
      JSON.parse(readFileSync(join(host.userData, 'window-state.json'), 'utf8')) as unknown,
    ).toMatchObject({ width: expect.any(Number) as unknown, maximized: false });
    // Nothing failed on the way: the start, the session's close.
    expect(host.output()).not.toMatch(/could not start|Vorort: closing:/);
    // The last connection closed checkpoints and removes SQLite's log: the files are whole.
    for (const file of ['replica.sqlite', join('demo', 'sandbox.sqlite')]) {
      expect(existsSync(join(host.userData, file)), file).toBe(true);
      expect(existsSync(join(host.userData, `${file}-wal`)), `${file}-wal`).toBe(false);
      expect(existsSync(join(host.userData, `${file}-shm`)), `${file}-shm`).toBe(false);
    }
  }, 60_000);
});

describe('the host’s other ways in and out', () => {
  it('without better-sqlite3’s Electron build: says what to run in its error box and exits 1', async () => {
    const bare = join(run, 'app-unbuilt');
    appFolder(bare);
    rmSync(join(bare, 'node_modules', '.cache'), { recursive: true });
    const unbuilt = startHost('unbuilt', { appPath: bare });
    expect(await exitOf(unbuilt), unbuilt.output()).toEqual({ code: 1, signal: null });
    const box = unbuilt.journal().find((entry) => entry.kind === 'dialog.showErrorBox');
    expect(box?.content).toContain('Vorort konnte nicht starten.');
    expect(box?.content).toContain(
      `Run in ${bare}: npm run build:native-electron, then npm start.`,
    );
    expect(unbuilt.journal().at(-1)).toEqual({ kind: 'app.exit', code: 1 });
    expect(existsSync(join(unbuilt.userData, 'replica.sqlite'))).toBe(false);
  });

  it('a second instance leaves at once, before it opens anything', async () => {
    const second = startHost('second', { env: { VORORT_STAND_IN_LOCK: 'held' } });
    expect(await exitOf(second), second.output()).toEqual({ code: 0, signal: null });
    expect(second.journal()).toEqual([{ kind: 'app.exit', code: 0 }]);
    expect(existsSync(join(second.userData, 'replica.sqlite'))).toBe(false);
  });

  it('SIGTERM and Windows’ session-end close the replica as a quit does', async () => {
    const ends = [
      ['sigterm', (one: Host) => one.kill('SIGTERM')],
      ['session-end', (one: Host) => void one.send({ op: 'session-end' })],
    ] as const;
    // Windows has no SIGTERM to catch (kill ends the process): its end is session-end.
    for (const [name, end] of ends.filter(
      ([name]) => process.platform !== 'win32' || name !== 'sigterm',
    )) {
      const one = startHost(name);
      await started(one);
      // Its migrations wrote the replica: SQLite's log is beside it while it is open.
      expect(existsSync(join(one.userData, 'replica.sqlite-wal')), name).toBe(true);
      end(one);
      expect(await exitOf(one), one.output()).toEqual({ code: 0, signal: null });
      const kinds = one.journal().map((entry) => entry.kind);
      // A signal quits the app (before-quit); the end of the OS session comes without one.
      expect(kinds.includes('app.quit'), name).toBe(name === 'sigterm');
      expect(kinds.slice(-2), name).toEqual(['window.hide', 'app.exit']);
      expect(one.journal().at(-1)).toEqual({ kind: 'app.exit', code: 0 });
      expect(existsSync(join(one.userData, 'replica.sqlite')), name).toBe(true);
      expect(existsSync(join(one.userData, 'replica.sqlite-wal')), name).toBe(false);
    }
  }, 120_000);
});
