// The calendar feed's settings and an export button in a real browser (issue 13, the app's side):
// browser mode on the demo, driven by playwright-core with Debian's Chromium (never `playwright
// install`). The feed's address entered in its password-like field and saved: fetched at once,
// the page shows "https://host/…" and the count, never the secret path (not in the page, not in
// the field any more); its events exported with the card's button arrive as a browser download
// (read back with ical.js: as many events as the replica holds); a bad address is refused beside
// the field in words; removal asks first. Screenshots go to test-artifacts/e2e/ (look at them).
// Skipped, saying so, where /usr/bin/chromium is missing (apt-get install -y chromium).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import axeCore from 'axe-core';
import { build } from 'vite';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserMode } from '../../electron/browser-main';
import { sandboxDemo } from '../../electron/demo';
import { demoWorker, syncWorker } from '../support/bundled';
import type { BrowserServer } from '../../sync/host/browser-server';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing in CI`);
if (!haveChromium)
  process.stderr.write(
    `export e2e skipped: ${CHROMIUM} is missing (apt-get install -y chromium)\n`,
  );

/** One call of the core over the WebSocket (as another window would make it). */
async function coreCall(server: BrowserServer, name: string, args: unknown): Promise<unknown> {
  const socket = new WebSocket(server.socketUrl, [server.protocol], {
    origin: `http://127.0.0.1:${server.port}`,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return await new Promise((resolve, reject) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; ok?: boolean; value?: unknown };
        if (message.id !== 1) return;
        if (message.ok) resolve(message.value);
        else reject(new Error(JSON.stringify(message)));
      });
      socket.send(JSON.stringify({ id: 1, call: name, args }));
    });
  } finally {
    socket.close();
  }
}

async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeCore.source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof axeCore }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
  });
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

describe.skipIf(!haveChromium)('export and the calendar feed in the browser', () => {
  let userData: string;
  let rendererDir: string;
  let browser: Browser;
  let page: Page;
  let app: BrowserMode;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    rendererDir = mkdtempSync(join(tmpdir(), 'vorort-export-renderer-'));
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: rendererDir, emptyOutDir: true, sourcemap: false },
    });
    userData = mkdtempSync(join(tmpdir(), 'vorort-export-user-'));
    app = await startBrowserMode({
      userDataDir: userData,
      rendererDir,
      demo: sandboxDemo(demoWorker),
      ...syncWorker,
      openExternal: async () => {
        throw new Error('no system browser in this test (the demo signs in by itself)');
      },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
      locale: 'de-DE',
      acceptDownloads: true,
    });
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));
  }, 120_000);

  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail' || !page) return;
    await shot(page, 'export-failed').catch(() => {});
    if (consoleErrors.length) process.stderr.write(`page errors:\n${consoleErrors.join('\n')}\n`);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    for (const dir of [userData, rendererDir])
      if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('sets the feed in the settings, shows it without its secret, downloads its events as .ics, removes it', async () => {
    await page.goto(app.url);
    await page.getByRole('button', { name: 'Demo starten' }).click();
    await expect
      .poll(() => page.getByTestId('sync-indicator').getAttribute('data-phase'), {
        timeout: 120_000,
      })
      .toBe('idle');
    const calendars = (await coreCall(app.server, 'calendars.list', {})) as {
      id: string;
      icalAddress: string | null;
    }[];
    const own = calendars.find((calendar) => calendar.icalAddress);
    const feedUrl = (await coreCall(app.server, 'calendars.icalUrl', { id: own!.id })) as
      string | null;
    expect(feedUrl).toBeTruthy();
    const secret = new URL(feedUrl!).pathname;

    await page.getByRole('button', { name: 'Einstellungen' }).click();
    const card = page.getByTestId('feed-settings');
    await expect
      .poll(() => card.getByTestId('feed-state').textContent())
      .toBe('Kein Kalender-Feed eingerichtet.');
    const field = card.getByLabel('Adresse des Feeds');
    expect(await field.getAttribute('type')).toBe('password');

    // A bad address: refused beside the field, in words, nothing set up.
    await field.fill('http://example.org/ical/v1/veranstaltungen/private-0badc0de/termine.ics');
    await card.getByTestId('feed-save').click();
    const error = card.getByTestId('feed-field').locator('.field-error');
    await expect.poll(() => error.textContent()).toContain('muss mit https:// beginnen');
    expect(await error.textContent()).not.toContain('0badc0de');
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    // The own feed: saved and fetched at once; shown as host/… with its count.
    await field.fill(feedUrl!);
    await card.getByTestId('feed-save').click();
    await expect
      .poll(() => card.getByTestId('feed-status').textContent(), { timeout: 30_000 })
      .toMatch(/^Gespeichert: \d+ Termine? abgerufen\.$/);
    const events = Number((await card.getByTestId('feed-status').textContent())!.match(/\d+/)![0]);
    expect(events).toBeGreaterThan(0);
    expect(await card.getByTestId('feed-address').textContent()).toBe(
      `${new URL(feedUrl!).origin}/…`,
    );
    expect(await card.getByTestId('feed-state').textContent()).toContain(
      `${events} Termin${events === 1 ? '' : 'e'} auf diesem Computer`,
    );
    expect(await field.inputValue()).toBe('');
    expect(await page.content()).not.toContain(secret);
    await shot(page, 'export-01-feed-set');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Its events as a download: the file the browser saved is the replica's calendar.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByTestId('feed-export').click(),
    ]);
    expect(download.suggestedFilename()).toBe('termine.ics');
    const path = await download.path();
    const parsed = new ICAL.Component(ICAL.parse(readFileSync(path, 'utf8')) as unknown[]);
    expect(parsed.getAllSubcomponents('vevent')).toHaveLength(events);
    await expect
      .poll(() => card.getByTestId('feed-export-status').textContent())
      .toBe(`${events} Termine heruntergeladen (termine.ics)`);
    expect(await card.getByTestId('feed-export-status').getAttribute('role')).toBe('status');
    await shot(page, 'export-02-downloaded');

    // Removed after a confirmation: nothing set up, nothing to export.
    await card.getByTestId('feed-remove').click();
    const dialog = page.getByTestId('feed-remove-dialog');
    await dialog.getByRole('button', { name: 'Feed entfernen' }).click();
    await expect
      .poll(() => card.getByTestId('feed-status').textContent())
      .toBe('Kalender-Feed entfernt.');
    expect(await card.getByTestId('feed-state').textContent()).toBe(
      'Kein Kalender-Feed eingerichtet.',
    );
    expect(await card.getByTestId('feed-export').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  }, 240_000);
});
