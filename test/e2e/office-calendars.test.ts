// The office's Kalender, Stammdaten and Formulare (issue 23) in Debian's Chromium against browser
// mode on the sandbox, at 1366×860 and 1024×700, in German and English, light and dark: the
// calendars with their feed address masked and copied whole only on request; the private feed's
// events by week and day, a repeating event of a feed served on loopback on every day it occurs
// (a left-out and a moved occurrence as the feed says); offline a calendar created (refused first without a name, beside the
// field) and another deleted, both still so after a reload offline, and the service back holding
// exactly those changes (plain HTTP); the reference data by keyboard; a course's forms (https as
// links, anything else as text); and a trainer whose login may not use calendars or tax rates
// has no entry for them (nor for the office's Stammdaten), the sync centre saying why, no error. axe-core on each view. Screenshots:
// test-artifacts/e2e/calendars-*.png, reference-*.png.
import { createServer } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ROLE_SCOPES } from '../../sandbox/auth/scopes';
import { formatBerlinDate } from '../../sandbox/data/time';
import type { RunningSandbox } from '../../sandbox/server';
import { BERLIN_VTIMEZONE } from '../../sync/export/ics';
import { useOfficeApp } from './office-fixture';
import {
  accessibilityViolations,
  adminRequest,
  chromiumPresent,
  confirmCourseAt,
  LAPTOP,
  pendingOf,
  phaseOf,
  shot,
  SMALL_LAPTOP,
} from './support';

const haveChromium = chromiumPresent('office calendars e2e');

interface Served {
  id: string;
  attributes: Record<string, unknown>;
}

describe.skipIf(!haveChromium)(
  'the office’s Kalender, Stammdaten and Formulare in Chromium',
  () => {
    const office = useOfficeApp({
      name: 'calendars',
      artifacts: ['calendars-', 'reference-'],
      clipboard: true,
      // The next step starts online, without a dialog left open.
      afterFailure: async (fixture) => {
        await fixture.setOnline(true);
        await fixture.page.keyboard.press('Escape').catch(() => {});
      },
    });
    let sandbox: RunningSandbox;
    let page: Page;
    let userData: string;
    /** A second calendar of the office's, made for the test: the one deleted offline. */
    let spareId = '';
    /** A course of the sync's window with forms, one of them not an https address. */
    let formCourse = { id: '', number: '' };
    /** Weeks from this one to one with events of the feed. */
    let eventWeeks = 0;

    const language = (code: 'de' | 'en') => office.language(code);
    const axe = (screen: string) => office.axe(screen);
    /** What the service holds, read as any client would (plain HTTP). */
    const served = async (path: string): Promise<Served[]> =>
      (await office.read<{ data: Served[] }>(path)).data;
    const calendarRow = (id: string) =>
      page.locator(`[data-testid="calendar-row"][data-calendar-id="${id}"]`);
    const setOnline = (on: boolean) => office.setOnline(on);
    const go = async (workspace: string) => {
      await page.locator(`[data-workspace="${workspace}"]`).click();
    };

    beforeAll(async () => {
      ({ sandbox, page, userData } = office);
      // A second calendar, as the service's web interface would make it.
      spareId = await office.create('/kalender', 'kalender', {
        name: 'Zyx Altkalender',
        farbe: '#1a5fd1',
        beschreibung: '',
      });
      // A course of the next two weeks with the demo's forms, given one more that is no https
      // address (shown as text, never as a link).
      const [soon, later] = [
        formatBerlinDate(Date.now()),
        formatBerlinDate(Date.now() + 14 * 864e5),
      ];
      const withForms = new Set(
        sandbox.store
          .all('formular')
          .filter((form) => form.attributes.objekt_typ === 'k')
          .map((form) => String(form.attributes.objekt_id)),
      );
      const date = sandbox.store.all('course_date').find((candidate) => {
        const day = String(candidate.attributes.from).slice(0, 10);
        const course = (candidate.relationships.course as { id: string }).id;
        return day >= soon && day <= later && withForms.has(course);
      })!;
      const course = sandbox.store.get('course', (date.relationships.course as { id: string }).id)!;
      formCourse = { id: course.id, number: String(course.attributes.course_number) };
      await adminRequest(sandbox, 'POST', '/formulare', {
        objekt_typ: 'k',
        objekt_id: course.id,
        titel: 'Zyx Hausformular',
        aktion: { typ: 'link', url: 'http://intranet.example/zyx', methode: 'GET' },
      });
    });

    it('signs in as the office and syncs', () => office.signIn(), 180_000);

    it('Kalender: the calendars with their address masked, copied whole on request; the feed’s events by week and day', async (test) => {
      if (!office.signedIn) test.skip();
      const calendars = await served('/kalender');
      expect(calendars.length).toBeGreaterThanOrEqual(2);
      await go('calendars');
      await page.getByTestId('calendars-workspace').waitFor();
      await expect.poll(() => page.getByTestId('calendar-row').count()).toBe(calendars.length);
      const own = calendars.find((calendar) => calendar.attributes.ical_url)!;
      const secret = new URL(String(own.attributes.ical_url)).pathname;
      // Shown masked: scheme and host only.
      expect(await calendarRow(own.id).textContent()).toContain(
        `${new URL(String(own.attributes.ical_url)).origin}/…`,
      );
      await calendarRow(own.id).getByTestId('calendar-copy').click();
      await expect
        .poll(() => page.evaluate(() => navigator.clipboard.readText()))
        .toBe(own.attributes.ical_url);
      expect(await page.content()).not.toContain(secret);

      // The feed not yet set up: the calendar's address becomes the feed, its events read at once.
      await page.getByTestId('feed-none').waitFor();
      await calendarRow(own.id).getByTestId('calendar-use-feed').click();
      await expect.poll(() => page.getByTestId('feed-line').textContent()).toMatch(/gelesen/);
      expect(await page.content()).not.toContain(secret);
      const feed = await (await fetch(String(own.attributes.ical_url))).text();
      const days = [...feed.matchAll(/\nDTSTART[^:]*:(\d{8})(T\d{6}Z?)?/g)]
        .map(([, day, time]) =>
          time?.endsWith('Z')
            ? formatBerlinDate(
                Date.parse(
                  `${day!.slice(0, 4)}-${day!.slice(4, 6)}-${day!.slice(6, 8)}T${time.slice(1, 3)}:${time.slice(3, 5)}:00Z`,
                ),
              )
            : `${day!.slice(0, 4)}-${day!.slice(4, 6)}-${day!.slice(6, 8)}`,
        )
        .sort();
      expect(days.length).toBeGreaterThan(0);
      const today = formatBerlinDate(Date.now());
      const target = days.find((day) => day >= today) ?? days.at(-1)!;
      // To the target's week by keyboard, from this week.
      const weeks = Math.round(
        (mondayOf(target).getTime() - mondayOf(today).getTime()) / (7 * 864e5),
      );
      eventWeeks = weeks;
      await page.getByTestId('events-region').focus();
      await page.keyboard.press('w');
      await page.keyboard.press('t');
      for (let step = 0; step < Math.abs(weeks); step++)
        await page.keyboard.press(weeks > 0 ? 'ArrowRight' : 'ArrowLeft');
      const day = page.locator(`[data-testid="event-day"][data-day="${target}"]`);
      await day.waitFor();
      const onTarget = days.filter((d) => d === target).length;
      await expect.poll(() => day.getByTestId('feed-event').count()).toBe(onTarget);
      expect(await page.getByTestId('event-day').count()).toBe(7);
      await shot(page, 'calendars-week-1366x860-de', false);
      await axe('calendars week, de');
      // That day alone: D on the week's anchor (today's weekday), then ←→ by one day to it.
      await page.keyboard.press('d');
      await expect.poll(() => page.getByTestId('event-day').count()).toBe(1);
      const anchor = new Date(Date.parse(`${today}T12:00:00Z`) + weeks * 7 * 864e5);
      const steps = Math.round((Date.parse(`${target}T12:00:00Z`) - anchor.getTime()) / 864e5);
      for (let step = 0; step < Math.abs(steps); step++)
        await page.keyboard.press(steps > 0 ? 'ArrowRight' : 'ArrowLeft');
      await expect.poll(() => day.count()).toBe(1);
      await expect.poll(() => day.getByTestId('feed-event').count()).toBe(onTarget);
      await shot(page, 'calendars-day-1366x860-de', false);
      await page.keyboard.press('w');
      expect(office.pageErrors).toEqual([]);
    }, 90_000);

    it('Kalender offline: one created (refused without a name first), another deleted; reopened offline both hold; the service back holds exactly that', async (test) => {
      if (!office.signedIn) test.skip();
      const before = await served('/kalender');
      await go('calendars');
      await page.getByTestId('calendars-workspace').waitFor();
      await setOnline(false);
      await expect.poll(() => phaseOf(page), { timeout: 20_000, interval: 100 }).toBe('offline');

      // N opens the form (the focus out of any field); without a name it is refused beside it.
      await page.getByTestId('events-region').focus();
      await page.keyboard.press('n');
      const dialog = page.getByTestId('calendar-dialog');
      await dialog.waitFor();
      expect(await page.getByTestId('calendar-draft').textContent()).toContain('DRAFT');
      await shot(page, 'calendars-create-1366x860-de', false);
      await axe('calendar create, de');
      await page.getByTestId('calendar-save').click();
      await expect
        .poll(() => dialog.locator('.field.invalid [data-testid="field-error"]').count())
        .toBe(1);
      expect(await pendingOf(page)).toBe(0);
      await page.getByTestId('calendar-name').fill('Zyx Einsatzplanung');
      await page.getByTestId('calendar-colour').fill('#2e7d32');
      await page.getByTestId('calendar-description').fill('Dienste der Bereitschaft');
      // Enter in a one-line field saves.
      await page.getByTestId('calendar-name').press('Enter');
      await expect.poll(() => dialog.count()).toBe(0);
      const created = page.getByTestId('calendar-row').filter({ hasText: 'Zyx Einsatzplanung' });
      await expect.poll(() => created.count()).toBe(1);
      expect(await created.getByTestId('not-sent').count()).toBe(1);

      // Another deleted, after a confirmation.
      await calendarRow(spareId).getByTestId('calendar-delete').click();
      const confirm = page.getByTestId('calendar-delete-confirm');
      await confirm.waitFor();
      await axe('calendar delete confirmation, de');
      await confirm.getByRole('button', { name: 'Löschen' }).click();
      await expect.poll(() => calendarRow(spareId).count()).toBe(0);
      await expect.poll(() => pendingOf(page)).toBe(2);
      await shot(page, 'calendars-offline-1366x860-de', false);

      // Reopened offline: both changes hold, the feed's events are still there.
      await page.reload();
      await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
      await go('calendars');
      await expect.poll(() => created.count()).toBe(1);
      expect(await calendarRow(spareId).count()).toBe(0);
      await expect.poll(() => pendingOf(page)).toBe(2);
      // The week of the events again (a reload starts at this week).
      await page.getByTestId('events-region').focus();
      await page.keyboard.press('w');
      for (let step = 0; step < Math.abs(eventWeeks); step++)
        await page.keyboard.press(eventWeeks > 0 ? 'ArrowRight' : 'ArrowLeft');
      await expect.poll(() => page.getByTestId('feed-event').count()).toBeGreaterThan(0);

      await page.setViewportSize(SMALL_LAPTOP);
      await language('en');
      await expect.poll(() => page.locator('#calendars-title').textContent()).toBe('Calendars');
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot(page, 'calendars-1024x700-en-dark', false);
      await axe('calendars 1024, en, dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await axe('calendars 1024, en, light');
      await language('de');
      await page.setViewportSize(LAPTOP);

      // The service back, nobody acting: exactly those two changes.
      await setOnline(true);
      await expect.poll(() => pendingOf(page), { timeout: 60_000, interval: 250 }).toBe(0);
      const after = await served('/kalender');
      const added = after.filter((calendar) => !before.some((b) => b.id === calendar.id));
      expect(added).toHaveLength(1);
      expect(added[0]!.attributes).toMatchObject({
        name: 'Zyx Einsatzplanung',
        farbe: '#2e7d32',
        beschreibung: 'Dienste der Bereitschaft',
      });
      expect(after.some((calendar) => calendar.id === spareId)).toBe(false);
      const kept = (list: Served[]) =>
        list
          .filter((calendar) => calendar.id !== spareId && calendar.id !== added[0]!.id)
          .map((calendar) => ({ id: calendar.id, ...calendar.attributes }));
      expect(kept(after)).toEqual(kept(before));
      expect(after).toHaveLength(before.length);
      // The new calendar now has its own address, shown masked.
      await expect.poll(() => created.getByTestId('calendar-copy').count()).toBe(1);
      expect(office.pageErrors).toEqual([]);
    }, 180_000);

    it('Formulare in a course and in a person: https ones open outside, anything else is text', async (test) => {
      if (!office.signedIn) test.skip();
      const served = (await (
        await fetch(
          `${sandbox.baseUrl}/formulare/v1/liste?typ=k&id=${encodeURIComponent(formCourse.id)}`,
          { headers: { authorization: `Bearer ${office.officeUser().accessToken}` } },
        )
      ).json()) as { titel: string; aktion: { url: string } }[];
      // The sync confirmed the course a moment ago; as a minute later, opening it asks anew.
      try {
        confirmCourseAt(userData, formCourse.id, Date.now() - 5 * 60_000);
      } catch {
        // Never confirmed yet: opening it asks anyway.
      }
      await page.keyboard.press('Control+k');
      await page.getByTestId('search-palette-input').waitFor();
      await page.keyboard.type(formCourse.number);
      await expect
        .poll(() => page.getByTestId('search-hit').first().getAttribute('data-kind'))
        .toBe('course');
      await page.keyboard.press('Enter');
      const section = page.getByTestId('course-detail').getByTestId('forms-section');
      await section.scrollIntoViewIfNeeded();
      await expect.poll(() => section.getByTestId('form-item').count()).toBe(served.length);
      const links = await section
        .locator('a')
        .evaluateAll((anchors) =>
          anchors.map((a) => [a.getAttribute('href'), a.getAttribute('target')]),
        );
      expect(links).toEqual(
        served
          .filter((form) => form.aktion.url.startsWith('https://'))
          .map((form) => [new URL(form.aktion.url).href, '_blank']),
      );
      expect(await section.locator('[data-link="none"]').textContent()).toContain(
        'Zyx Hausformular',
      );
      await section.scrollIntoViewIfNeeded();
      await shot(page, 'reference-course-forms-1366x860-de', false);
      await axe('course forms, de');

      // The own person's forms beside their data.
      await page.keyboard.press('Control+k');
      await page.getByTestId('search-palette-input').waitFor();
      const [first, ...rest] = office.officeUser().name.split(' ');
      const last = rest.join(' ');
      await page.keyboard.type(last);
      const hit = page
        .locator('[data-testid="search-hit"][data-kind="person"]')
        .filter({ hasText: `${last}, ${first!}` });
      await expect.poll(() => hit.count()).toBeGreaterThan(0);
      await hit.first().click();
      const personForms = page.getByTestId('person-detail').getByTestId('forms-section');
      await expect.poll(() => personForms.getByTestId('form-item').count()).toBeGreaterThan(0);
      await axe('person forms, de');
      expect(office.pageErrors).toEqual([]);
    }, 90_000);

    it('Stammdaten: organisation, own account, tax rates, UVTs, course types and every form, by keyboard', async (test) => {
      if (!office.signedIn) test.skip();
      await go('reference');
      await page.getByTestId('reference-workspace').waitFor();
      // The workspace starts on its tabs.
      await expect
        .poll(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.tab))
        .toBe('organisation');
      const orga = (
        (await (
          await fetch(`${sandbox.baseUrl}/organisation/selbst/stammdaten`, {
            headers: { authorization: `Bearer ${office.officeUser().accessToken}` },
          })
        ).json()) as { data: Served }
      ).data;
      await expect
        .poll(() => page.getByTestId('reference-organisation').textContent())
        .toContain(String(orga.attributes.name));
      await shot(page, 'reference-organisation-1366x860-de', false);
      await axe('reference organisation, de');
      await page.keyboard.press('ArrowRight');
      await expect
        .poll(() => page.getByTestId('reference-account').textContent())
        .toContain(office.officeUser().name.split(' ').at(-1)!);
      await page.keyboard.press('ArrowRight');
      const rates = await served('/steuersaetze');
      await expect.poll(() => page.getByTestId('tax-rate-row').count()).toBe(rates.length);
      expect(await page.getByTestId('reference-tax-rates').textContent()).toContain('19 %');
      await axe('reference tax rates, de');
      await page.keyboard.press('ArrowRight');
      const favourites = await served('/uvts');
      await expect
        .poll(() => page.locator('[data-testid="uvt-row"][data-favorite="true"]').count())
        .toBe(favourites.filter((uvt) => uvt.attributes.favorite === true).length);
      expect(await page.getByTestId('uvt-row').count()).toBeGreaterThan(favourites.length);
      await shot(page, 'reference-uvts-1366x860-de', false);
      await axe('reference uvts, de');
      await page.keyboard.press('ArrowRight');
      const types = await served('/courses/types');
      await expect.poll(() => page.getByTestId('course-type-row').count()).toBe(types.length);
      await page.keyboard.press('ArrowRight');
      const forms = page.getByTestId('reference-panel-forms');
      await expect.poll(() => forms.getByTestId('forms-object').count()).toBeGreaterThan(1);
      const course = forms
        .getByTestId('forms-object')
        .filter({ hasText: formCourse.number })
        .first();
      await expect.poll(() => course.getByTestId('form-item').count()).toBeGreaterThan(1);
      expect(await course.locator('[data-link="none"]').textContent()).toContain(
        'http://intranet.example/zyx',
      );
      expect(await course.locator('[data-link="none"] a').count()).toBe(0);
      await shot(page, 'reference-forms-1366x860-de', false);
      await axe('reference forms, de');
      // The table scrolls by keyboard: Tab into it.
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() =>
          document.activeElement?.classList.contains('reference-table-region'),
        ),
      ).toBe(true);

      await page.setViewportSize(SMALL_LAPTOP);
      await language('en');
      await expect
        .poll(() => page.locator('#reference-title').textContent())
        .toBe('Reference data');
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot(page, 'reference-course-types-1024x700-en-dark', false);
      await axe('reference 1024, en, dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await language('de');
      await page.setViewportSize(LAPTOP);
      expect(office.pageErrors).toEqual([]);
    }, 90_000);

    it('Kalender: a repeating event of the private feed on every day it occurs, a left-out day and a moved one as the feed says, by week and day', async (test) => {
      if (!office.signedIn) test.skip();
      await setOnline(true);
      // A weekly 18:00–20:00 Berlin event since two weeks before today (its dates from today, in
      // Berlin days): next week's left out (EXDATE), the one in two weeks moved to 20:00 (its own
      // VEVENT). Served by a small server of this test on loopback, set up as the private feed.
      const today = formatBerlinDate(Date.now());
      const day = (offset: number) =>
        new Date(Date.parse(`${today}T12:00:00Z`) + offset * 864e5).toISOString().slice(0, 10);
      const local = (offset: number, hour: string) =>
        `${day(offset).replaceAll('-', '')}T${hour}0000`;
      const text = [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Test//Wiederholung//DE',
        ...BERLIN_VTIMEZONE,
        'BEGIN:VEVENT',
        'UID:dienstabend@e2e',
        'DTSTAMP:20260101T000000Z',
        `DTSTART;TZID=Europe/Berlin:${local(-14, '18')}`,
        `DTEND;TZID=Europe/Berlin:${local(-14, '20')}`,
        'RRULE:FREQ=WEEKLY',
        `EXDATE;TZID=Europe/Berlin:${local(7, '18')}`,
        'SUMMARY:Dienstabend',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:dienstabend@e2e',
        'DTSTAMP:20260101T000000Z',
        `RECURRENCE-ID;TZID=Europe/Berlin:${local(14, '18')}`,
        `DTSTART;TZID=Europe/Berlin:${local(14, '20')}`,
        `DTEND;TZID=Europe/Berlin:${local(14, '22')}`,
        'SUMMARY:Dienstabend (verlegt)',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
      const feedServer = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' });
        response.end(text);
      });
      await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
      try {
        const port = (feedServer.address() as { port: number }).port;
        await go('settings');
        await page
          .getByTestId('feed-url')
          .fill(`http://127.0.0.1:${port}/ical/v1/veranstaltungen/private-e2e/termine.ics`);
        await page.getByTestId('feed-save').click();
        await go('calendars');
        await page.getByTestId('events-region').focus();
        await page.keyboard.press('w');
        await page.keyboard.press('t');
        const entries = (offset: number) =>
          page
            .locator(`[data-testid="event-day"][data-day="${day(offset)}"]`)
            .locator('[data-testid="feed-event"][data-uid="dienstabend@e2e"]');
        // This week: today's, 18:00–20:00, marked as repeating.
        await expect.poll(() => entries(0).count(), { timeout: 20_000 }).toBe(1);
        expect(await entries(0).textContent()).toMatch(/18:00–20:00.*Dienstabend.*wiederkehrend/);
        await shot(page, 'calendars-recurring-week-1366x860-de', false);
        // Next week's left out; the week after, the moved one once, at 20:00.
        await page.keyboard.press('ArrowRight');
        await page.locator(`[data-testid="event-day"][data-day="${day(7)}"]`).waitFor();
        await expect.poll(() => entries(7).count()).toBe(0);
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => entries(14).count()).toBe(1);
        expect(await entries(14).textContent()).toMatch(/20:00–22:00.*Dienstabend \(verlegt\)/);
        // Three weeks on, by day: the day view shows that day's occurrence.
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('d');
        await expect.poll(() => page.getByTestId('event-day').count()).toBe(1);
        await expect.poll(() => entries(21).count()).toBe(1);
        expect(await entries(21).textContent()).toMatch(/18:00–20:00/);
        await shot(page, 'calendars-recurring-day-1366x860-de', false);
        await page.keyboard.press('w');
        expect(office.pageErrors).toEqual([]);
      } finally {
        feedServer.closeAllConnections();
        await new Promise((resolve) => feedServer.close(resolve));
      }
    }, 90_000);

    it('a trainer whose login may not use calendars or tax rates: no Kalender and no Stammdaten entry, the sync centre says why, no error', async () => {
      await setOnline(true);
      const scope = ROLE_SCOPES.trainer.filter(
        (s) => !s.startsWith('kalender:') && s !== 'steuersaetze:read',
      );
      const login = await office.otherLogin(
        sandbox.users.find((user) => user.role === 'trainer')!.id,
        scope,
      );
      const trainer = login.page;
      try {
        // The trainer's profile (Kursleitung), as a trainer chooses it in the settings.
        await trainer.locator('[data-workspace="settings"]').click();
        await trainer.getByTestId('settings-profile-trainer').check();
        // The next sync reads as the trainer's profile: the shell follows it.
        await expect
          .poll(() => trainer.locator('[data-workspace="personnel"]').count(), {
            timeout: 120_000,
            interval: 250,
          })
          .toBe(0);
        await expect.poll(() => trainer.locator('[data-workspace="calendars"]').count()).toBe(0);
        // Stammdaten is the office's: a trainer's shell has no entry for it.
        expect(await trainer.locator('[data-workspace="reference"]').count()).toBe(0);
        expect(await trainer.locator('[data-workspace="courses"]').count()).toBe(1);
        // The sync centre says in words what the login may not use.
        await trainer.locator('[data-workspace="syncCenter"]').click();
        const unavailable = trainer.getByTestId('sync-centre-unavailable');
        await expect.poll(() => unavailable.textContent()).toContain('Kalender');
        expect(await unavailable.textContent()).toContain('Steuersätze');
        await shot(trainer, 'calendars-trainer-1366x860-de', false);
        expect(await accessibilityViolations(trainer), 'trainer sync centre').toEqual([]);
        expect(await trainer.locator('.error-list .error-item').count()).toBe(0);
        expect(login.pageErrors).toEqual([]);
      } catch (error) {
        await shot(trainer, 'calendars-failed-trainer');
        throw error;
      } finally {
        await login.close();
      }
    }, 180_000);
  },
);

/** The Monday (noon UTC) of a day's week. */
function mondayOf(day: string): Date {
  const date = new Date(`${day}T12:00:00Z`);
  return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 864e5);
}
