// What the browser end-to-end tests share: Debian's Chromium through playwright-core (never
// `playwright install`), the renderer built as `npm run build:renderer` builds it (into a folder
// of the run), axe-core's WCAG 2 A/AA rules on the page as it is, screenshots in
// test-artifacts/e2e/ (look at them), the sync indicator read as the page shows it, a
// second client of the core over browser mode's WebSocket, the two window sizes a screen must
// serve, and the sandbox the trainer's tests sign in to (with its admin interface: the office's
// changes in the service's web interface).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type ConsoleMessage,
  type Locator,
  type Page,
} from 'playwright-core';
import axeCore from 'axe-core';
import BetterSqlite3 from 'better-sqlite3';
import WebSocket from 'ws';
import { build } from 'vite';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import type { BrowserServer } from '../../sync/host/browser-server';
import { userDataFiles } from '../../sync/host/files';
import type { DemoProvider } from '../../sync/host/session';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');

/** The window sizes every screen must serve: a 14-inch laptop and a small one. */
export const LAPTOP = { width: 1366, height: 860 } as const;
export const SMALL_LAPTOP = { width: 1024, height: 700 } as const;

/** For an app that signs in with a real account: nobody should start the demo there. */
export const noDemo: DemoProvider = {
  start: () => Promise.reject(new Error('this test signs in with a real account, not the demo')),
};

/** The sandbox a trainer's test signs in to: small demo data of seed 1, logins approved by themselves, the admin interface on. */
export function startTrainerSandbox(): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    scale: 'small',
    seed: 1,
    prefix: '/core/v1',
    autoApprove: true,
    admin: true,
  });
}

/** A change through the sandbox's admin interface (as the office in the service's web interface); its JSON answer. */
export async function adminRequest(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${sandbox.admin!.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.admin!.token}`,
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

/**
 * Whether the browser is there. CI installs it (.ci/run): there a missing browser is a failure,
 * never a quiet skip; elsewhere the test says that it skips.
 */
export function chromiumPresent(what: string): boolean {
  const present = existsSync(CHROMIUM);
  if (!present && process.env.CI) throw new Error(`${CHROMIUM} is missing in CI`);
  if (!present)
    process.stderr.write(`${what} skipped: ${CHROMIUM} is missing (apt-get install -y chromium)\n`);
  return present;
}

/**
 * The renderer as `npm run build:renderer` builds it (React's production build: vitest sets
 * NODE_ENV to "test", which Vite would otherwise take for a development build), into a temporary
 * folder; remove() after.
 */
export async function buildRenderer(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'vorort-e2e-renderer-'));
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir: dir, emptyOutDir: true, sourcemap: false },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Headless Chromium without its background traffic; `args` adds flags. `language` (e.g. "de")
 * is the browser's own language, which its date and time inputs follow: headless Chromium takes
 * it from LANGUAGE, not from --lang, and needs Debian's chromium-l10n for it.
 */
export function launchChromium(args: string[] = [], language?: string): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...args,
    ],
    ...(language ? { env: { ...process.env, LANGUAGE: language } } : {}),
  });
}

/** Collects what the page says is wrong: console errors and uncaught exceptions. */
export function collectPageErrors(page: Page, into: string[]): void {
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') into.push(message.text());
  });
  page.on('pageerror', (error) => into.push(`page error: ${error.message}`));
}

export const indicator = (page: Page) => page.getByTestId('sync-indicator');
export const phaseOf = (page: Page) => indicator(page).getAttribute('data-phase');
export const pendingOf = async (page: Page) =>
  Number(await page.getByTestId('sync-pending').getAttribute('data-count'));

/**
 * axe-core's WCAG 2 A/AA rules on the page as it is: the violations, each with its rule, its
 * impact and the elements. Injected through the debugging protocol (an inline script would meet
 * the CSP).
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeCore.source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof axeCore }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map(
      (v) =>
        `${v.id} (${v.impact ?? 'no impact'}): ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .join(', ')})`,
    );
  });
}

/** test-artifacts/e2e/<name>.png: the whole page, or (fullPage false) the window as a person sees it. */
export async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

/** A failed step leaves its picture (failed-<step>.png) and what the page said. */
export async function recordFailure(
  page: Page | undefined,
  prefix: string,
  step: string,
  pageErrors: string[],
): Promise<void> {
  if (!page || page.isClosed()) return;
  const name = `${prefix}failed-${step.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`;
  await shot(page, name).catch(() => {});
  if (pageErrors.length) process.stderr.write(`page errors:\n${pageErrors.join('\n')}\n`);
}

/** A second client of the core over the same WebSocket (as another window would be). */
export async function coreClient(server: BrowserServer) {
  const socket = new WebSocket(server.socketUrl, [server.protocol], {
    origin: `http://127.0.0.1:${server.port}`,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const call = (name: string, args: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as {
          id?: number;
          ok?: boolean;
          value?: unknown;
          error?: unknown;
        };
        if (message.id !== id) return;
        socket.off('message', onMessage);
        if (message.ok) resolve(message.value);
        else reject(new Error(JSON.stringify(message.error)));
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, call: name, args }));
    });
  return { call, close: () => socket.close() };
}

/**
 * The first run's account form filled for a sandbox (its interface at `apiUrl` when that is
 * reached through a switch); the form, for the test's own click on "Anmelden".
 */
export async function fillAccountForm(
  page: Page,
  sandbox: RunningSandbox,
  apiUrl = sandbox.baseUrl,
): Promise<Locator> {
  const form = page.locator('form.account-form');
  await form.waitFor();
  await form.getByLabel('Adresse der Schnittstelle').fill(apiUrl);
  await form.getByLabel('Adresse der Anmeldung (OAuth authorize)').fill(sandbox.authUrl);
  await form.getByLabel('Adresse der Token-Ausgabe (OAuth token)').fill(sandbox.tokenUrl);
  await form.getByLabel('Client-ID', { exact: true }).fill(sandbox.clientId);
  return form;
}

/**
 * Makes the app's replica hold a course as last confirmed `ms` before `at`: the state a minute
 * of waiting leaves (the refresh and the sync ask for a course again by its confirmation's age),
 * without the minute.
 */
export function confirmCourseAt(userDataDir: string, courseId: string, at: number): void {
  const replica = new BetterSqlite3(userDataFiles(userDataDir).replica, { timeout: 5_000 });
  try {
    const aged = replica
      .prepare("UPDATE confirmations SET confirmed_at = ? WHERE scope = 'course' AND id = ?")
      .run(new Date(at).toISOString(), courseId);
    if (aged.changes !== 1) throw new Error(`course ${courseId} has no confirmation to age`);
  } finally {
    replica.close();
  }
}
