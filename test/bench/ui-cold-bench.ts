// The `ui-cold` case (issue 25): a cold start in browser mode, in Debian's Chromium, on an existing
// `large` replica (10,000 people, all 100,000 hour entries: a first sync and a full one) with the
// service unreachable (the sandbox stopped), against the same on an empty replica (signed in to a
// service that was never there) (target: each ratio at most 1.3):
// - courses: from starting browser mode (the host's session opened on the replica, its server
//   listening) to the office's course list painted in a new tab (the frame after the list shows
//   the rows of its query: `data-search` on course-list);
// - personnel: the same to the personnel list painted, the workspace chosen in the page as soon
//   as its button shows (no driver in between; `data-search` on people-list or its empty state).
// The start time is taken in this process before browser mode starts, the paint in the page; both
// are on the machine's clock (epoch milliseconds). Chromium itself runs already (it is not the
// app's start), each run gets a new context (no cache, no storage); the files are in the OS's
// cache after the first run, as on a computer that used the app yesterday. Runs alternate between
// the two replicas; medians of BENCH_UI_RUNS (default 9) runs each, after one warm-up each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { startBrowserMode, type BrowserMode } from '../../electron/browser-main';
import { openReplica } from '../../sync/db/open';
import type { DemoProvider } from '../../sync/host/session';
import { launchChromium } from '../e2e/support';
import { spawnSandbox, type SandboxInfo } from '../support/sandbox-process';
import { deadBaseUrl, firstSync, fullOfficeSync, median, round } from './ui-bench';

const TARGET = 1.3;

type Screen = 'courses' | 'personnel';

interface Figures {
  coursesMs: number;
  personnelMs: number;
  /** Of coursesMs: browser mode started (the session open on the replica, the server listening). */
  hostMs: number;
}

interface Start {
  /** Ms from starting browser mode to the list painted. */
  paintedMs: number;
  hostMs: number;
}

export async function uiColdBench(): Promise<Record<string, unknown>> {
  const runs = Number(process.env.BENCH_UI_RUNS ?? 9);
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const rendererDir = mkdtempSync(join(tmpdir(), 'vorort-bench-renderer-'));
  const largeDir = mkdtempSync(join(tmpdir(), 'vorort-bench-cold-large-'));
  const emptyDir = mkdtempSync(join(tmpdir(), 'vorort-bench-cold-empty-'));
  let browser: Browser | null = null;
  try {
    await build({
      configFile: join(root, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: rendererDir, emptyOutDir: true, sourcemap: false },
    });
    const counts = await prepareLarge(largeDir, rendererDir);
    await prepareEmpty(emptyDir, rendererDir);

    browser = await launchChromium();
    const start = { rendererDir, browser };
    const samples = { large: [] as Figures[], empty: [] as Figures[] };
    await measure(start, largeDir);
    await measure(start, emptyDir);
    for (let run = 0; run < runs; run++) {
      samples.large.push(await measure(start, largeDir));
      samples.empty.push(await measure(start, emptyDir));
    }
    const summary = (list: Figures[]) => ({
      coursesMs: median(list.map((f) => f.coursesMs)),
      personnelMs: median(list.map((f) => f.personnelMs)),
      hostMs: median(list.map((f) => f.hostMs)),
    });
    const l = summary(samples.large);
    const e = summary(samples.empty);
    const coursesRatio = round(l.coursesMs / e.coursesMs, 2);
    const personnelRatio = round(l.personnelMs / e.personnelMs, 2);
    return {
      scale: 'large',
      runs,
      replica: counts,
      target: `courses and personnel each at most ${TARGET} × the empty replica`,
      large: l,
      empty: e,
      coursesRatio,
      personnelRatio,
      withinTarget: coursesRatio <= TARGET && personnelRatio <= TARGET,
    };
  } finally {
    await browser?.close();
    for (const dir of [rendererDir, largeDir, emptyDir])
      rmSync(dir, { recursive: true, force: true });
  }
}

/** Signed in as the office, the first sync and a full one; then the service goes away. */
async function prepareLarge(dir: string, rendererDir: string): Promise<Record<string, number>> {
  const service = await spawnSandbox(['--scale', 'large', '--seed', '1', '--auto-approve']);
  try {
    const app = await startBrowserMode({ userDataDir: dir, rendererDir, ...asOffice });
    try {
      const synced = firstSync(app);
      await signIn(app, service, service.baseUrl);
      await synced;
    } finally {
      await app.close();
    }
    const replica = openReplica(join(dir, 'replica.sqlite'));
    try {
      await fullOfficeSync(service, replica);
      const count = (table: string) =>
        replica.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
      return {
        users: count('users'),
        courses: count('courses'),
        helferstunden: count('helferstunden'),
      };
    } finally {
      await replica.close();
    }
  } finally {
    // From here on nobody answers at the replica's service address.
    await service.stop();
  }
}

/** Signed in as the office to a service that is not there: an empty replica. */
async function prepareEmpty(dir: string, rendererDir: string): Promise<void> {
  const service = await spawnSandbox(['--scale', 'small', '--seed', '1', '--auto-approve']);
  try {
    const app = await startBrowserMode({ userDataDir: dir, rendererDir, ...asOffice });
    try {
      await signIn(app, service, await deadBaseUrl());
    } finally {
      await app.close();
    }
  } finally {
    await service.stop();
  }
}

/**
 * An account of the service (not the demo, whose service runs with the app and whose login does
 * not outlive it): its login approved as the office's, the browser's part done by a fetch.
 */
const asOffice = {
  demo: {
    start: () => Promise.reject(new Error('the cold start bench signs in with an account')),
  } satisfies DemoProvider,
  openExternal: async (url: string) => {
    const authorize = new URL(url);
    authorize.searchParams.set('login_hint', 'office');
    await (await fetch(authorize, { redirect: 'follow' })).text();
  },
};

/** The account set up (its interface at baseUrl, its login the sandbox's) and signed in. */
async function signIn(app: BrowserMode, service: SandboxInfo, baseUrl: string): Promise<void> {
  const configured = await app.session.call('account.configure', {
    baseUrl,
    authUrl: service.authUrl,
    tokenUrl: service.tokenUrl,
    clientId: service.clientId,
  });
  if (!configured.ok) throw new Error(`account refused: ${JSON.stringify(configured.error)}`);
  const signedIn = await app.session.call('account.login', {});
  if (!signedIn.ok) throw new Error(`sign-in failed: ${JSON.stringify(signedIn.error)}`);
}

/** One cold start per screen: browser mode started on the replica, a new tab, the list painted. */
async function measure(
  start: { rendererDir: string; browser: Browser },
  dir: string,
): Promise<Figures> {
  const courses = await coldStart(start, dir, 'courses');
  const personnel = await coldStart(start, dir, 'personnel');
  return { coursesMs: courses.paintedMs, personnelMs: personnel.paintedMs, hostMs: courses.hostMs };
}

async function coldStart(
  start: { rendererDir: string; browser: Browser },
  dir: string,
  screen: Screen,
): Promise<Start> {
  // The tab is there before the app starts (opening one is the browser's, not the app's).
  const context = await start.browser.newContext({ viewport: { width: 1366, height: 860 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(`(${WATCH_START})(${JSON.stringify(screen)});`);
    const startedAt = performance.timeOrigin + performance.now();
    const app = await startBrowserMode({
      userDataDir: dir,
      rendererDir: start.rendererDir,
      ...asOffice,
    });
    const hostMs = round(performance.timeOrigin + performance.now() - startedAt, 1);
    try {
      await page.goto(app.url);
      const handle = await page.waitForFunction(
        () => window.vorortColdBench?.paintedAt ?? null,
        null,
        { timeout: 60_000 },
      );
      return { paintedMs: round(((await handle.jsonValue()) as number) - startedAt, 1), hostMs };
    } finally {
      await app.close();
    }
  } finally {
    await context.close();
  }
}

declare global {
  interface Window {
    vorortColdBench?: { paintedAt: number | null };
  }
}

/**
 * Runs in the page before its scripts: for personnel, chooses the workspace once its button
 * shows; notes (epoch ms) the frame after the list first shows its query's rows. A string, not
 * a function: the TypeScript loader's helpers would not exist in the page.
 */
const WATCH_START = `(screen) => {
  const bench = { paintedAt: null };
  window.vorortColdBench = bench;
  const list =
    screen === 'courses'
      ? '[data-testid="course-list"][data-search]'
      : '[data-testid="people-list"][data-search], [data-testid="people-empty"][data-search]';
  let chosen = screen === 'courses';
  let seen = false;
  const observer = new MutationObserver(() => {
    if (!chosen) {
      const button = document.querySelector('[data-workspace="personnel"]');
      if (button) {
        chosen = true;
        button.click();
      }
    }
    if (seen || !document.querySelector(list)) return;
    seen = true;
    observer.disconnect();
    requestAnimationFrame(() => {
      bench.paintedAt = performance.timeOrigin + performance.now();
    });
  });
  observer.observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-search'],
  });
}`;
