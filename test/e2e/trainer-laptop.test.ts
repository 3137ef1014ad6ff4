// The trainer's day on a laptop (issue 21, items 6, 7, 8 and 10), in Debian's Chromium against
// browser mode on the sandbox, at 1366×860 and 1024×700, in German and English. The browser
// itself speaks American English (its language, its locale, a zone far from Berlin): what the
// screens show follows the app's language and the service's zone, never the browser's.
// - Item 6: a course with 20 participants (made through the service's interface for today, as
//   the test needs it) shows at least 8 of them at 1366×860 and 5 at 1024×700 without
//   scrolling; a walk-in added with Alt+N gets the focus and is in view.
// - Item 7: Alt+1 lands in the course list (T and Enter work at once); after saving an hours
//   entry the focus is on that entry (also once the service has it under its own id); the
//   walk-in's shortcut shown is the one that works in a browser (Alt+N, not Ctrl+N).
// - Item 8: the walk-in and hours dialogs read 26.11.2026 and 08:30 in German (26/11/2026 in
//   English) and take typed shorthand ("0830", "1.2.1990").
// - Item 10: a course opened online a minute after the last sync says "Stand: jetzt" once its
//   participants are refreshed; English names "Cancel participation" for "Absagen".
// axe-core (WCAG 2 A/AA) on the new parts. Screenshots: test-artifacts/e2e/laptop-*.png.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../electron/browser-main';
import { syncWorker } from '../support/bundled';
import {
  berlinWallClockToUtc,
  formatBerlinDate,
  formatBerlinDateTime,
  parseDate,
} from '../../sandbox/data/time';
import type { RunningSandbox } from '../../sandbox/server';
import { getJson, type OracleTarget, type Resource } from '../support/service-read';
import {
  accessibilityViolations,
  adminRequest,
  ARTIFACTS,
  buildRenderer,
  chromiumPresent,
  collectPageErrors,
  confirmCourseAt,
  coreClient,
  fillAccountForm,
  LAPTOP,
  launchChromium,
  noDemo,
  pendingOf,
  phaseOf,
  recordFailure,
  shot,
  SMALL_LAPTOP,
  startTrainerSandbox,
} from './support';

const haveChromium = chromiumPresent('trainer laptop e2e');

const TITLE = 'Erste Hilfe am Laptop';
/** Sorted last by the list (last name, then first name): the walk-in is below the window. */
const WALK_IN = { first: 'Zora', last: 'Zywietz' };

/** "26.11.2026" / "26/11/2026" of a YYYY-MM-DD day. */
const shown = (day: string, separator: '.' | '/') => day.split('-').reverse().join(separator);

describe.skipIf(!haveChromium)('the trainer’s day at laptop size in Chromium', () => {
  let sandbox: RunningSandbox;
  let office: OracleTarget;
  let trainerId: string;
  let rendererDir: string;
  let userData: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let app: BrowserMode;
  const pageErrors: string[] = [];
  let signedIn = false;
  /** When the last sync before the course was opened had finished (at the latest). */
  let syncedAt = 0;
  let courseId = '';
  const today = formatBerlinDate(Date.now());

  const snap = (name: string) => shot(page, `laptop-${name}`, false);
  const rows = () => page.getByTestId('participant-row');
  const detail = () => page.getByTestId('course-detail');
  const language = (code: 'de' | 'en') =>
    page.locator('.topbar .language-switch select').selectOption(code);

  /** The office's POST through the service's interface (JSON:API). */
  const post = async (path: string, body: unknown): Promise<Resource> => {
    const response = await fetch(`${sandbox.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${office.token}`,
        'content-type': 'application/vnd.api+json',
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.ok, `POST ${path}: ${response.status} ${text}`).toBe(true);
    return (JSON.parse(text) as { data: Resource }).data;
  };

  /** Today's course of trainer1 with 20 participants, two of them with a comment. */
  const makeCourse = async () => {
    const types = (await getJson(office, '/courses/types')).data as Resource[];
    const day = parseDate(today);
    const course = await post('/courses', {
      data: {
        type: 'course',
        attributes: { title: TITLE, max_participants: 24 },
        relationships: {
          course_type: { data: { type: 'course_type', id: types[0]!.id } },
          dates: { data: [{ type: 'course_date', id: 'new-1' }] },
          trainers: { data: [{ type: 'user', id: trainerId }] },
        },
      },
      included: [
        {
          type: 'course_date',
          id: 'new-1',
          attributes: {
            from: formatBerlinDateTime(berlinWallClockToUtc(day, 8, 30)),
            to: formatBerlinDateTime(berlinWallClockToUtc(day, 16, 30)),
          },
        },
      ],
    });
    await adminRequest(sandbox, 'PATCH', `/records/course/${course.id}`, {
      attributes: { status: 'ready' },
    });
    const names = [
      'Albers',
      'Brandt',
      'Claßen',
      'Dietrich',
      'Ebert',
      'Fuchs',
      'Graf',
      'Hahn',
      'Imhof',
      'Jung',
      'Krause',
      'Lorenz',
      'Möller',
      'Nowak',
      'Otto',
      'Peters',
      'Quast',
      'Richter',
      'Schulz',
      'Vogel',
    ];
    for (const [index, last] of names.entries())
      await post(`/courses/${course.id}/participations`, {
        data: {
          type: 'participation',
          attributes: {
            first_name: ['Anna', 'Ben', 'Clara', 'David', 'Eva'][index % 5],
            last_name: last,
            ...(index === 1 ? { comment: 'Bringt eigenes Verbandbuch mit' } : {}),
            ...(index === 4 ? { certificate_number: 'EH-4711' } : {}),
          },
        },
      });
    return course.id;
  };

  /** The rows the trainer sees whole without scrolling: inside the window and the course's pane. */
  const rowsInView = () =>
    page.evaluate(() => {
      const pane = document.querySelector('[data-testid="course-detail"]')!.getBoundingClientRect();
      const top = Math.max(pane.top, 0);
      const bottom = Math.min(pane.bottom, window.innerHeight);
      return [...document.querySelectorAll('[data-testid="participant-row"]')].filter((row) => {
        const box = row.getBoundingClientRect();
        return box.height > 0 && box.top >= top - 0.5 && box.bottom <= bottom + 0.5;
      }).length;
    });

  /** The focused element's test id and record id. */
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return {
        testId: element?.dataset.testid ?? element?.tagName.toLowerCase() ?? '',
        id: element?.dataset.participationId ?? element?.dataset.hoursId ?? '',
        inList: element?.closest('[data-testid="course-list"]') !== null,
      };
    });

  /** Opens the course through the list's search, by keyboard. */
  const openCourse = async () => {
    await page.keyboard.press('Alt+1');
    // One pane with a course open: back to the list first.
    if (await page.getByTestId('course-back').isVisible()) {
      await page.getByTestId('course-back').click();
      await page.getByTestId('course-filter').waitFor();
    }
    await page.keyboard.press('/');
    await page.keyboard.type(TITLE);
    await page.keyboard.press('Enter');
    const row = page.locator(`[data-testid="course-row"][data-course-id="${courseId}"]`);
    await row.first().waitFor();
    await row.first().click();
    await expect.poll(() => detail().getAttribute('data-course-id')).toBe(courseId);
    await expect.poll(() => rows().count()).toBeGreaterThanOrEqual(8);
    // Each opening shows the course from its top.
    await detail().evaluate((element) => element.scrollTo(0, 0));
  };

  const axe = async (screen: string) =>
    expect(await accessibilityViolations(page), screen).toEqual([]);

  beforeAll(async () => {
    const renderer = await buildRenderer();
    rendererDir = renderer.dir;
    sandbox = await startTrainerSandbox();
    const officeUser = sandbox.users.find((user) => user.role === 'office')!;
    office = { baseUrl: sandbox.baseUrl, token: officeUser.accessToken };
    trainerId = sandbox.store
      .all('user')
      .find((user) => user.attributes.username === 'trainer1')!.id;
    courseId = await makeCourse();

    userData = mkdtempSync(join(tmpdir(), 'vorort-e2e-laptop-'));
    app = await startBrowserMode({
      userDataDir: userData,
      rendererDir,
      demo: noDemo,
      ...syncWorker,
      openExternal: async (url) => {
        const authorize = new URL(url);
        authorize.searchParams.set('login_hint', 'trainer1');
        await (await fetch(authorize, { redirect: 'follow' })).text();
      },
    });
    // An American browser far from Berlin: its own date and time formats would be 11/26/2026
    // and 08:30 AM.
    browser = await launchChromium(['--lang=en-US'], 'en');
    for (const name of readdirSync(ARTIFACTS))
      if (name.startsWith('laptop-')) rmSync(join(ARTIFACTS, name));
    context = await browser.newContext({
      locale: 'en-US',
      timezoneId: 'America/New_York',
      viewport: LAPTOP,
    });
    page = await context.newPage();
    collectPageErrors(page, pageErrors);
    return renderer.remove;
  }, 120_000);

  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await recordFailure(page, 'laptop-', test.task.name, pageErrors);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await sandbox?.close();
    if (userData) rmSync(userData, { recursive: true, force: true });
  }, 60_000);

  it('signs in as trainer1 with the trainer profile and syncs', async () => {
    await page.goto(app.url);
    const form = await fillAccountForm(page, sandbox);
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
    await page.keyboard.press('Alt+9');
    await page.getByTestId('settings-profile-trainer').check();
    // Kept by the core: asked for, not read from the note that says so, which shows for 2.5 s
    // after a save and not at all when the first sync already chose the trainer's profile.
    const client = await coreClient(app.server);
    try {
      await expect
        .poll(() => client.call('settings.get', {}))
        .toMatchObject({ profile: 'trainer' });
    } finally {
      client.close();
    }
    await expect.poll(() => phaseOf(page), { timeout: 120_000, interval: 200 }).toBe('idle');
    // One more sync with the trainer's profile: the "Stand" of everything starts here.
    await page.keyboard.press('Alt+8');
    await page.getByTestId('sync-centre-now').click();
    await expect.poll(() => phaseOf(page), { timeout: 10_000, interval: 100 }).not.toBe('idle');
    await expect.poll(() => phaseOf(page), { timeout: 60_000, interval: 200 }).toBe('idle');
    syncedAt = Date.now();
    expect(await pendingOf(page)).toBe(0);
    signedIn = true;
  }, 180_000);

  it('item 7: Alt+1 lands in the course list, where T and Enter work at once', async (test) => {
    if (!signedIn) test.skip();
    await page.keyboard.press('Alt+2');
    await page.getByTestId('hours-add').waitFor();
    await page.keyboard.press('Alt+1');
    await expect.poll(async () => (await focused()).inList).toBe(true);
    await page.keyboard.press('t');
    // Today's row may wait for its page of rows (read as the list scrolls).
    await expect.poll(async () => (await focused()).testId, { timeout: 5_000 }).toBe('course-row');
    const todays = await page.evaluate(
      () => (document.activeElement as HTMLElement).dataset.courseId,
    );
    expect(todays).toBeTruthy();
    await page.keyboard.press('Enter');
    await expect.poll(() => detail().getAttribute('data-course-id')).toBe(todays);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe('course-detail-title');
    // And back to the list with Alt+1 from inside the course.
    await page.keyboard.press('Alt+1');
    await expect.poll(async () => (await focused()).inList).toBe(true);
  }, 60_000);

  it('item 10: a course opened a minute after the last sync says "Stand: jetzt" once refreshed', async (test) => {
    if (!signedIn) test.skip();
    // The sync's "Stand" of the course is a minute old: opening it online asks for its
    // participants again (the core asks at most once a minute per course).
    confirmCourseAt(userData, courseId, syncedAt - 62_000);
    // Opened anew (another workspace in between: the course the last step opened may be this one).
    await page.keyboard.press('Alt+2');
    await page.getByTestId('hours-add').waitFor();
    await openCourse();
    const asOf = page.getByTestId('as-of');
    await expect.poll(() => asOf.getAttribute('data-refresh'), { timeout: 30_000 }).toBe('done');
    await expect.poll(() => asOf.textContent()).toMatch(/^Stand: (vor \d+ Sekunden|jetzt)$/);
    const confirmed = Date.parse((await asOf.getAttribute('data-confirmed-at')) ?? '');
    expect(Date.now() - confirmed).toBeLessThan(30_000);
  }, 60_000);

  it('item 6: at least 8 participants in view at 1366×860 and 5 at 1024×700, German and English', async (test) => {
    if (!signedIn) test.skip();
    const counts: Record<string, number> = {};
    for (const size of [LAPTOP, SMALL_LAPTOP]) {
      await page.setViewportSize(size);
      for (const code of ['de', 'en'] as const) {
        await language(code);
        await openCourse();
        await expect.poll(() => rows().count()).toBeGreaterThanOrEqual(8);
        const name = `${size.width}x${size.height}-${code}`;
        counts[name] = await rowsInView();
        await snap(`course-${name}`);
      }
    }
    process.stdout.write(`participants in view: ${JSON.stringify(counts)}\n`);
    expect(counts['1366x860-de']).toBeGreaterThanOrEqual(8);
    expect(counts['1366x860-en']).toBeGreaterThanOrEqual(8);
    expect(counts['1024x700-de']).toBeGreaterThanOrEqual(5);
    expect(counts['1024x700-en']).toBeGreaterThanOrEqual(5);
  }, 180_000);

  it('item 6: details on demand, in words that say what they do (English "Cancel participation")', async (test) => {
    if (!signedIn) test.skip();
    await page.setViewportSize(LAPTOP);
    await language('en');
    await openCourse();
    const withComment = rows().filter({ hasText: 'Brandt' });
    // The comment is read in the row itself; the fields are one Enter away.
    expect(await withComment.textContent()).toContain('Bringt eigenes Verbandbuch mit');
    await withComment.focus();
    await page.keyboard.press('Enter');
    const comment = withComment.getByTestId('comment-input');
    const certificate = withComment.getByTestId('certificate-input');
    await expect.poll(() => focused().then((f) => f.testId)).toBe('certificate-input');
    expect(await comment.inputValue()).toBe('Bringt eigenes Verbandbuch mit');
    expect((await withComment.getByTestId('cancel-participation').textContent())?.trim()).toMatch(
      /^Cancel participation/,
    );
    await snap('details-1366x860-en');
    await axe('course with a row’s details, English');
    // Escape in the field: back on the row, nothing typed lost or sent; Escape again closes.
    await certificate.press('Escape');
    await expect.poll(() => focused().then((f) => f.testId)).toBe('participant-row');
    await page.keyboard.press('Escape');
    await expect.poll(() => comment.count()).toBe(0);
    expect(await detail().getAttribute('data-course-id')).toBe(courseId);
    await language('de');
    await withComment.getByTestId('participant-details').click();
    expect((await withComment.getByTestId('cancel-participation').textContent())?.trim()).toMatch(
      /^Teilnahme absagen/,
    );
    await axe('course with a row’s details, German');
    await withComment.getByTestId('participant-details').click();
    expect(await pendingOf(page)).toBe(0);
  }, 60_000);

  it('issue 20 item 3: a mark by key shows at once from its answered row, the focus moves on, O takes it back', async (test) => {
    if (!signedIn) test.skip();
    await page.setViewportSize(LAPTOP);
    await language('de');
    await openCourse();
    const open = rows().and(page.locator('[data-attended="open"]')).first();
    const id = await open.getAttribute('data-participation-id');
    expect(id, 'a participant whose attendance is open').toBeTruthy();
    const row = rows().and(page.locator(`[data-participation-id="${id}"]`));
    await row.focus();
    await page.keyboard.press('a');
    await expect.poll(() => row.getAttribute('data-attended')).toBe('true');
    await expect.poll(() => focused().then((f) => f.id)).not.toBe(id);
    await snap('attendance-marked-1366x860-de');
    await row.focus();
    await page.keyboard.press('o');
    await expect.poll(() => row.getAttribute('data-attended')).toBe('open');
    // Sent (the service answers here): the next steps begin with nothing pending.
    await expect.poll(() => pendingOf(page), { timeout: 30_000 }).toBe(0);
  }, 90_000);

  it('item 7: the walk-in’s shortcut shown is one a browser leaves to the page', async (test) => {
    if (!signedIn) test.skip();
    await language('de');
    await openCourse();
    const keys = await page.locator('#participants-keys').textContent();
    expect(keys).toContain('Alt+N neue Person');
    expect(keys).not.toContain('Strg+N');
    const add = page.getByTestId('add-participant');
    expect(await add.getAttribute('title')).not.toContain('Strg+N');
    expect(await add.getAttribute('aria-keyshortcuts')).not.toContain('Control+N');
  }, 60_000);

  it('items 6 and 8: a walk-in with Alt+N at 1024×700: its birthday in German, the new row focused and in view', async (test) => {
    if (!signedIn) test.skip();
    await page.setViewportSize(SMALL_LAPTOP);
    await language('de');
    await openCourse();
    await rows().first().focus();
    await page.keyboard.press('Alt+N');
    const dialog = page.getByTestId('add-participant-dialog');
    await dialog.waitFor();
    await page.keyboard.type(WALK_IN.first);
    await page.getByTestId('add-last_name').fill(WALK_IN.last);
    const birthday = page.getByTestId('add-birthday');
    await birthday.fill('1.2.1990');
    await birthday.press('Tab');
    expect(await birthday.inputValue()).toBe('01.02.1990');
    await snap('walk-in-1024x700-de');
    await axe('walk-in dialog');
    await page.getByTestId('add-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    const added = rows().filter({ hasText: WALK_IN.last });
    await expect.poll(() => added.count()).toBe(1);
    const id = await added.getAttribute('data-participation-id');
    await expect.poll(() => focused()).toMatchObject({ testId: 'participant-row', id });
    // In view: inside the window and inside the course's pane.
    await expect
      .poll(() =>
        added.evaluate((row) => {
          const box = row.getBoundingClientRect();
          const pane = row.closest('[data-testid="course-detail"]')!.getBoundingClientRect();
          return (
            box.top >= Math.max(0, pane.top) && box.bottom <= Math.min(innerHeight, pane.bottom)
          );
        }),
      )
      .toBe(true);
    await snap('walk-in-added-1024x700-de');
    // The service has the birthday as a date.
    await expect.poll(() => pendingOf(page), { timeout: 30_000, interval: 200 }).toBe(0);
    const service = (await getJson(office, `/courses/${courseId}/participations`))
      .data as Resource[];
    expect(service.find((p) => p.attributes.last_name === WALK_IN.last)?.attributes.birthday).toBe(
      '1990-02-01',
    );
  }, 90_000);

  it('items 7 and 8: an hours entry typed in German (26.11.2026, 08:30), focus back on the entry once saved', async (test) => {
    if (!signedIn) test.skip();
    await page.setViewportSize(LAPTOP);
    await language('de');
    await page.keyboard.press('Alt+2');
    await page.getByTestId('hours-add').waitFor();
    await page.keyboard.press('n');
    const dialog = page.getByTestId('hours-dialog');
    await dialog.waitFor();
    const day = page.getByTestId('hours-date');
    expect(await day.inputValue()).toBe(shown(today, '.'));
    const start = page.getByTestId('hours-start');
    const end = page.getByTestId('hours-end');
    await start.fill('0830');
    await start.press('Tab');
    await end.fill('16.30');
    await end.press('Tab');
    expect(await start.inputValue()).toBe('08:30');
    expect(await end.inputValue()).toBe('16:30');
    expect(await page.getByTestId('hours-stunden').inputValue()).toBe('8');
    // Arrow keys step the day; the day is read back in words.
    await day.focus();
    await page.keyboard.press('ArrowDown');
    expect(await day.inputValue()).not.toBe(shown(today, '.'));
    await page.keyboard.press('ArrowUp');
    expect(await day.inputValue()).toBe(shown(today, '.'));
    await page.getByTestId('hours-new-occasion').click();
    await page.getByTestId('hours-occasion-beschreibung').fill('Laptop-Probe');
    expect(await page.getByTestId('hours-occasion-datum').inputValue()).toBe(shown(today, '.'));
    await snap('hours-dialog-1366x860-de');
    await axe('hours dialog, German');
    await page.getByTestId('hours-save').click();
    await dialog.waitFor({ state: 'hidden' });
    const entry = page.locator('[data-testid="hours-row"][data-local-state="created"]');
    await expect.poll(() => entry.count()).toBe(1);
    const localId = await entry.getAttribute('data-hours-id');
    await expect.poll(() => focused()).toMatchObject({ testId: 'hours-row', id: localId });
    // Sent: the entry has the service's id now, and the focus stayed on it.
    await expect.poll(() => pendingOf(page), { timeout: 30_000, interval: 200 }).toBe(0);
    await expect
      .poll(async () => {
        const now = await focused();
        return now.testId === 'hours-row' && now.id !== localId && !now.id.startsWith('local-');
      })
      .toBe(true);
    await snap('hours-saved-1366x860-de');
  }, 90_000);

  it('item 8: the hours dialog in English at 1024×700 reads 26/11/2026 and 08:30', async (test) => {
    if (!signedIn) test.skip();
    await page.setViewportSize(SMALL_LAPTOP);
    await language('en');
    await page.keyboard.press('Alt+2');
    await page.getByTestId('hours-add').click();
    await page.getByTestId('hours-dialog').waitFor();
    expect(await page.getByTestId('hours-date').inputValue()).toBe(shown(today, '/'));
    await page.getByTestId('hours-start').fill('8');
    await page.getByTestId('hours-start').press('Tab');
    expect(await page.getByTestId('hours-start').inputValue()).toBe('08:00');
    // Wrong input says so beside the field and keeps what was typed.
    await page.getByTestId('hours-date').fill('31/02/2026');
    await page.getByTestId('hours-save').click();
    await expect
      .poll(() =>
        page
          .locator('.field.invalid')
          .filter({ has: page.getByTestId('hours-date') })
          .count(),
      )
      .toBe(1);
    expect(await page.getByTestId('hours-date').inputValue()).toBe('31/02/2026');
    await snap('hours-dialog-1024x700-en');
    await axe('hours dialog, English');
    await page.keyboard.press('Escape');
    await page.getByTestId('hours-dialog').waitFor({ state: 'hidden' });
    await language('de');
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
