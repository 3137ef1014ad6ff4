// The office's courses and clients (issue 23) in Debian's Chromium against browser mode on the
// sandbox, at 1366×860 and 1024×700, in German and English, light and dark: every course of the
// window filtered by client, course type and trainer; offline a new course (a slip refused beside
// its field first) that opens at once, a participant and a custom field added to it; the page
// reopened offline still shows them; the service back, nobody acting, holds exactly those three
// records (read over plain HTTP), and the open course follows its new id. Kunden: the list, a
// client's data, courses and participants. axe-core on each view. Screenshots:
// test-artifacts/e2e/office-courses-*.png and office-clients-*.png.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatBerlinDate } from '../../sandbox/data/time';
import type { RunningSandbox } from '../../sandbox/server';
import { addParticipantAndField, useOfficeApp } from './office-fixture';
import { chromiumPresent, LAPTOP, pendingOf, shot, SMALL_LAPTOP } from './support';

const haveChromium = chromiumPresent('office courses e2e');

/** A day `days` from today (YYYY-MM-DD, Berlin). */
const fromToday = (days: number) => formatBerlinDate(Date.now() + days * 86_400_000);
const TITLE = 'Zyx Erste Hilfe im Büro';

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data?: { id: string } | { id: string }[] | null }>;
}

describe.skipIf(!haveChromium)('the office’s courses and clients in Chromium', () => {
  const office = useOfficeApp({
    name: 'office-courses',
    artifacts: ['office-courses-', 'office-clients-'],
  });
  let sandbox: RunningSandbox;
  let page: Page;
  /** The client with the most participants, made the client of a course of the window. */
  let client = { id: '', name: '', courseId: '', courseTitle: '' };

  const rows = () => page.getByTestId('course-row');
  const detail = () => page.getByTestId('course-detail');
  const total = async () =>
    Number(
      ((await page.getByTestId('courses-total').textContent()) ?? '').replace(/\D/g, '') || -1,
    );
  const language = (code: 'de' | 'en') => office.language(code);
  const axe = (screen: string) => office.axe(screen);
  const toWorkspace = async (id: string) => {
    await page.locator(`[data-workspace="${id}"]`).click();
    await page.getByTestId(`${id}-workspace`).waitFor();
  };
  /** A JSON:API read of the service over plain HTTP, as the office. */
  const read = (path: string) =>
    office.read<{ data: Resource[] | Resource; included?: Resource[] }>(path);
  const many = async (path: string) => (await read(path)).data as Resource[];

  beforeAll(() => {
    ({ sandbox, page } = office);
    // The client with the most participants becomes the client of a course of the next weeks.
    const best = sandbox.store
      .all('client')
      .map((candidate) => ({
        candidate,
        participants: sandbox.store.related('participation', 'client', candidate.id).length,
      }))
      .sort((a, b) => b.participants - a.participants)[0]!.candidate;
    const date = sandbox.store.all('course_date').find((candidate) => {
      const day = String(candidate.attributes.from).slice(0, 10);
      return day >= fromToday(1) && day <= fromToday(20);
    })!;
    const course = sandbox.store.get('course', (date.relationships.course as { id: string }).id)!;
    sandbox.store.put({
      ...course,
      relationships: { ...course.relationships, client: { type: 'client', id: best.id } },
    });
    client = {
      id: best.id,
      name: String(best.attributes.name),
      courseId: course.id,
      courseTitle: String(course.attributes.title),
    };
  });

  it('signs in as the office and syncs', () => office.signIn(), 180_000);

  it('lists every course of the window, one row each, filtered by client, course type and trainer', async (test) => {
    if (!office.signedIn) test.skip();
    await toWorkspace('courses');
    await expect
      .poll(() => page.getByTestId('courses-workspace').getAttribute('data-profile'))
      .toBe('office');
    await expect.poll(total).toBeGreaterThan(5);
    const everything = await total();
    // Every course, not only the own ones (the office trains none here).
    const served = await many(`/courses?filter[from]=${fromToday(-14)}`);
    expect(everything).toBeGreaterThanOrEqual(served.length);

    await page.getByTestId('office-filter-clientId').selectOption(client.id);
    await expect.poll(total).toBeLessThan(everything);
    const ofClient = await total();
    expect(
      await rows().evaluateAll((all) => all.map((row) => (row as HTMLElement).dataset.courseId)),
    ).toContain(client.courseId);
    for (const meta of await rows().locator('.course-meta').allTextContents())
      expect(meta).toContain(client.name);
    await shot(page, 'office-courses-by-client-1366x860-de', false);
    await axe('courses by client, de');
    await page.getByTestId('office-filter-reset').click();
    await expect.poll(total).toBe(everything);

    // A course type, then a trainer of the client's course too: that course stays, others go.
    const course = served.find((c) => c.id === client.courseId)!;
    const typeId = (course.relationships!.course_type!.data as { id: string }).id;
    await page.getByTestId('office-filter-courseTypeId').selectOption(typeId);
    await expect.poll(total).toBeLessThan(everything);
    const ofType = await total();
    expect(ofType).toBeGreaterThan(0);
    const typeName = await page
      .getByTestId('office-filter-courseTypeId')
      .locator(`option[value="${typeId}"]`)
      .textContent();
    for (const meta of await rows().locator('.course-meta').allTextContents())
      expect(meta).toContain(typeName);
    const trainers = (course.relationships!.trainers!.data as { id: string }[]).map((t) => t.id);
    if (trainers[0]) {
      await page.getByTestId('office-filter-trainerId').selectOption(trainers[0]);
      await expect.poll(total).toBeLessThanOrEqual(ofType);
      await page.getByTestId('office-filter-clientId').selectOption(client.id);
      await expect.poll(total).toBeLessThanOrEqual(ofClient);
      expect(
        await rows().evaluateAll((all) => all.map((row) => (row as HTMLElement).dataset.courseId)),
      ).toContain(client.courseId);
    }
    await page.getByTestId('office-filter-reset').click();
    await expect.poll(total).toBe(everything);

    // By keyboard: / the search, Down into the list, Enter opens the course beside it.
    await page.locator('#workspace-title').click();
    await page.keyboard.press('/');
    await page.keyboard.type(client.courseTitle.slice(0, 8));
    await expect.poll(total).toBeLessThan(everything);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe('course-detail-title');
    await shot(page, 'office-courses-1366x860-de', false);
    await axe('office courses with a course, de');
    await page.locator('#office-course-search').fill('');
    expect(office.pageErrors).toEqual([]);
  }, 120_000);

  it('offline: creates a course (a slip refused beside its field first), adds a participant and a custom field; reopened offline all of it holds; the service back holds exactly that', async (test) => {
    if (!office.signedIn) test.skip();
    const day = fromToday(10);
    const window = `/courses?filter[from]=${fromToday(-400)}&filter[until]=${fromToday(400)}`;
    const before = await many(window);
    await office.goOffline();

    // N opens the form; sent empty, it says beside the fields what is missing and queues nothing.
    await page.locator('#workspace-title').click();
    await page.keyboard.press('n');
    const dialog = page.getByTestId('new-course-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('new-course-external').textContent()).toContain(
      'nicht an externe Systeme weitergeleitet',
    );
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.testid))
      .toBe('new-course-type');
    await page.getByTestId('new-course-max').fill('zwölf');
    await page.getByTestId('new-course-submit').click();
    await expect.poll(() => dialog.locator('.field.invalid').count()).toBe(3);
    const invalid = await dialog.locator('.field.invalid .field-error').allTextContents();
    expect(invalid).toEqual([
      'Bitte eine Kursart wählen.',
      expect.stringContaining('TT.MM.JJJJ'),
      'Eine ganze Zahl ab 0.',
    ]);
    expect(await pendingOf(page)).toBe(0);
    await shot(page, 'office-courses-new-refused-1366x860-de', false);
    await axe('new course with errors, de');

    // Filled in: it opens at once, marked not sent, with its place.
    const typeValue = await page
      .getByTestId('new-course-type')
      .locator('option')
      .nth(1)
      .getAttribute('value');
    await page.getByTestId('new-course-type').selectOption(typeValue!);
    await page.getByTestId('new-course-title').fill(TITLE);
    const [year, month, date] = day.split('-');
    await page.getByTestId('new-course-day-0').fill(`${date}.${month}.${year}`);
    await page.getByTestId('new-course-description').fill('Gemeindehaus Zyx');
    await page.getByTestId('new-course-street').fill('Kirchweg 1');
    await page.getByTestId('new-course-postalCode').fill('24103');
    await page.getByTestId('new-course-city').fill('Kiel');
    await page.getByTestId('new-course-max').fill('12');
    await page.getByTestId('new-course-client').selectOption(client.id);
    await shot(page, 'office-courses-new-1366x860-de', false);
    await page.getByTestId('new-course-submit').click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe('course-detail-title');
    expect(await page.locator('#course-detail-title').textContent()).toBe(TITLE);
    expect(await detail().getByTestId('not-sent').first().getAttribute('data-local-state')).toBe(
      'created',
    );
    await detail().getByTestId('course-facts').locator('summary').click();
    await expect
      .poll(() => detail().getByTestId('course-location').textContent())
      .toContain('Kiel');
    await expect.poll(() => pendingOf(page)).toBe(1);
    const localId = (await detail().getAttribute('data-course-id'))!;
    expect(localId).toMatch(/^local-/);
    await expect
      .poll(() => page.locator(`[data-testid="course-row"][data-course-id="${localId}"]`).count())
      .toBe(1);

    // A participant and a custom field, as on any course.
    await addParticipantAndField(
      page,
      detail,
      { first: 'Zora', last: 'Zyxmüller' },
      { name: 'Raum', value: 'R 1.12' },
    );
    await expect.poll(() => pendingOf(page)).toBe(3);
    await shot(page, 'office-courses-created-offline-1366x860-de', false);
    await axe('course created offline, de');

    // Reopened offline: all of it holds.
    await page.reload();
    await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
    await toWorkspace('courses');
    await page.locator('#office-course-search').fill('Zyx Erste');
    await expect.poll(total).toBe(1);
    await rows().first().click();
    await expect.poll(() => page.locator('#course-detail-title').textContent()).toBe(TITLE);
    await expect.poll(() => detail().getByTestId('participant-row').count()).toBe(1);
    expect(await detail().getByTestId('participant-row').first().textContent()).toContain(
      'Zyxmüller',
    );
    await expect.poll(() => detail().getByTestId('customfield-value').textContent()).toBe('R 1.12');
    await expect.poll(() => pendingOf(page)).toBe(3);

    // The service back, nobody acting: exactly the course, its participation and its field, once.
    await office.setOnline(true);
    await expect.poll(() => pendingOf(page), { timeout: 60_000, interval: 250 }).toBe(0);
    const after = await many(window);
    const made = after.filter((course) => course.attributes.title === TITLE);
    expect(made).toHaveLength(1);
    expect(after).toHaveLength(before.length + 1);
    const course = made[0]!;
    expect(course.attributes).toMatchObject({ max_participants: 12, status: 'draft' });
    expect((course.relationships!.client!.data as { id: string }).id).toBe(client.id);
    const full = await read(`/courses/${course.id}`);
    const dates = (full.included ?? []).filter((r) => r.type === 'course_date');
    expect(dates.map((d) => String(d.attributes.from).slice(0, 16))).toEqual([`${day}T09:00`]);
    expect(dates.map((d) => String(d.attributes.to).slice(11, 16))).toEqual(['16:30']);
    const place = (full.included ?? []).find((r) => r.type === 'address')!;
    expect(place.attributes).toMatchObject({
      description: 'Gemeindehaus Zyx',
      street: 'Kirchweg 1',
      postal_code: '24103',
      city: 'Kiel',
    });
    const participations = await many(`/courses/${course.id}/participations`);
    expect(participations.map((p) => [p.attributes.first_name, p.attributes.last_name])).toEqual([
      ['Zora', 'Zyxmüller'],
    ]);
    const fields = await many(`/courses/${course.id}/customfields`);
    expect(fields.map((f) => [f.attributes.name, f.attributes.value])).toEqual([
      ['Raum', 'R 1.12'],
    ]);
    // The open course follows its new id: still shown, no longer marked not sent.
    await expect.poll(() => detail().getByTestId('not-sent').count()).toBe(0);
    expect(await page.locator('#course-detail-title').textContent()).toBe(TITLE);
    await expect.poll(() => detail().getByTestId('participant-row').count()).toBe(1);
    expect(office.pageErrors).toEqual([]);
  }, 240_000);

  it('reads well at 1024×700 and in English, light and dark (a course and the new course form)', async (test) => {
    if (!office.signedIn) test.skip();
    await page.setViewportSize(SMALL_LAPTOP);
    await language('en');
    await expect.poll(() => page.locator('#workspace-title').textContent()).toBe('Courses');
    await shot(page, 'office-courses-course-1024x700-en', false);
    await axe('course 1024, en');
    await page.getByTestId('course-back').click();
    await page.locator('#office-course-search').fill('');
    await expect.poll(total).toBeGreaterThan(5);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'office-courses-1024x700-en-dark', false);
    await axe('courses 1024, en, dark');
    await page.getByTestId('course-new').click();
    await page.getByTestId('new-course-dialog').waitFor();
    await shot(page, 'office-courses-new-1024x700-en-dark', false);
    await axe('new course 1024, en, dark');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('new-course-dialog').count()).toBe(0);
    await page.emulateMedia({ colorScheme: 'light' });
    await language('de');
    await page.setViewportSize(LAPTOP);
    expect(office.pageErrors).toEqual([]);
  }, 60_000);

  it('Kunden: the list searched, a client’s data, its courses (Enter opens one) and its participants', async (test) => {
    if (!office.signedIn) test.skip();
    await toWorkspace('clients');
    await expect.poll(() => page.getByTestId('client-row').count()).toBeGreaterThan(1);
    const served = await many('/clients');
    expect(await page.getByTestId('clients-total').textContent()).toBe(
      `${served.length} ${served.length === 1 ? 'Kunde' : 'Kunden'}`,
    );
    await page.keyboard.press('/');
    await page.keyboard.type(client.name.slice(0, 6));
    await expect
      .poll(() => page.getByTestId('client-row').first().getAttribute('data-client-id'))
      .toBe(client.id);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('client-title');
    const shown = page.getByTestId('client-detail');
    expect(await page.locator('#client-title').textContent()).toBe(client.name);
    const data = (await read(`/clients/${client.id}`)).data as Resource;
    if (data.attributes.customer_number)
      expect(await shown.getByTestId('client-facts').textContent()).toContain(
        String(data.attributes.customer_number),
      );
    const ids = await shown
      .getByTestId('client-course')
      .evaluateAll((all) => all.map((b) => (b as HTMLElement).dataset.courseId));
    expect(ids).toContain(client.courseId);
    // The course made offline has this client too.
    await expect
      .poll(() => shown.getByTestId('client-course').filter({ hasText: TITLE }).count())
      .toBe(1);
    expect(
      await shown.getByTestId('client-course').filter({ hasText: TITLE }).textContent(),
    ).toContain('Kiel');
    // Opened online, the client's participants are read now: as many as the service names.
    const participants = await many(`/clients/${client.id}/participants`);
    expect(participants.length).toBeGreaterThan(0);
    await expect
      .poll(() => shown.getByTestId('client-as-of').getAttribute('data-refresh'))
      .toBe('done');
    await expect
      .poll(() => shown.getByTestId('client-participant').count())
      .toBe(participants.length);
    expect(await shown.getByTestId('client-as-of').textContent()).toMatch(/Stand: jetzt/);
    // The list counts them too.
    await expect
      .poll(() => page.getByTestId('client-row').first().textContent())
      .toContain(`${participants.length} Teilnehmende`);
    await shot(page, 'office-clients-1366x860-de', false);
    await axe('clients, de');

    await page.setViewportSize(SMALL_LAPTOP);
    await language('en');
    await expect
      .poll(() => shown.locator('#client-courses-title').textContent())
      .toMatch(/^Courses/);
    await shot(page, 'office-clients-client-1024x700-en', false);
    await axe('client 1024, en');
    await page.getByTestId('client-back').click();
    await expect.poll(() => page.getByTestId('clients-list').isVisible()).toBe(true);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'office-clients-1024x700-en-dark', false);
    await axe('clients 1024, en, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await language('de');
    await page.setViewportSize(LAPTOP);

    // A course of the client opens in the courses workspace.
    await page.getByTestId('client-row').first().click();
    await shown
      .getByTestId('client-course')
      .and(page.locator(`[data-course-id="${client.courseId}"]`))
      .click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe('course-detail-title');
    expect(await detail().getAttribute('data-course-id')).toBe(client.courseId);
    expect(office.pageErrors).toEqual([]);
  }, 90_000);
});
