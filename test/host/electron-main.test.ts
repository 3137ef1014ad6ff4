// The Electron host's logic, run: the built main.mjs (electron/build-bundles.mjs, as
// `npm run build:electron` builds it, here into a folder of this run) in a child Node process with
// a stand-in `electron` module (test/support/electron-stand-in.ts). Electron's binary cannot be
// downloaded on the build machines, so the real window runs only in the release workflow's smoke
// test; this shows what the host does with Electron's API there: the window sandboxed and
// isolated with a CommonJS preload, the renderer served over app:// with its CSP and nothing
// outside it or of another origin, navigation and new windows refused, the IPC binding answering
// the app's own top frame only, the demo signed in through that channel (its sandbox in a worker
// thread, the first sync in the sync's worker) and quitting closing the replica before the exit.
// The renderer is a small stand-in page (vite's build takes too long for a test); better-sqlite3's
// Node build sits where the host looks for its Electron build (an app folder of this run).
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
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
let userData: string;
let appPath: string;
let journalFile: string;
let child: ChildProcess;
let output = '';
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

interface Answer {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}
let nextId = 0;
const waiting = new Map<number, (answer: Answer) => void>();

/** One command to the stand-in in the child; its value, or a failure with the child's output. */
async function send<T>(command: Command, ms = 30_000): Promise<T> {
  const id = (nextId += 1);
  const answer = await new Promise<Answer>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command.op}: no answer\n${output}`)), ms);
    waiting.set(id, (message) => {
      clearTimeout(timer);
      done(message);
    });
    child.send({ id, command });
  });
  if (!answer.ok) throw new Error(`${command.op}: ${answer.error}\n${output}`);
  return answer.value as T;
}

interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: string;
}
const get = (url: string, method = 'GET') => send<Fetched>({ op: 'fetch', url, method });

type Outcome =
  { id?: number; ok: true; value: unknown } | { id?: number; ok: false; error: { code: string } };
const invoke = (
  call: string,
  args: unknown,
  from: { sender?: 'window' | 'stranger'; frame?: FrameSpec | null } = {},
) =>
  send<Outcome>({
    op: 'invoke',
    message: { id: nextId, call, args },
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
const state = () => send<StandInState>({ op: 'state' });

const journal = () =>
  existsSync(journalFile)
    ? readFileSync(journalFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { kind: string } & Record<string, unknown>)
    : [];

async function until<T>(check: () => Promise<T | undefined>, what: string, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The app's folder as the stand-in's app.getAppPath() answers it: Node's build at Electron's place. */
function appFolder(dir: string): void {
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '.cache', 'vorort-electron'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  const sqlite = dirname(require.resolve('better-sqlite3/package.json'));
  symlinkSync(sqlite, join(modules, 'better-sqlite3'), 'dir');
  symlinkSync(
    dirname(require.resolve('bindings/package.json', { paths: [sqlite] })),
    join(modules, 'bindings'),
    'dir',
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
  userData = join(run, 'user-data');
  journalFile = join(run, 'journal.jsonl');

  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('VORORT_')) env[key] = value;
  child = fork(
    join(run, 'stand-in', 'electron-stand-in-register.mjs'),
    [join(run, 'electron', 'main.mjs'), '--user-data', userData],
    {
      cwd: run,
      execArgv: [],
      env: {
        ...env,
        VORORT_STAND_IN_APP_PATH: appPath,
        VORORT_STAND_IN_JOURNAL: journalFile,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  child.on('message', (message: Answer) => waiting.get(message.id)?.(message));
  exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  void exited.then(({ code }) => {
    for (const [id, done] of waiting)
      done({ id, ok: false, error: `the host exited (${code}) before it answered` });
  });
  await until(
    async () => ((await state()).windows[0]?.loads.length ? true : undefined),
    'the window to load its page',
    45_000,
  );
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
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
    expect(now.paths).toEqual({ userData, sessionData: join(userData, 'electron') });
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
    expect(signedIn, JSON.stringify(signedIn) + output).toMatchObject({
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
    const secrets = join(userData, 'secrets.safe');
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(secrets, 'utf8'))).toMatchObject({
      format: 'vorort-safestorage-1',
    });
    if (process.platform === 'linux') {
      expect(journal()).toContainEqual({
        kind: 'safeStorage.setUsePlainTextEncryption',
        value: true,
      });
      expect(output).toContain('the login is stored only obfuscated');
    }
    // The page heard the session's events.
    const sent = (await state()).windows[0]!.webContents.sent;
    expect(sent.every((message) => message.channel === 'vorort:event')).toBe(true);
    expect(sent.map((message) => message.type)).toEqual(
      expect.arrayContaining(['app.state', 'sync.state']),
    );
    // The replica is open: SQLite's write-ahead log beside it.
    expect(existsSync(join(userData, 'replica.sqlite-wal'))).toBe(true);
  }, 150_000);

  it('quits: the window hidden, the demo and the replica closed, then the exit with 0', async () => {
    expect(await send({ op: 'quit' })).toBe(true);
    const end = await Promise.race([
      exited,
      new Promise<null>((done) => setTimeout(() => done(null), 30_000)),
    ]);
    expect(end, output).toEqual({ code: 0, signal: null });
    const kinds = journal().map((entry) => entry.kind);
    expect(kinds).not.toContain('unexpected');
    expect(kinds).not.toContain('dialog.showErrorBox');
    expect(kinds.indexOf('app.quit')).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf('window.hide')).toBeGreaterThan(kinds.indexOf('app.quit'));
    expect(kinds.at(-1)).toBe('app.exit');
    expect(journal().at(-1)).toEqual({ kind: 'app.exit', code: 0 });
    // Nothing failed on the way: the start, the session's close.
    expect(output).not.toMatch(/could not start|Vorort: closing:/);
    // The last connection closed checkpoints and removes SQLite's log: the files are whole.
    for (const file of ['replica.sqlite', join('demo', 'sandbox.sqlite')]) {
      expect(existsSync(join(userData, file)), file).toBe(true);
      expect(existsSync(join(userData, `${file}-wal`)), `${file}-wal`).toBe(false);
      expect(existsSync(join(userData, `${file}-shm`)), `${file}-shm`).toBe(false);
    }
  }, 60_000);
});
