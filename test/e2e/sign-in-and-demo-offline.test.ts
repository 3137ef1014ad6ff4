// Issue 21, items 2 and 3, in a real browser (browser mode, Chromium through playwright-core).
// Signing in where no browser window opened (--no-open, no display): the page shows the sign-in
// page's address as a link and to copy, the link leads to the sign-in, and "cancel" ends the
// login (its listener closes). The demo taken offline and back from the screens: the indicator
// says offline, a change waits (also through "sync now"), reconnected it is sent by itself. Signed out with the data
// deleted, the page says so and nothing about changes kept; either demo role starts again.
// Screenshots at 1366×860 and 1024×700, German and English, go to test-artifacts/e2e/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listening } from '../support/loopback-port';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../electron/browser-main';
import { sandboxDemo } from '../../electron/demo';
import { demoWorker, syncWorker } from '../support/bundled';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import {
  accessibilityViolations,
  buildRenderer,
  chromiumPresent,
  collectPageErrors,
  fillAccountForm,
  coreClient,
  indicator,
  LAPTOP,
  launchChromium,
  pendingOf,
  phaseOf,
  recordFailure,
  shot,
  SMALL_LAPTOP,
} from './support';

const haveChromium = chromiumPresent('sign-in and demo offline e2e');

const SIZES = [LAPTOP, SMALL_LAPTOP] as const;

/** The page at both sizes (the window as a person sees it), then back to the first. */
async function shotsAtBothSizes(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await shot(page, `${name}-${size.width}x${size.height}`, false);
  }
  await page.setViewportSize(SIZES[0]);
}

async function chooseLanguage(page: Page, language: 'de' | 'en'): Promise<void> {
  await page.locator('.language-switch select').first().selectOption(language);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
}

describe.skipIf(!haveChromium)('signing in without a browser; the demo offline', () => {
  let rendererDir: string;
  let removeRenderer: () => void;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const folders: string[] = [];
  const apps: BrowserMode[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    const renderer = await buildRenderer();
    rendererDir = renderer.dir;
    removeRenderer = renderer.remove;
    browser = await launchChromium();
  }, 120_000);

  async function openApp(options: Partial<Parameters<typeof startBrowserMode>[0]>) {
    const userDataDir = mkdtempSync(join(tmpdir(), 'vorort-e2e-sign-in-'));
    folders.push(userDataDir);
    const app = await startBrowserMode({
      userDataDir,
      rendererDir,
      demo: sandboxDemo(demoWorker),
      ...syncWorker,
      ...options,
    });
    apps.push(app);
    context = await browser.newContext({ viewport: SIZES[0], locale: 'de-DE' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(app.url).origin,
    });
    page = await context.newPage();
    collectPageErrors(page, consoleErrors);
    await page.goto(app.url);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Willkommen bei Vorort' }).count())
      .toBe(1);
    return app;
  }

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await recordFailure(page, 'sign-in-', test.task.name, consoleErrors);
  });

  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    removeRenderer?.();
  }, 60_000);

  it('no browser opened: the page offers the sign-in address (link, copy), which signs in; cancel ends the login', async () => {
    const sandbox: RunningSandbox = await startSandbox({
      port: 0,
      scale: 'small',
      prefix: '/core/v1',
      autoApprove: true,
    });
    try {
      // As with --no-open without a display: the "system browser" opens nothing.
      const opened: string[] = [];
      await openApp({
        openExternal: async (url) => {
          opened.push(url);
        },
      });
      const form = await fillAccountForm(page, sandbox);
      await form.getByRole('button', { name: 'Anmelden', exact: true }).click();

      await expect
        .poll(() => page.getByRole('heading', { name: 'Anmeldung im Browser' }).count())
        .toBe(1);
      await expect.poll(() => opened.length).toBe(1);
      const address = opened[0]!;
      expect(address.startsWith(sandbox.authUrl)).toBe(true);
      await expect.poll(() => page.getByTestId('sign-in-link').getAttribute('href')).toBe(address);
      expect(await page.getByTestId('sign-in-link').getAttribute('target')).toBe('_blank');
      expect(await page.getByTestId('sign-in-address').inputValue()).toBe(address);
      expect(await page.locator('main').textContent()).not.toContain('das sich geöffnet hat');
      await shotsAtBothSizes(page, 'sign-in-01-address-de');
      expect(await accessibilityViolations(page)).toEqual([]);

      // Copy: the address is on the clipboard.
      await page.getByRole('button', { name: 'Adresse kopieren' }).click();
      await expect
        .poll(() => page.locator('.sign-in-address [role=status]').textContent())
        .toBe('Kopiert.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

      await chooseLanguage(page, 'en');
      await expect
        .poll(() => page.getByTestId('sign-in-link').textContent())
        .toBe('Open the sign-in page');
      await shotsAtBothSizes(page, 'sign-in-02-address-en');
      expect(await accessibilityViolations(page)).toEqual([]);

      // Cancel: the login's listener closes, the page is signed out, no error shown.
      const redirect = new URL(new URL(address).searchParams.get('redirect_uri') ?? '');
      expect(await listening(Number(redirect.port))).toBe(true);
      await page.getByRole('button', { name: 'Cancel sign-in' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Signed out' }).count()).toBe(1);
      await expect.poll(() => listening(Number(redirect.port))).toBe(false);
      expect(await page.locator('.error-item').count()).toBe(0);
      await shotsAtBothSizes(page, 'sign-in-03-cancelled-en');

      // Again, and this time the link: a new tab at the service, which signs in.
      await page.getByRole('button', { name: 'Sign in again' }).click();
      await expect.poll(() => opened.length).toBe(2);
      await expect
        .poll(() => page.getByTestId('sign-in-link').getAttribute('href'))
        .toBe(opened[1]);
      const [tab] = await Promise.all([
        context.waitForEvent('page'),
        page.getByTestId('sign-in-link').click(),
      ]);
      await expect
        .poll(() => tab.locator('body').textContent(), { timeout: 15_000 })
        .toContain('You are signed in to Vorort');
      await indicator(page).waitFor({ timeout: 30_000 });
      expect(await page.locator('.error-item').count()).toBe(0);
      await tab.close();
      expect(consoleErrors).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 240_000);

  it('the demo offline from the screens: offline, a change waits, reconnected it is sent; signed out with the data deleted, either role again', async () => {
    const app = await openApp({
      openExternal: async () => {
        throw new Error('no system browser in this test (the demo signs in by itself)');
      },
    });
    await page.getByRole('button', { name: 'Demo starten' }).click();
    await indicator(page).waitFor({ timeout: 60_000 });
    await expect.poll(() => phaseOf(page), { timeout: 120_000 }).toBe('idle');
    const control = page.getByTestId('demo-service');
    await expect.poll(() => control.getAttribute('data-offline')).toBe('false');
    await shotsAtBothSizes(page, 'demo-offline-01-online-de');

    await control.getByRole('button', { name: 'Dienst offline nehmen' }).click();
    await expect.poll(() => control.getAttribute('data-offline')).toBe('true');
    // As a computer at a venue without network: offline at once, the probes find nobody.
    await expect.poll(() => phaseOf(page), { timeout: 15_000 }).toBe('offline');
    await expect.poll(() => page.getByTestId('sync-online').textContent()).toBe('Offline');

    // A change made now waits in the outbox.
    const client = await coreClient(app.server);
    try {
      const receipt = (await client.call('kalender.create', {
        attributes: { name: 'Ohne Netz (e2e)', farbe: '#1a2b3c' },
      })) as { state: string };
      expect(receipt.state).toBe('pending');
    } finally {
      client.close();
    }
    await expect.poll(() => pendingOf(page), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Jetzt synchronisieren' }).click();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await pendingOf(page)).toBe(1);
    expect(await phaseOf(page)).toBe('offline');
    await shotsAtBothSizes(page, 'demo-offline-02-offline-de');
    expect(await accessibilityViolations(page)).toEqual([]);
    await chooseLanguage(page, 'en');
    await expect
      .poll(() => control.getByRole('button').textContent())
      .toBe('Reconnect the service');
    await shotsAtBothSizes(page, 'demo-offline-03-offline-en');
    await chooseLanguage(page, 'de');

    // Reconnected: the change is sent, nobody asks.
    await control.getByRole('button', { name: 'Dienst wieder verbinden' }).click();
    await expect.poll(() => pendingOf(page), { timeout: 60_000, interval: 200 }).toBe(0);
    await expect.poll(() => phaseOf(page), { timeout: 30_000 }).toBe('idle');

    // Signed out deleting the data: the page says so, and nothing about changes kept.
    await page.getByRole('button', { name: 'Abmelden' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Auch die Daten auf diesem Computer löschen').check();
    await dialog.getByRole('button', { name: 'Abmelden und Daten löschen' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Abgemeldet' }).count()).toBe(1);
    const text = page.getByTestId('signed-out-text');
    await expect.poll(() => text.textContent()).toContain('wurden gelöscht');
    expect(await page.locator('main').textContent()).not.toMatch(/bleib(t|en) auf diesem Computer/);
    const again = page.getByRole('button', { name: 'Demo erneut starten (Büro)' });
    const other = page.getByRole('button', { name: 'Demo als Kursleitung starten' });
    expect(await again.count()).toBe(1);
    expect(await other.count()).toBe(1);
    await shotsAtBothSizes(page, 'demo-offline-04-signed-out-deleted-de');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The other role; offline, a change; signed out keeping it: the page says it stays.
    await other.click();
    await indicator(page).waitFor({ timeout: 60_000 });
    await expect.poll(() => phaseOf(page), { timeout: 120_000 }).toBe('idle');
    await control.getByRole('button', { name: 'Dienst offline nehmen' }).click();
    await expect.poll(() => phaseOf(page), { timeout: 15_000 }).toBe('offline');
    const trainer = await coreClient(app.server);
    try {
      await trainer.call('kalender.create', {
        attributes: { name: 'Kursleitung ohne Netz (e2e)', farbe: '#2b3c4d' },
      });
    } finally {
      trainer.close();
    }
    await expect.poll(() => pendingOf(page), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await dialog.getByRole('button', { name: 'Abmelden', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Abgemeldet' }).count()).toBe(1);
    await expect
      .poll(() => text.textContent())
      .toContain(
        '1 Änderung ist noch nicht beim Dienst angekommen: sie bleibt auf diesem Computer',
      );
    expect(await text.textContent()).not.toContain('gelöscht');
    expect(
      await page.getByRole('button', { name: 'Demo erneut starten (Kursleitung)' }).count(),
    ).toBe(1);
    expect(await page.getByRole('button', { name: 'Demo als Büro starten' }).count()).toBe(1);
    await shotsAtBothSizes(page, 'demo-offline-05-signed-out-pending-de');
    await chooseLanguage(page, 'en');
    await shotsAtBothSizes(page, 'demo-offline-06-signed-out-pending-en');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The same role again: the demo starts online, the change is sent.
    await page.getByRole('button', { name: 'Start the demo again (trainer)' }).click();
    await indicator(page).waitFor({ timeout: 60_000 });
    await expect.poll(() => pendingOf(page), { timeout: 120_000, interval: 200 }).toBe(0);
    expect(await control.getAttribute('data-offline')).toBe('false');
    expect(consoleErrors).toEqual([]);
  }, 480_000);
});
