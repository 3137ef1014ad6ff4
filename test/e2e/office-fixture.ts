// What the office's browser tests share (office-*.test.ts): the renderer built once per file, the
// trainer's sandbox (small demo data, seed 1, admin interface) with its interface reached through
// a switch that cuts it (the service gone and back, the sandbox keeping its logins), browser mode on
// a user data folder of the run with a login that approves the account `loginHint` names (with the
// scopes of `loginScope`, or all its role may use), Debian's Chromium with a page at 1366×860
// collecting what the page says is wrong, and the failure's picture. `useOfficeApp` registers the
// hooks in the calling describe (before the file's own: its beforeAll may rely on the fixture's);
// the fields are set once they have run.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../electron/browser-main';
import type { RunningSandbox, SandboxUser } from '../../sandbox/server';
import { formatBerlinDate, formatBerlinDateTime } from '../../sandbox/data/time';
import { syncWorker } from '../support/bundled';
import { TcpSwitch } from '../support/tcp-switch';
import {
  accessibilityViolations,
  ARTIFACTS,
  buildRenderer,
  collectPageErrors,
  fillAccountForm,
  LAPTOP,
  launchChromium,
  noDemo,
  phaseOf,
  recordFailure,
  startTrainerSandbox,
} from './support';

export interface OfficeAppOptions {
  /** The user data folder's name: vorort-e2e-<name>-XXXXXX in the system's temporary folder. */
  name: string;
  /**
   * The prefixes of the pictures this file leaves in test-artifacts/e2e/: those of an earlier run
   * are removed first; a failed test's picture takes the first.
   */
  artifacts: readonly string[];
  /** The page may read and write the clipboard (a copied address read back). */
  clipboard?: boolean;
  /** After a failed test's picture: what puts the page back for the next test. */
  afterFailure?: (fixture: OfficeApp) => Promise<void>;
}

/** A signed-in app besides the office's (another host, another context of the same browser). */
export interface OtherLogin {
  page: Page;
  pageErrors: string[];
  close(): Promise<void>;
}

export class OfficeApp {
  sandbox!: RunningSandbox;
  rendererDir!: string;
  userData!: string;
  browser!: Browser;
  context!: BrowserContext;
  /** The office's page (a new one after reopen()). */
  page!: Page;
  /** The office's browser-mode host (a new one after reopen()). */
  app!: BrowserMode;
  /** What the office's pages said was wrong (console errors, uncaught exceptions). */
  readonly pageErrors: string[] = [];
  /** The switch in front of the service's interface, and the interface's address through it. */
  service!: TcpSwitch;
  apiUrl = '';
  /** The account the next login approves (the sandbox's login_hint). */
  loginHint = 'office';
  /** The scopes the next login asks for (null: all the role may use). */
  loginScope: string | null = null;
  /** The first test signed in: the later ones build on it. */
  signedIn = false;
  private up = false;
  private readonly removers: (() => void)[] = [];

  constructor(readonly options: OfficeAppOptions) {}

  /** The office's account on the sandbox, with a token of every scope of its role. */
  officeUser(): SandboxUser {
    return this.sandbox.users.find((user) => user.role === 'office')!;
  }

  /** A JSON answer of the service as any client reads it (plain HTTP, the office's token), 200 expected. */
  async read<T = { data: unknown; included?: unknown[] }>(path: string): Promise<T> {
    const response = await fetch(`${this.sandbox.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${this.officeUser().accessToken}` },
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  }

  /** A record made on the service as its web interface would (plain HTTP, the office's token): its id. */
  async create(path: string, type: string, attributes: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${this.sandbox.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.officeUser().accessToken}`,
        'content-type': 'application/vnd.api+json',
      },
      body: JSON.stringify({ data: { type, attributes } }),
    });
    expect(response.status, path).toBe(201);
    return ((await response.json()) as { data: { id: string } }).data.id;
  }

  /** The switch on (the service reachable) or off; idempotent (a failed step may leave it off). */
  async setOnline(on: boolean): Promise<void> {
    if (on === this.up) return;
    await (on ? this.service.start() : this.service.stop());
    this.up = on;
  }

  /** The service cut, and the app saying so. */
  async goOffline(page: Page = this.page): Promise<void> {
    await this.setOnline(false);
    await expect.poll(() => phaseOf(page), { timeout: 20_000, interval: 100 }).toBe('offline');
  }

  /** The first run's form filled for the sandbox, the login approved, the first sync done. */
  async signIn(): Promise<void> {
    await this.page.goto(this.app.url);
    const form = await fillAccountForm(this.page, this.sandbox, this.apiUrl);
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await this.page.getByTestId('user-name').waitFor({ timeout: 30_000 });
    await expect.poll(() => phaseOf(this.page), { timeout: 120_000, interval: 200 }).toBe('idle');
    this.signedIn = true;
  }

  /** axe-core's WCAG 2 A/AA rules on the office's page as it is: none violated. */
  async axe(screen: string, page: Page = this.page): Promise<void> {
    expect(await accessibilityViolations(page), screen).toEqual([]);
  }

  /** The language chosen in the top bar. */
  language(code: 'de' | 'en', page: Page = this.page): Promise<string[]> {
    return page.locator('.topbar .language-switch select').selectOption(code);
  }

  /**
   * The app closed and opened again: the page closed, the host stopped, a new host on the same
   * user data folder and a new page on it (stored tokens: signed in, no first-run form).
   */
  async reopen(): Promise<void> {
    await this.page.close();
    await this.app.close();
    this.app = await this.startHost(
      this.userData,
      () => this.loginHint,
      () => this.loginScope,
    );
    this.page = await this.newPage(this.context, this.pageErrors);
    await this.page.goto(this.app.url);
    await this.page.getByTestId('user-name').waitFor({ timeout: 30_000 });
  }

  /**
   * Another person's login in the same browser: a host on a user data folder of its own, a
   * context of its own at 1366×860, signed in as `loginHint` (with `scope`, or all its role may
   * use) through the switch, its first sync done.
   */
  async otherLogin(loginHint: string, scope?: readonly string[]): Promise<OtherLogin> {
    const userData = mkdtempSync(join(tmpdir(), `vorort-e2e-${this.options.name}-other-`));
    const app = await this.startHost(
      userData,
      () => loginHint,
      () => (scope ? scope.join(' ') : null),
    );
    const context = await this.browser.newContext({ viewport: LAPTOP });
    const pageErrors: string[] = [];
    const page = await this.newPage(context, pageErrors);
    const close = async () => {
      await context.close();
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    };
    try {
      await page.goto(app.url);
      const form = await fillAccountForm(page, this.sandbox, this.apiUrl);
      await form.getByRole('button', { name: 'Anmelden' }).click();
      await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
      await expect.poll(() => phaseOf(page), { timeout: 120_000, interval: 200 }).toBe('idle');
    } catch (error) {
      await recordFailure(page, this.options.artifacts[0]!, `other-login-${loginHint}`, pageErrors);
      await close();
      throw error;
    }
    return { page, pageErrors, close };
  }

  private startHost(
    userDataDir: string,
    hint: () => string,
    scope: () => string | null,
  ): Promise<BrowserMode> {
    return startBrowserMode({
      userDataDir,
      rendererDir: this.rendererDir,
      demo: noDemo,
      ...syncWorker,
      // The system browser: follows the sandbox's redirects (its login page approves by itself
      // the account login_hint names) to the app's loopback listener.
      openExternal: async (url) => {
        const authorize = new URL(url);
        authorize.searchParams.set('login_hint', hint());
        const scopes = scope();
        if (scopes) authorize.searchParams.set('scope', scopes);
        await (await fetch(authorize, { redirect: 'follow' })).text();
      },
    });
  }

  private async newPage(context: BrowserContext, errors: string[]): Promise<Page> {
    const page = await context.newPage();
    collectPageErrors(page, errors);
    return page;
  }

  /** beforeAll: everything up, the app's page open (not yet signed in). */
  async start(): Promise<void> {
    const renderer = await buildRenderer();
    this.removers.push(renderer.remove);
    this.rendererDir = renderer.dir;
    this.sandbox = await startTrainerSandbox();
    const base = new URL(this.sandbox.baseUrl);
    this.service = new TcpSwitch(Number(base.port));
    await this.setOnline(true);
    this.apiUrl = this.service.through(this.sandbox.baseUrl);
    this.userData = mkdtempSync(join(tmpdir(), `vorort-e2e-${this.options.name}-`));
    this.app = await this.startHost(
      this.userData,
      () => this.loginHint,
      () => this.loginScope,
    );
    this.browser = await launchChromium();
    for (const name of readdirSync(ARTIFACTS))
      if (this.options.artifacts.some((prefix) => name.startsWith(prefix)))
        rmSync(join(ARTIFACTS, name));
    this.context = await this.browser.newContext({ viewport: LAPTOP });
    if (this.options.clipboard)
      await this.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(this.app.url).origin,
      });
    this.page = await this.newPage(this.context, this.pageErrors);
  }

  /** afterAll: everything stopped and removed, whatever was started. */
  async stop(): Promise<void> {
    await this.browser?.close();
    await this.app?.close();
    await this.service?.stop();
    await this.sandbox?.close();
    if (this.userData) rmSync(this.userData, { recursive: true, force: true });
    for (const remove of this.removers.splice(0)) remove();
  }
}

/** The office's app for the tests of the calling describe (see the top of this file). */
export function useOfficeApp(options: OfficeAppOptions): OfficeApp {
  const fixture = new OfficeApp(options);
  beforeAll(() => fixture.start(), 120_000);
  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    await recordFailure(fixture.page, options.artifacts[0]!, test.task.name, fixture.pageErrors);
    await options.afterFailure?.(fixture);
  });
  afterAll(() => fixture.stop(), 60_000);
  return fixture;
}

/** A participant and a custom field added to the course open in `detail`, as on any course. */
export async function addParticipantAndField(
  page: Page,
  detail: () => ReturnType<Page['getByTestId']>,
  participant: { first: string; last: string },
  field: { name: string; value: string },
): Promise<void> {
  await detail().getByTestId('add-participant').click();
  await page.getByTestId('add-first_name').fill(participant.first);
  await page.getByTestId('add-last_name').fill(participant.last);
  await page.getByTestId('add-submit').click();
  await expect.poll(() => page.getByTestId('add-participant-dialog').count()).toBe(0);
  await expect.poll(() => detail().getByTestId('participant-row').count()).toBe(1);
  await detail().getByTestId('customfield-add').click();
  await page.getByTestId('customfield-name').fill(field.name);
  await page.getByTestId('customfield-value-input').fill(field.value);
  await page.getByTestId('customfield-save').click();
  await expect.poll(() => page.getByTestId('customfield-dialog').count()).toBe(0);
  await expect.poll(() => detail().getByTestId('customfield-row').count()).toBe(1);
}

/**
 * An occasion of some days ago (two unless told) with an entry of `userId` (3 hours of type 2, a
 * "dienst" unless told; not approved), put on the service (occasions come to the app with their
 * entries).
 */
export function putOccasionWithEntry(
  sandbox: RunningSandbox,
  ids: { occasion: string; entry: string; userId: string },
  beschreibung: string,
  { daysAgo = 2, typ = 'dienst', stunden = 3, typId = '2' } = {},
): void {
  const then = Date.now() - daysAgo * 86_400_000;
  const written = formatBerlinDateTime(then);
  sandbox.store.put({
    type: 'helferstunden_anlass',
    id: ids.occasion,
    attributes: { typ, beschreibung, datum: formatBerlinDate(then), updated_at: written },
    relationships: { referenz: null },
  });
  sandbox.store.put({
    type: 'helferstunden',
    id: ids.entry,
    attributes: {
      freigegeben: false,
      von: written,
      bis: null,
      stunden,
      anfahrt_km: null,
      freies_zahlenfeld: null,
      bemerkung: '',
      created_at: written,
      updated_at: written,
    },
    relationships: {
      anlass: { type: 'helferstunden_anlass', id: ids.occasion },
      typ: { type: 'helferstunden_typ', id: typId },
      user: { type: 'user', id: ids.userId },
    },
  });
}
