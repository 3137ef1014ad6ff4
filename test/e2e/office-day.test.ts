// An office day offline, end to end in one run (issue 23, "What it must show"), in Debian's
// Chromium against browser mode on the sandbox, through the screens only, in the order a person
// would work: signed in, the service goes away; the office creates a calendar (and another that it
// deletes again) and deletes one of the service's, marks a notification read and deletes another,
// enters hours for another person and changes an occasion, creates a course and adds a
// participant and a custom field to it, and gives a person a member number another person has;
// closes the app and opens it again, still offline, and sees all of it; the service comes back
// and, with nobody acting, holds exactly those changes (read with plain HTTP, and the sandbox's
// change journal naming no other write), the member number refused and parked; it is corrected in
// the sync centre and sent. Then a trainer's token in the same browser: none of the office's areas
// (Personal, Kunden, Stammdaten, everyone's hours), and no error. axe-core (WCAG 2 A/AA) on the
// screens, light and dark. Screenshots at 1366×860 and 1024×700: test-artifacts/e2e/office-day-*.png.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatBerlinDate } from '../../sandbox/data/time';
import type { RunningSandbox } from '../../sandbox/server';
import { addParticipantAndField, putOccasionWithEntry, useOfficeApp } from './office-fixture';
import {
  accessibilityViolations,
  adminRequest,
  chromiumPresent,
  LAPTOP,
  pendingOf,
  phaseOf,
  shot,
  SMALL_LAPTOP,
} from './support';

const haveChromium = chromiumPresent('office day e2e');

/** A day `days` from today (YYYY-MM-DD, Berlin). */
const fromToday = (days: number) => formatBerlinDate(Date.now() + days * 86_400_000);
const today = () => fromToday(0);

const OCCASION = '990400';
const CALENDAR = 'Zyx Einsatzplanung';
const DRAFT_CALENDAR = 'Zyx Probekalender';
const COURSE = 'Zyx Erste Hilfe am Hafen';
const FIXED_NUMBER = 'ZQ-9917';
/** Where the office's courses are compared: well around the new course's day. */
const WINDOW = `/courses?filter[from]=${fromToday(-400)}&filter[until]=${fromToday(400)}`;
const HOURS = '/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&include=anlass';

interface Served {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data?: { id: string } | { id: string }[] | null }>;
}
interface Person {
  id: string;
  vorname: string;
  nachname: string;
}
interface JournalEntry {
  op: 'put' | 'remove';
  type: string;
  id: string;
}

/** A relationship's one target. */
const idOf = (resource: Served, name: string) =>
  (resource.relationships?.[name]?.data as { id: string } | null | undefined)?.id;
/** Records by id with what they hold (attributes and relationships): what a comparison looks at. */
const byId = (records: Served[]) =>
  new Map(
    records.map((record) => [
      record.id,
      JSON.stringify([record.attributes, record.relationships ?? {}]),
    ]),
  );

describe.skipIf(!haveChromium)('an office day offline, end to end in Chromium', () => {
  const office = useOfficeApp({ name: 'office-day', artifacts: ['office-day-'] });
  let sandbox: RunningSandbox;
  /** The office's page: a new one once the app is reopened. */
  let page: Page;
  /** A failed step: the later ones build on it and are skipped. */
  let broken = false;

  /** The person the office enters hours for, and the one given a taken member number. */
  let helper: Person;
  let numbered: Person;
  let takenNumber = '';
  /** The calendar of the service's deleted offline. */
  let oldCalendar = '';
  /** The notifications marked read and deleted. */
  const notification = { read: '', deleted: '' };
  /** What the service held before the day (plain HTTP), and the change journal's last seq. */
  const before = {
    calendars: [] as Served[],
    notifications: [] as Served[],
    hours: [] as Served[],
    occasion: undefined as Served | undefined,
    courses: [] as Served[],
    people: [] as Served[],
    journal: 0,
  };
  /** The ids the service gave the day's new records. */
  const sent = {
    calendar: '',
    hours: '',
    course: '',
    date: '',
    address: '',
    participation: '',
    field: '',
  };

  const snap = (name: string) => shot(page, `office-day-${name}`, false);
  const axe = (screen: string) => office.axe(screen);
  /** WCAG 2 A/AA on the screen as it is, with the system's light and dark scheme. */
  const axeBothThemes = async (screen: string) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await accessibilityViolations(page), `${screen}, ${colorScheme}`).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };
  const many = async (path: string) => (await office.read<{ data: Served[] }>(path)).data;
  const servedOccasion = async () =>
    (await office.read<{ included?: Served[] }>(HOURS)).included?.find((r) => r.id === OCCASION);
  /** A workspace chosen in the navigation (those with a landmark of their own: until it shows). */
  const toWorkspace = async (id: string) => {
    await page.locator(`[data-workspace="${id}"]`).click();
    if (id !== 'hours') await page.getByTestId(`${id}-workspace`).waitFor();
  };
  const calendarRow = (id: string) =>
    page.locator(`[data-testid="calendar-row"][data-calendar-id="${id}"]`);
  const calendarNamed = (name: string) =>
    page.getByTestId('calendar-row').filter({ hasText: name });
  const notificationRow = (id: string) =>
    page.locator(`[data-testid="notification-row"][data-notification-id="${id}"]`);
  const hoursView = () => page.getByTestId('office-hours');
  /** The hours view shows the filter it holds: list and totals answered it. */
  const painted = () =>
    expect.poll(() => hoursView().getAttribute('data-painted'), { timeout: 20_000 }).not.toBeNull();
  const helperEntry = () =>
    page.locator(
      `[data-testid="office-hours-row"][data-user-id="${helper.id}"][data-local-state="created"]`,
    );
  const courseDetail = () => page.getByTestId('course-detail');
  const coursesTotal = async () =>
    Number(
      ((await page.getByTestId('courses-total').textContent()) ?? '').replace(/\D/g, '') || -1,
    );
  const personRow = (id: string) =>
    page.locator(`[data-testid="person-row"][data-person-id="${id}"]`);

  /** The hours of everyone, filtered to the helper. */
  const showHelpersHours = async () => {
    await toWorkspace('hours');
    await page.getByTestId('hours-tab-all').click();
    await painted();
    await page.locator('#office-filter-person').fill(helper.nachname);
    await page
      .locator('.office-hours-filter')
      .getByTestId('combobox-option')
      .filter({ hasText: `${helper.nachname}, ${helper.vorname}` })
      .first()
      .click();
    await painted();
  };
  /** The course made offline, found by its title and opened. */
  const openCourse = async () => {
    await toWorkspace('courses');
    // On the small laptop an open course takes the list's place: back to the list first.
    if (await page.getByTestId('course-back').isVisible())
      await page.getByTestId('course-back').click();
    await page.locator('#office-course-search').fill('Zyx Erste Hilfe am');
    await expect.poll(coursesTotal).toBe(1);
    await page.getByTestId('course-row').first().click();
    await expect.poll(() => page.locator('#course-detail-title').textContent()).toBe(COURSE);
  };
  /** A person found in Personal by their last name and opened. */
  const openPerson = async (person: Person) => {
    await toWorkspace('personnel');
    await page.getByTestId('personnel-tab-people').click();
    await page.locator('#people-search').fill(person.nachname);
    await personRow(person.id).click();
    await expect
      .poll(() => page.locator('#person-title').textContent())
      .toContain(`${person.vorname} ${person.nachname}`);
  };

  beforeAll(async () => {
    ({ sandbox, page } = office);
    const officeUser = office.officeUser();
    // A calendar of the office's on the service, as its web interface would make it: the one
    // deleted offline.
    oldCalendar = await office.create('/kalender', 'kalender', {
      name: 'Zyx Altkalender',
      farbe: '#1a5fd1',
      beschreibung: '',
    });
    // An occasion of this week with an entry of the office's (occasions come with their entries).
    putOccasionWithEntry(
      sandbox,
      { occasion: OCCASION, entry: '990401', userId: officeUser.id },
      'Zyxdienst Hafenfest',
    );
    // Two active people besides the office, each the only one with their last name (plain
    // letters: typed as they are); and a member number a third person has.
    const users = sandbox.store.all('user');
    const lastNames = users.map((user) => String(user.attributes.nachname));
    const [first, second] = users
      .filter(
        (user) =>
          user.id !== officeUser.id &&
          user.attributes.status === 'aktiv' &&
          /^[A-Za-z]+$/.test(String(user.attributes.nachname)) &&
          lastNames.filter((name) => name === user.attributes.nachname).length === 1 &&
          String(user.attributes.mitgliednr ?? '') !== '',
      )
      .map((user) => ({
        id: user.id,
        vorname: String(user.attributes.vorname),
        nachname: String(user.attributes.nachname),
      }));
    helper = first!;
    numbered = second!;
    takenNumber = String(
      users.find(
        (user) =>
          user.id !== numbered.id &&
          user.id !== helper.id &&
          String(user.attributes.mitgliednr ?? '') !== '',
      )!.attributes.mitgliednr,
    );
    expect(users.some((user) => user.attributes.mitgliednr === FIXED_NUMBER)).toBe(false);
  });

  afterEach((test) => {
    if (test.task.result?.state === 'fail') broken = true;
  });

  it('1. signs in as the office and syncs; the service as it was before the day', async () => {
    await office.signIn();
    before.calendars = await many('/kalender');
    before.notifications = await many('/benachrichtigungen');
    before.hours = await many(HOURS);
    before.occasion = await servedOccasion();
    before.courses = await many(WINDOW);
    before.people = await many('/personal');
    expect(before.occasion?.attributes.beschreibung).toBe('Zyxdienst Hafenfest');
    expect(before.calendars.some((calendar) => calendar.id === oldCalendar)).toBe(true);
    expect(
      before.notifications.filter((n) => n.attributes.gelesen === false).length,
    ).toBeGreaterThan(0);
    expect(before.notifications.length).toBeGreaterThan(2);
    before.journal = (
      (await adminRequest(sandbox, 'GET', '/changes?limit=1')) as { last: number }
    ).last;
    await office.goOffline();
  }, 180_000);

  it('2. offline, Kalender: a calendar created, another created and deleted again, one of the service’s deleted', async (test) => {
    if (broken) test.skip();
    await toWorkspace('calendars');
    await expect.poll(() => calendarRow(oldCalendar).count()).toBe(1);
    // N opens the form (the focus out of any field); Enter in a one-line field saves.
    const dialog = page.getByTestId('calendar-dialog');
    for (const name of [CALENDAR, DRAFT_CALENDAR]) {
      await page.getByTestId('events-region').focus();
      await page.keyboard.press('n');
      await dialog.waitFor();
      await page.getByTestId('calendar-name').fill(name);
      await page.getByTestId('calendar-colour').fill('#2e7d32');
      if (name === CALENDAR)
        await page.getByTestId('calendar-description').fill('Dienste der Bereitschaft');
      await page.getByTestId('calendar-name').press('Enter');
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => calendarNamed(name).count()).toBe(1);
      expect(await calendarNamed(name).getByTestId('not-sent').count()).toBe(1);
    }
    // The draft deleted again, and the service's old one: each after a confirmation.
    const confirm = page.getByTestId('calendar-delete-confirm');
    await calendarNamed(DRAFT_CALENDAR).getByTestId('calendar-delete').click();
    await confirm.getByRole('button', { name: 'Löschen' }).click();
    await expect.poll(() => calendarNamed(DRAFT_CALENDAR).count()).toBe(0);
    await calendarRow(oldCalendar).getByTestId('calendar-delete').click();
    await confirm.waitFor();
    await axe('calendar delete confirmation, de');
    await confirm.getByRole('button', { name: 'Löschen' }).click();
    await expect.poll(() => calendarRow(oldCalendar).count()).toBe(0);
    // The created calendar and the deletion wait; the draft created and deleted sends nothing.
    await expect.poll(() => pendingOf(page)).toBe(2);
    await snap('01-calendars-offline-1366x860');
    await axeBothThemes('calendars offline');
    expect(office.pageErrors).toEqual([]);
  }, 60_000);

  it('3. offline, Mitteilungen: one marked read by keyboard, another deleted', async (test) => {
    if (broken) test.skip();
    await page.keyboard.press('Alt+3');
    await page.getByTestId('notifications-list').waitFor();
    const shown = await page.getByTestId('notification-row').evaluateAll((rows) =>
      rows.map((row) => ({
        id: (row as HTMLElement).dataset.notificationId!,
        read: (row as HTMLElement).dataset.read === 'true',
      })),
    );
    expect(shown).toHaveLength(before.notifications.length);
    notification.read = shown.find((item) => !item.read)!.id;
    notification.deleted = shown.find((item) => item.id !== notification.read)!.id;
    // Marked read: the row focused, Enter.
    await notificationRow(notification.read).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => notificationRow(notification.read).getAttribute('data-read'))
      .toBe('true');
    expect(await notificationRow(notification.read).getByTestId('not-sent').count()).toBe(1);
    // Deleted with the mouse.
    await notificationRow(notification.deleted).getByTestId('notification-delete').click();
    await expect.poll(() => notificationRow(notification.deleted).count()).toBe(0);
    await expect.poll(() => pendingOf(page)).toBe(4);
    await snap('02-notifications-offline-1366x860');
    await axe('notifications offline, de');
    expect(office.pageErrors).toEqual([]);
  }, 60_000);

  it('4. offline, Helferstunden: hours entered for another person, an occasion changed', async (test) => {
    if (broken) test.skip();
    await toWorkspace('hours');
    await page.getByTestId('hours-tab-all').click();
    await painted();
    await page.getByTestId('office-hours-add').click();
    const dialog = page.getByTestId('hours-dialog');
    await dialog.waitFor();
    await page.getByTestId('hours-person').fill(helper.nachname);
    await dialog
      .getByTestId('combobox-option')
      .filter({ hasText: `${helper.nachname}, ${helper.vorname}` })
      .first()
      .click();
    await page.getByTestId('hours-date').fill(today());
    await page.getByTestId('hours-start').fill('08:00');
    await page.getByTestId('hours-end').fill('12:30');
    await page.getByTestId('hours-occasion').fill('Zyxdienst');
    await dialog.getByTestId('combobox-option').filter({ hasText: 'Zyxdienst' }).first().click();
    await page.getByTestId('hours-bemerkung').fill('Sanitätsdienst am Kai');
    await expect.poll(() => page.getByTestId('hours-form-error').count()).toBe(0);
    await snap('03-hours-for-another-1366x860');
    await axe('hours for another person, de');
    await page.getByTestId('hours-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => pendingOf(page)).toBe(5);

    // The occasion: its description and day, in the occasions' dialog.
    await page.getByTestId('office-occasions').click();
    await page.getByTestId('occasions-dialog').waitFor();
    await page.getByTestId('occasions-search').fill('Zyxdienst');
    const occasion = page.locator(`[data-testid="occasion-row"][data-occasion-id="${OCCASION}"]`);
    await occasion.getByTestId('occasion-edit').click();
    await page.getByTestId('occasion-beschreibung').fill('Zyxdienst Hafenfest Nord');
    await page.getByTestId('occasion-datum').fill(today());
    await page.getByTestId('occasion-save').click();
    await expect.poll(() => occasion.getAttribute('data-local-state')).toBe('changed');
    await expect.poll(() => pendingOf(page)).toBe(6);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('occasions-dialog').count()).toBe(0);

    // The helper's entry, listed with the occasion's new description, not yet sent.
    await showHelpersHours();
    await expect.poll(() => helperEntry().count()).toBe(1);
    expect(await helperEntry().textContent()).toContain('4,5 Std.');
    await expect.poll(() => helperEntry().textContent()).toContain('Zyxdienst Hafenfest Nord');
    expect(office.pageErrors).toEqual([]);
  }, 60_000);

  it('5. offline, Kurse: a course created, a participant and a custom field added to it', async (test) => {
    if (broken) test.skip();
    await toWorkspace('courses');
    await page.locator('#office-course-search').fill('');
    // N opens the form (the focus out of any field).
    await page.locator('#workspace-title').click();
    await page.keyboard.press('n');
    const dialog = page.getByTestId('new-course-dialog');
    await dialog.waitFor();
    const typeValue = await page
      .getByTestId('new-course-type')
      .locator('option')
      .nth(1)
      .getAttribute('value');
    await page.getByTestId('new-course-type').selectOption(typeValue!);
    await page.getByTestId('new-course-title').fill(COURSE);
    const [year, month, date] = fromToday(10).split('-');
    await page.getByTestId('new-course-day-0').fill(`${date}.${month}.${year}`);
    await page.getByTestId('new-course-description').fill('Seemannsheim Zyx');
    await page.getByTestId('new-course-street').fill('Kaistraße 7');
    await page.getByTestId('new-course-postalCode').fill('24103');
    await page.getByTestId('new-course-city').fill('Kiel');
    await page.getByTestId('new-course-max').fill('14');
    await page.getByTestId('new-course-submit').click();
    await expect.poll(() => dialog.count()).toBe(0);
    // It opens at once, marked not sent.
    await expect.poll(() => page.locator('#course-detail-title').textContent()).toBe(COURSE);
    expect(await courseDetail().getAttribute('data-course-id')).toMatch(/^local-/);
    await expect.poll(() => pendingOf(page)).toBe(7);

    await addParticipantAndField(
      page,
      courseDetail,
      { first: 'Zoë', last: 'Zyxhafen' },
      { name: 'Raum', value: 'Saal 2' },
    );
    await expect.poll(() => pendingOf(page)).toBe(9);
    await snap('04-course-created-offline-1366x860');
    await axeBothThemes('course created offline');
    expect(office.pageErrors).toEqual([]);
  }, 60_000);

  it('6. offline, Personal: a person given a member number another person has (the replica warns; the service will decide)', async (test) => {
    if (broken) test.skip();
    await openPerson(numbered);
    await page.getByTestId('person-edit').click();
    await page.getByTestId('person-field-mitgliednr').fill(takenNumber);
    await page.getByTestId('person-number-taken').waitFor();
    await page.getByTestId('person-save').click();
    await expect.poll(() => page.getByTestId('person-dialog').count()).toBe(0);
    await expect.poll(() => pendingOf(page)).toBe(10);
    await expect.poll(() => page.getByTestId('person-detail').textContent()).toContain(takenNumber);
    // The sync centre says in words what waits.
    await page.keyboard.press('Alt+8');
    await expect
      .poll(() => page.locator('main').textContent())
      .toContain(`${numbered.vorname} ${numbered.nachname} geändert`);
    const readTitle = before.notifications.find((n) => n.id === notification.read)!.attributes
      .titel as string;
    expect(await page.locator('main').textContent()).toContain(
      `Benachrichtigung „${readTitle}“ als gelesen markiert`,
    );
    await snap('05-sync-centre-offline-1366x860');
    await axe('sync centre offline, de');
    expect(office.pageErrors).toEqual([]);
  }, 60_000);

  it('7. the app closed and opened again, still offline: signed in, everything there', async (test) => {
    if (broken) test.skip();
    await office.reopen();
    page = office.page;
    await expect.poll(() => phaseOf(page), { timeout: 20_000, interval: 100 }).toBe('offline');
    await expect.poll(() => pendingOf(page)).toBe(10);

    await toWorkspace('calendars');
    await expect.poll(() => calendarNamed(CALENDAR).count()).toBe(1);
    expect(await calendarNamed(DRAFT_CALENDAR).count()).toBe(0);
    expect(await calendarRow(oldCalendar).count()).toBe(0);

    await page.keyboard.press('Alt+3');
    await page.getByTestId('notifications-list').waitFor();
    await expect
      .poll(() => notificationRow(notification.read).getAttribute('data-read'))
      .toBe('true');
    expect(await notificationRow(notification.deleted).count()).toBe(0);

    await showHelpersHours();
    await expect.poll(() => helperEntry().count()).toBe(1);
    expect(await helperEntry().textContent()).toContain('Zyxdienst Hafenfest Nord');
    await snap('06-reopened-hours-1366x860');

    await openPerson(numbered);
    await expect.poll(() => page.getByTestId('person-detail').textContent()).toContain(takenNumber);

    // The course, on the small laptop (one pane: the course in the list's place).
    await page.setViewportSize(SMALL_LAPTOP);
    await openCourse();
    await expect.poll(() => courseDetail().getByTestId('participant-row').count()).toBe(1);
    expect(await courseDetail().getByTestId('participant-row').first().textContent()).toContain(
      'Zyxhafen',
    );
    await expect
      .poll(() => courseDetail().getByTestId('customfield-value').textContent())
      .toBe('Saal 2');
    await snap('07-reopened-course-1024x700');
    await axeBothThemes('course reopened 1024');
    await page.setViewportSize(LAPTOP);
    expect(office.pageErrors).toEqual([]);
  }, 90_000);

  it('8. the service back, nobody acting: all of it sent but the refused member number; the service holds exactly those changes', async (test) => {
    if (broken) test.skip();
    await page.keyboard.press('Alt+8');
    await office.setOnline(true);
    await expect.poll(() => pendingOf(page), { timeout: 60_000, interval: 250 }).toBe(0);
    await expect
      .poll(() => page.getByTestId('sync-parked').getAttribute('data-count'), { timeout: 30_000 })
      .toBe('1');
    const parked = page.locator('[data-testid="outbox-row"][data-state="parked"]');
    await expect.poll(() => parked.count()).toBe(1);
    expect(await parked.getAttribute('data-command')).toBe('user.update');
    expect(await parked.getByTestId('outbox-state').textContent()).toContain(takenNumber);
    await snap('08-refused-1366x860');
    await axeBothThemes('sync centre with a refused change');

    // Kalender: the new one once, with what was typed; the draft never sent; the old one gone.
    const calendars = await many('/kalender');
    const known = new Set(before.calendars.map((calendar) => calendar.id));
    const addedCalendars = calendars.filter((calendar) => !known.has(calendar.id));
    expect(addedCalendars.map((calendar) => calendar.attributes)).toEqual([
      expect.objectContaining({
        name: CALENDAR,
        farbe: '#2e7d32',
        beschreibung: 'Dienste der Bereitschaft',
      }),
    ]);
    expect(calendars.some((calendar) => calendar.id === oldCalendar)).toBe(false);
    const unchanged = (records: Served[], leaveOut: Set<string>) =>
      [...byId(records)].filter(([id]) => !leaveOut.has(id));
    sent.calendar = addedCalendars[0]!.id;
    expect(unchanged(calendars, new Set([sent.calendar]))).toEqual(
      unchanged(before.calendars, new Set([oldCalendar])),
    );

    // Mitteilungen: the one read, the other gone, the rest as they were.
    const notifications = await many('/benachrichtigungen');
    expect(notifications.find((n) => n.id === notification.read)?.attributes.gelesen).toBe(true);
    expect(notifications.some((n) => n.id === notification.deleted)).toBe(false);
    const touched = new Set([notification.read, notification.deleted]);
    expect(unchanged(notifications, touched)).toEqual(unchanged(before.notifications, touched));

    // Helferstunden: one entry more, the helper's at the occasion; the occasion changed.
    const hours = await many(HOURS);
    const knownHours = new Set(before.hours.map((entry) => entry.id));
    const addedHours = hours.filter((entry) => !knownHours.has(entry.id));
    expect(addedHours).toHaveLength(1);
    const entry = addedHours[0]!;
    sent.hours = entry.id;
    expect(idOf(entry, 'user')).toBe(helper.id);
    expect(idOf(entry, 'anlass')).toBe(OCCASION);
    expect(entry.attributes).toMatchObject({
      stunden: 4.5,
      bemerkung: 'Sanitätsdienst am Kai',
      freigegeben: false,
    });
    expect(String(entry.attributes.von).slice(0, 16)).toBe(`${today()}T08:00`);
    expect(unchanged(hours, new Set([entry.id]))).toEqual(unchanged(before.hours, new Set()));
    expect((await servedOccasion())?.attributes).toEqual({
      ...before.occasion!.attributes,
      beschreibung: 'Zyxdienst Hafenfest Nord',
      datum: today(),
      updated_at: expect.any(String),
    });

    // Kurse: the course once, with its date and place, its one participant and its one field.
    const courses = await many(WINDOW);
    const made = courses.filter((course) => course.attributes.title === COURSE);
    expect(made).toHaveLength(1);
    expect(courses).toHaveLength(before.courses.length + 1);
    const course = made[0]!;
    sent.course = course.id;
    expect(course.attributes).toMatchObject({ max_participants: 14 });
    const full = await office.read<{ included?: Served[] }>(`/courses/${course.id}`);
    const dates = (full.included ?? []).filter((record) => record.type === 'course_date');
    expect(dates.map((d) => String(d.attributes.from).slice(0, 10))).toEqual([fromToday(10)]);
    sent.date = dates[0]!.id;
    const place = (full.included ?? []).find((record) => record.type === 'address')!;
    sent.address = place.id;
    expect(place.attributes).toMatchObject({
      description: 'Seemannsheim Zyx',
      street: 'Kaistraße 7',
      postal_code: '24103',
      city: 'Kiel',
    });
    const participations = await many(`/courses/${course.id}/participations`);
    expect(participations.map((p) => [p.attributes.first_name, p.attributes.last_name])).toEqual([
      ['Zoë', 'Zyxhafen'],
    ]);
    sent.participation = participations[0]!.id;
    const fields = await many(`/courses/${course.id}/customfields`);
    expect(fields.map((f) => [f.attributes.name, f.attributes.value])).toEqual([
      ['Raum', 'Saal 2'],
    ]);
    sent.field = fields[0]!.id;

    // Personal: nobody changed yet (the member number waits in the sync centre).
    expect([...byId(await many('/personal'))]).toEqual([...byId(before.people)]);
    expect(office.pageErrors).toEqual([]);
  }, 120_000);

  it('9. the refused change corrected in the sync centre and sent; the service’s journal names exactly the day’s changes', async (test) => {
    if (broken) test.skip();
    const parked = page.locator('[data-testid="outbox-row"][data-state="parked"]');
    await parked.getByTestId('outbox-edit').click();
    const form = page.getByTestId('person-dialog');
    await form.waitFor();
    expect(await page.locator('#person-dialog-title').textContent()).toBe(
      'Vom Dienst abgelehnte Änderung korrigieren',
    );
    expect(await page.getByTestId('person-refused-reason').textContent()).toContain(takenNumber);
    expect(await page.getByTestId('person-field-mitgliednr').inputValue()).toBe(takenNumber);
    await page.setViewportSize(SMALL_LAPTOP);
    await snap('09-refused-form-1024x700');
    await axeBothThemes('refused change form 1024');
    await page.setViewportSize(LAPTOP);
    await page.getByTestId('person-field-mitgliednr').fill(FIXED_NUMBER);
    await page.getByTestId('person-save').click();
    await expect.poll(() => form.count()).toBe(0);
    await expect.poll(() => parked.count(), { timeout: 60_000, interval: 250 }).toBe(0);
    await expect.poll(() => pendingOf(page), { timeout: 60_000, interval: 250 }).toBe(0);
    await expect.poll(() => page.getByTestId('sync-parked').count()).toBe(0);
    await snap('10-all-sent-1366x860');

    // Personal: that one person's member number, nothing else.
    const people = await many('/personal');
    const changed = people.find((person) => person.id === numbered.id)!;
    expect(changed.attributes.mitgliednr).toBe(FIXED_NUMBER);
    const others = (records: Served[]) => [...byId(records)].filter(([id]) => id !== numbered.id);
    expect(others(people)).toEqual(others(before.people));
    const was = before.people.find((person) => person.id === numbered.id)!;
    expect({ ...changed.attributes, mitgliednr: was.attributes.mitgliednr }).toEqual(
      was.attributes,
    );

    // The service's change journal since the day began: the writes of those changes, and no other.
    const { changes } = (await adminRequest(
      sandbox,
      'GET',
      `/changes?after=${before.journal}`,
    )) as { changes: JournalEntry[] };
    // Each record written once or more (a course is written again when a participant joins it),
    // no other record: the draft calendar never sent, nothing made twice.
    const writes = new Set(changes.map((change) => `${change.op} ${change.type} ${change.id}`));
    expect([...writes].sort()).toEqual(
      [
        `put kalender ${sent.calendar}`,
        `remove kalender ${oldCalendar}`,
        `put benachrichtigung ${notification.read}`,
        `remove benachrichtigung ${notification.deleted}`,
        `put helferstunden ${sent.hours}`,
        `put helferstunden_anlass ${OCCASION}`,
        `put course ${sent.course}`,
        `put course_date ${sent.date}`,
        `put address ${sent.address}`,
        `put participation ${sent.participation}`,
        `put customfield ${sent.field}`,
        `put user ${numbered.id}`,
      ].sort(),
    );
    expect(office.pageErrors).toEqual([]);
  }, 120_000);

  it('10. a trainer’s token in the same browser: none of the office’s areas, no error', async (test) => {
    if (broken) test.skip();
    const login = await office.otherLogin('trainer1');
    const trainer = login.page;
    try {
      // The daily work, the sync centre and the settings; no Personal, Kunden, Stammdaten.
      await expect
        .poll(() =>
          trainer
            .locator('nav [data-workspace]')
            .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.workspace)),
        )
        .toEqual(['courses', 'hours', 'notifications', 'calendars', 'syncCenter', 'settings']);
      expect(await trainer.locator('.nav-group-office').count()).toBe(0);
      // Their keys lead nowhere of the office's either.
      for (const key of ['Alt+5', 'Alt+6', 'Alt+7']) {
        await trainer.keyboard.press(key);
        for (const area of ['personnel', 'clients', 'reference'])
          expect(await trainer.getByTestId(`${area}-workspace`).count(), `${key}: ${area}`).toBe(0);
      }
      // The hours: their own, no "Alle" tab.
      await trainer.locator('[data-workspace="hours"]').click();
      await trainer.getByTestId('hours-total').waitFor();
      expect(await trainer.getByTestId('hours-tab-all').count()).toBe(0);
      expect(await trainer.getByTestId('office-hours').count()).toBe(0);
      expect(await trainer.getByTestId('office-hours-refused').count()).toBe(0);
      // The courses: their own, no new course.
      await trainer.locator('[data-workspace="courses"]').click();
      await trainer.getByTestId('courses-workspace').waitFor();
      expect(await trainer.getByTestId('course-new').count()).toBe(0);
      await shot(trainer, 'office-day-11-trainer-1366x860', false);
      expect(await accessibilityViolations(trainer), 'trainer courses').toEqual([]);
      await trainer.setViewportSize(SMALL_LAPTOP);
      await trainer.locator('[data-workspace="syncCenter"]').click();
      await shot(trainer, 'office-day-12-trainer-sync-centre-1024x700', false);
      expect(await accessibilityViolations(trainer), 'trainer sync centre 1024').toEqual([]);
      // No error anywhere: not in the indicator, not in the sync centre, not on the page.
      expect(await phaseOf(trainer)).toBe('idle');
      expect(await trainer.locator('.error-list .error-item').count()).toBe(0);
      expect(await trainer.getByTestId('sync-parked').count()).toBe(0);
      expect(login.pageErrors).toEqual([]);
    } catch (error) {
      await shot(trainer, 'office-day-failed-trainer');
      throw error;
    } finally {
      await login.close();
    }
    expect(office.pageErrors).toEqual([]);
  }, 120_000);
});
