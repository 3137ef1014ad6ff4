// The demo's start in a real browser (issue 21 item 4): from the click on "Demo starten" the page
// says the step in words (the practice service starting, which at its first start makes the
// sample data, then its login) with its seconds, and the first sync's progress names the
// collections in words, never a raw name ("customfields"). The demo's service is held back until
// the pictures are taken (test-artifacts/e2e/demo-start-*.png: look at them). Skipped, saying so,
// where /usr/bin/chromium is missing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../electron/browser-main';
import { sandboxDemo } from '../../electron/demo';
import { demoWorker, syncWorker } from '../support/bundled';
import type { DemoProvider } from '../../sync/host/session';
import {
  accessibilityViolations,
  buildRenderer,
  chromiumPresent,
  collectPageErrors,
  indicator,
  launchChromium,
  phaseOf,
  shot,
} from './support';

const haveChromium = chromiumPresent('demo-start e2e');

describe.runIf(haveChromium)('the demo starting, in a browser', () => {
  let browser: Browser;
  let page: Page;
  let app: BrowserMode;
  let userData: string;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const renderer = await buildRenderer();
    userData = mkdtempSync(join(tmpdir(), 'vorort-e2e-demo-start-'));
    // The real demo, its start held until the test lets it go.
    const demo: DemoProvider = {
      async start(dataDir) {
        await held;
        return sandboxDemo(demoWorker).start(dataDir);
      },
    };
    app = await startBrowserMode({
      userDataDir: userData,
      rendererDir: renderer.dir,
      demo,
      ...syncWorker,
      openExternal: async () => {
        throw new Error('no system browser in this test (the demo signs in by itself)');
      },
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1366, height: 860 }, locale: 'de-DE' });
    collectPageErrors(page, pageErrors);
    return renderer.remove;
  }, 180_000);

  afterAll(async () => {
    release();
    await browser?.close();
    await app?.close();
    if (userData) rmSync(userData, { recursive: true, force: true });
  }, 60_000);

  it('says each step from the click on, then the sync in words', async () => {
    await page.goto(app.url);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Willkommen bei Vorort' }).count())
      .toBe(1);
    // Every text of the indicator's state, as the page shows it (50 ms apart).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { syncTexts: string[] }).syncTexts = seen;
      window.setInterval(() => {
        const text = document.querySelector('[data-testid="sync-state"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }, 50);
    });

    await page.getByRole('button', { name: 'Demo starten' }).click();
    const step = page.getByTestId('demo-step');
    await expect.poll(() => step.textContent(), { timeout: 5_000 }).toContain('Übungsdienst');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Demo wird gestartet');
    expect(await page.locator('.demo-steps li[aria-current="step"]').textContent()).toBe(
      'Übungsdienst starten',
    );
    // Its seconds go on while the service starts.
    await expect
      .poll(() => page.locator('main').textContent(), { timeout: 5_000 })
      .toMatch(/seit [1-9]\d* s/);
    await shot(page, 'demo-start-1366', false);
    await page.setViewportSize({ width: 1024, height: 700 });
    await shot(page, 'demo-start-1024', false);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 860 });

    release();
    await indicator(page).waitFor({ timeout: 90_000 });
    await expect.poll(() => phaseOf(page), { timeout: 120_000 }).toBe('idle');
    const texts = await page.evaluate(
      () => (window as unknown as { syncTexts: string[] }).syncTexts,
    );
    // "Synchronisiere Teilnahmen", never "Synchronisiere participations".
    expect(texts.filter((text) => /^Synchronisiere [a-z_]/.test(text))).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
