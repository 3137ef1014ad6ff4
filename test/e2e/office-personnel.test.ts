// The office's personnel workspace (issue 22) in Debian's Chromium against browser mode on the
// sandbox, at 1366×860 and 1024×700, in German and English: a person found by part of the name
// without its umlaut, by keyboard; the status filter with its counts; the person beside the list
// with an expired and an expiring training and an overdue check (made for the test relative to
// today); the end of the list by End; the search and filter kept across workspaces. axe-core
// on each view. Screenshots: test-artifacts/e2e/personnel-*.png.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { SCOPE_CATALOGUE } from '../../sandbox/auth/scopes';
import { formatBerlinDate } from '../../sandbox/data/time';
import type { RunningSandbox } from '../../sandbox/server';
import { putOccasionWithEntry, useOfficeApp } from './office-fixture';
import { adminRequest, chromiumPresent, LAPTOP, pendingOf, shot, SMALL_LAPTOP } from './support';

const haveChromium = chromiumPresent('office personnel e2e');

/** A day `days` from today (YYYY-MM-DD, Berlin). */
const fromToday = (days: number) => formatBerlinDate(Date.now() + days * 86_400_000);

describe.skipIf(!haveChromium)('the office’s personnel workspace in Chromium', () => {
  const office = useOfficeApp({ name: 'personnel', artifacts: ['personnel-'] });
  let sandbox: RunningSandbox;
  let page: Page;
  let personId = '';

  const rows = () => page.getByTestId('person-row');
  const detail = () => page.getByTestId('person-detail');
  const language = (code: 'de' | 'en') => office.language(code);
  const axe = (screen: string) => office.axe(screen);
  const total = async () =>
    Number(((await page.getByTestId('people-total').textContent()) ?? '').replace(/\D/g, '') || -1);

  /** A person with an umlaut, blocked, with trainings and a check around today. */
  const makePerson = async () => {
    const id = await office.create('/personal', 'user', {
      vorname: 'Jürgen',
      nachname: 'Zyxmüller',
      mitgliednr: 'ZQ-4711',
      handy: '0171 555 98 76',
      email: 'j.zyxmueller@example.org',
      status: 'gesperrt',
      gruppen_namen: ['Bereitschaft', 'Sanitätsdienst'],
    });
    // Trainings are records of their own on the service, embedded in the person as well.
    const now = new Date().toISOString();
    const trainings = [
      ['990001', 'Sanitätshelfer', -900, -30],
      ['990002', 'Erste Hilfe', -700, 40],
      ['990003', 'Funk', -100, 800],
    ].map(([trainingId, bezeichnung, done, until]) => ({
      id: String(trainingId),
      ausbildung_id: '9',
      bezeichnung: String(bezeichnung),
      datum: fromToday(Number(done)),
      lehrgangsnummer: '',
      gueltig_bis: fromToday(Number(until)),
      created_at: now,
      updated_at: now,
    }));
    for (const { id: trainingId, ...attributes } of trainings)
      sandbox.store.put({
        type: 'ausbildung',
        id: trainingId,
        attributes,
        relationships: { user: { type: 'user', id } },
      });
    await adminRequest(sandbox, 'PATCH', `/records/user/${id}`, {
      attributes: {
        qualifikationen: [
          { position: 1, liste: 'Sanitätsdienst', rang: 2, name: 'Sanitäter', name_kurz: 'San' },
        ],
        ausbildungen: trainings,
      },
    });
    await adminRequest(sandbox, 'POST', `/personal/${id}/ueberpruefungen`, {
      attributes: {
        bezeichnung: 'G26.3',
        letzte_pruefung: fromToday(-1100),
        naechste_pruefung: fromToday(-5),
      },
    });
    return id;
  };

  /**
   * An occasion and a client for search everything, the client given a course of the sync's
   * window (one with a date in the next two weeks), as the service's web pages would.
   */
  const makeOccasionAndClient = () => {
    // The service names occasions only with the entries that use them: one of the office's own.
    putOccasionWithEntry(
      sandbox,
      { occasion: '990100', entry: '990101', userId: office.officeUser().id },
      'Zyxfest der Bereitschaft',
      {
        daysAgo: 3,
        typ: 'sonstiges',
        stunden: 2,
        typId: sandbox.store.all('helferstunden_typ')[0]!.id,
      },
    );
    sandbox.store.put({
      type: 'client',
      id: '990200',
      attributes: {
        name: 'Zyxklinik Nord',
        customer_number: 'K-990200',
        street: 'Hafenstraße 1',
        postal_code: '24103',
        city: 'Kiel',
        contact_person: '',
        email: '',
        phone: '',
      },
      relationships: {},
    });
    const [soon, later] = [fromToday(0), fromToday(14)];
    const date = sandbox.store.all('course_date').find((candidate) => {
      const day = String(candidate.attributes.from).slice(0, 10);
      return day >= soon && day <= later;
    })!;
    const courseRef = date.relationships.course as { id: string };
    const course = sandbox.store.get('course', courseRef.id)!;
    sandbox.store.put({
      ...course,
      relationships: { ...course.relationships, client: { type: 'client', id: '990200' } },
    });
    return course;
  };
  let clientCourse = { id: '', title: '' };

  beforeAll(async () => {
    ({ sandbox, page } = office);
    personId = await makePerson();
    const course = makeOccasionAndClient();
    clientCourse = { id: course.id, title: String(course.attributes.title) };
  });

  it('signs in as the office and syncs', () => office.signIn(), 180_000);

  it('finds a person by part of the name without its umlaut, by keyboard, and shows them beside the list', async (test) => {
    if (!office.signedIn) test.skip();
    await page.keyboard.press('Alt+5');
    // Alt+5 lands in the search: typing at once searches.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('people-search');
    const everyone = await (async () => {
      await expect.poll(total).toBeGreaterThan(10);
      return total();
    })();
    await page.keyboard.type('zyxmuller');
    await expect.poll(total).toBe(1);
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.personId))
      .toBe(personId);
    await page.keyboard.press('Enter');
    await detail().waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('person-title');
    expect(await page.locator('#person-title').textContent()).toBe('Jürgen Zyxmüller');
    expect(await detail().locator('[data-status="gesperrt"]').textContent()).toBe('Gesperrt');
    const expiries = await page
      .getByTestId('person-training')
      .evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.expiry));
    expect(expiries.sort()).toEqual(['', 'expired', 'soon']);
    await expect
      .poll(() =>
        page
          .getByTestId('person-check')
          .evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.expiry)),
      )
      .toEqual(['expired']);
    await expect.poll(() => page.getByTestId('person-as-of').textContent()).toMatch(/Stand: jetzt/);
    await shot(page, 'personnel-found-1366x860-de', false);
    await axe('person, de');

    // A member number by a part, and the phone number as digits.
    await page.keyboard.press('/');
    await page.keyboard.type('4711');
    await expect.poll(() => rows().first().getAttribute('data-person-id')).toBe(personId);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5559876');
    await expect.poll(total).toBe(1);

    // The status filter: its counts with the search applied; several at once.
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await expect.poll(total).toBe(everyone);
    const blocked = Number(
      (await page.getByTestId('status-gesperrt').locator('.count').textContent())?.replace(
        /\D/g,
        '',
      ),
    );
    expect(blocked).toBeGreaterThanOrEqual(1);
    await page.getByTestId('status-gesperrt').click();
    await expect.poll(total).toBe(blocked);
    expect(
      await rows().evaluateAll((found) =>
        found.every(
          (row) => row.querySelector('[data-status]')?.getAttribute('data-status') === 'gesperrt',
        ),
      ),
    ).toBe(true);
    await page.getByTestId('status-gesperrt').click();
    await expect.poll(total).toBe(everyone);
  }, 120_000);

  it('reaches the end of the list by keyboard, and keeps search and filter across workspaces', async (test) => {
    if (!office.signedIn) test.skip();
    await page.locator('#people-search').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    const last = (await total()) - 1;
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.rowIndex))
      .toBe(String(last));
    await page.getByTestId('people-sort').selectOption('mitgliednr');
    await page.locator('#people-search').fill('zyx');
    await expect.poll(total).toBe(1);
    await page.keyboard.press('Alt+1');
    await page.getByTestId('courses-workspace').waitFor();
    await page.keyboard.press('Alt+5');
    expect(await page.locator('#people-search').inputValue()).toBe('zyx');
    expect(await page.getByTestId('people-sort').inputValue()).toBe('mitgliednr');
    await expect.poll(total).toBe(1);
    await expect.poll(() => detail().isVisible()).toBe(true);
  }, 60_000);

  it('Ctrl+K searches everything: a person found without the umlaut, Enter opens them', async (test) => {
    if (!office.signedIn) test.skip();
    await page.keyboard.press('Alt+1');
    await page.getByTestId('courses-workspace').waitFor();
    await page.keyboard.press('Control+k');
    await page.getByTestId('search-palette-input').waitFor();
    await page.keyboard.type('zyxmul');
    await expect
      .poll(() => page.getByTestId('search-hit').first().getAttribute('data-kind'))
      .toBe('person');
    expect(await page.getByTestId('search-hit').first().textContent()).toContain('Zyxmüller');
    await shot(page, 'personnel-search-everything-1366x860-de', false);
    await axe('search everything, de');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('person-title');
    expect(await page.locator('#person-title').textContent()).toBe('Jürgen Zyxmüller');
  }, 60_000);

  it('Ctrl+K finds a client (its courses, Enter opens one) and an occasion (Enter starts an hours entry for it)', async (test) => {
    if (!office.signedIn) test.skip();
    await page.keyboard.press('Control+k');
    await page.getByTestId('search-palette-input').waitFor();
    await page.keyboard.type('zyxklin');
    await expect
      .poll(() => page.getByTestId('search-hit').first().getAttribute('data-kind'))
      .toBe('client');
    expect(await page.getByTestId('search-hit').first().textContent()).toBe('Zyxklinik NordKunde');
    await page.keyboard.press('Enter');
    const client = page.getByTestId('client-dialog');
    await client.waitFor();
    expect(await client.locator('h2').textContent()).toBe('Zyxklinik Nord');
    await expect.poll(() => client.getByTestId('client-course').count()).toBe(1);
    expect(await client.getByTestId('client-course').textContent()).toContain(clientCourse.title);
    await shot(page, 'personnel-client-1366x860-de', false);
    await axe('client, de');
    await page.setViewportSize(SMALL_LAPTOP);
    await language('en');
    await expect.poll(() => client.locator('h3').textContent()).toBe('Courses');
    await shot(page, 'personnel-client-1024x700-en', false);
    await axe('client 1024, en');
    await language('de');
    await page.setViewportSize(LAPTOP);
    // The focus is on its course: Enter opens it in the courses workspace.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.testid))
      .toBe('client-course');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe('course-detail-title');
    expect(await page.getByTestId('client-dialog').count()).toBe(0);

    await page.keyboard.press('Control+k');
    await page.getByTestId('search-palette-input').waitFor();
    await page.keyboard.type('zyxfest');
    await expect
      .poll(() => page.getByTestId('search-hit').first().getAttribute('data-kind'))
      .toBe('occasion');
    const [year, month, day] = fromToday(-3).split('-');
    expect(await page.getByTestId('search-hit').first().textContent()).toBe(
      `Zyxfest der Bereitschaft · ${day}.${month}.${year}Anlass`,
    );
    await shot(page, 'personnel-search-occasion-1366x860-de', false);
    await page.keyboard.press('Enter');
    const hours = page.getByTestId('hours-dialog');
    await hours.waitFor();
    expect(await page.getByTestId('hours-occasion').inputValue()).toBe('Zyxfest der Bereitschaft');
    expect(await page.getByTestId('hours-date').inputValue()).toBe(`${day}.${month}.${year}`);
    await page.keyboard.press('Escape');
    await hours.waitFor({ state: 'hidden' });
    expect(office.pageErrors).toEqual([]);
  }, 90_000);

  it('Teilnahmebescheinigungen: a participant marked present gets a certificate, from the course and from their details', async (test) => {
    if (!office.signedIn) test.skip();
    // The client's course, opened through search everything.
    await page.keyboard.press('Control+k');
    await page.getByTestId('search-palette-input').waitFor();
    await page.keyboard.type('zyxklin');
    await expect.poll(() => page.getByTestId('search-hit').count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.getByTestId('client-course').first().click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe('course-detail-title');
    const row = page.getByTestId('participant-row').first();
    await row.getByTestId('attendance-present').click();
    await expect.poll(() => row.getAttribute('data-attended')).toBe('true');
    const name = (await row.getByTestId('participant-name').getAttribute('title'))!;
    const [first, last] = [name.split(', ')[1]!, name.split(', ')[0]!];
    const pdfText = async (download: Download) =>
      execFileSync('pdftotext', ['-layout', await download.path(), '-'], { encoding: 'utf8' });
    const [all] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-certificates-pdf').click(),
    ]);
    expect(all.suggestedFilename()).toMatch(/^teilnahmebescheinigungen-.+\.pdf$/);
    const text = await pdfText(all);
    expect(text).toContain('Teilnahmebescheinigung');
    expect(text).toContain(`${first} ${last}`);
    // One participant's from their details.
    await row.getByTestId('participant-details').click();
    const [one] = await Promise.all([
      page.waitForEvent('download'),
      row.getByTestId('certificate-pdf').click(),
    ]);
    const single = await pdfText(one);
    expect(single).toContain(`${first} ${last}`);
    expect(single).toContain('Seite 1 von 1');
    await shot(page, 'courses-certificate-1366x860-de', false);
    await axe('course with a certificate, de');
    await row.getByTestId('participant-details').click();
    expect(office.pageErrors).toEqual([]);
  }, 90_000);

  it('Fällig: what falls due by the months chosen, by person, printed as PDF and exported as CSV; Enter opens the person', async (test) => {
    if (!office.signedIn) test.skip();
    await page.keyboard.press('Alt+5');
    await page.getByTestId('personnel-tab-due').click();
    const view = page.getByTestId('due-view');
    await view.waitFor();
    await expect
      .poll(() => view.getByTestId('due-summary').textContent())
      .toMatch(/Personen? mit Fälligem/);
    await shot(page, 'personnel-due-1366x860-de', false);
    await axe('due, de');
    // Without the never read, the person made for the test is the last (Zyx…): End reaches them.
    await page.getByTestId('due-unread').uncheck();
    await expect.poll(() => view.getByTestId('due-summary').textContent()).not.toMatch(/Dazu/);
    const mine = view.locator(`[data-testid="due-row"][data-person-id="${personId}"]`);
    const entriesOf = async () => {
      if ((await mine.count()) === 0) {
        await view.getByTestId('due-row').first().focus();
        await page.keyboard.press('End');
      }
      return mine.locator('.due-what').allTextContents();
    };
    // Within 3 months (the default): the expired training and check, the one expiring in 40 days.
    await expect.poll(entriesOf).toEqual(['Sanitätshelfer', 'G26.3', 'Erste Hilfe']);
    expect(await mine.locator('li.expired .due-what').allTextContents()).toEqual([
      'Sanitätshelfer',
      'G26.3',
    ]);
    await expect.poll(() => mine.getByTestId('due-as-of').textContent()).toMatch(/Stand/);

    // Expired only: what expires in 40 days is not listed.
    await page.getByTestId('due-months').selectOption('0');
    await expect.poll(entriesOf).toEqual(['Sanitätshelfer', 'G26.3']);

    // The PDF and the CSV arrive as downloads, with what they hold said beside the button.
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('due-pdf').click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/^faellig-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await expect.poll(() => page.getByTestId('due-pdf-status').textContent()).toMatch(/Person/);
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('due-csv').click(),
    ]);
    const lines = readFileSync(await csv.path(), 'utf8').split(/\r?\n/);
    expect(lines.filter((line) => line.startsWith('Zyxmüller;Jürgen;ZQ-4711;gesperrt;'))).toEqual([
      expect.stringContaining(';Ausbildung;Sanitätshelfer;'),
      expect.stringContaining(';Prüfung;G26.3;'),
    ]);

    // By keyboard: the rows move with the arrows, Enter opens the person in the list of everyone.
    await page.getByTestId('due-months').selectOption('3');
    await expect.poll(entriesOf).toEqual(['Sanitätshelfer', 'G26.3', 'Erste Hilfe']);
    await mine.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('person-title');
    expect(await page.locator('#person-title').textContent()).toBe('Jürgen Zyxmüller');
    expect(await page.getByTestId('personnel-tab-people').getAttribute('aria-selected')).toBe(
      'true',
    );

    // The tabs by keyboard; the choices kept; 1024×700, English, dark.
    await page.getByTestId('personnel-tab-people').focus();
    await page.keyboard.press('ArrowRight');
    await view.waitFor();
    expect(await page.getByTestId('due-months').inputValue()).toBe('3');
    await page.setViewportSize(SMALL_LAPTOP);
    await expect.poll(entriesOf).toEqual(['Sanitätshelfer', 'G26.3', 'Erste Hilfe']);
    await shot(page, 'personnel-due-1024x700-de', false);
    await axe('due 1024, de');
    await language('en');
    await expect
      .poll(() => view.getByTestId('due-summary').textContent())
      .toMatch(/with something due/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'personnel-due-1024x700-en-dark', false);
    await axe('due 1024, en, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await language('de');
    await page.setViewportSize(LAPTOP);
    await page.getByTestId('personnel-tab-people').click();
    await page.getByTestId('people-list').waitFor();
  }, 90_000);

  it('reads well at 1024×700 and in English, light and dark', async (test) => {
    if (!office.signedIn) test.skip();
    await page.locator('#people-search').fill('');
    await page.setViewportSize(SMALL_LAPTOP);
    // One pane: the person instead of the list, with a way back.
    await expect.poll(() => page.getByTestId('people-list').isVisible()).toBe(false);
    await shot(page, 'personnel-person-1024x700-de', false);
    await axe('person 1024, de');
    await page.getByRole('button', { name: '← Zur Liste' }).click();
    await expect.poll(() => page.getByTestId('people-list').isVisible()).toBe(true);
    await expect.poll(() => rows().count()).toBeGreaterThan(5);
    await shot(page, 'personnel-list-1024x700-de', false);
    await axe('list 1024, de');
    await language('en');
    await expect.poll(() => page.getByTestId('people-total').textContent()).toMatch(/people/);
    await shot(page, 'personnel-list-1024x700-en', false);
    await axe('list 1024, en');
    await page.setViewportSize(LAPTOP);
    await rows().first().click();
    await detail().waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'personnel-person-1366x860-en-dark', false);
    await axe('person, en, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await language('de');
    expect(office.pageErrors).toEqual([]);
  }, 60_000);

  it('offline: changes a phone number, adds and removes a qualification, deletes a training, creates a person and updates one by member number; refuses bad input beside the field; the service back holds exactly that', async (test) => {
    if (!office.signedIn) test.skip();
    await page.setViewportSize(LAPTOP);
    await office.goOffline();
    const pending = () => pendingOf(page);
    /** Finds a person by the search and opens them (the list may still show the last search's rows). */
    const open = async (search: string, name: string) => {
      await page.keyboard.press('Alt+5');
      await page.locator('#people-search').fill(search);
      await expect.poll(total).toBe(1);
      await rows().filter({ hasText: name }).first().click();
      await expect.poll(() => page.locator('#person-title').textContent()).toContain(name);
    };
    const dialog = page.getByTestId('person-dialog');
    const fieldError = (field: string) =>
      page
        .getByTestId(`person-field-${field}`)
        .locator('xpath=ancestor::div[contains(@class,"field")][1]');

    // A phone number changed; an e-mail that is none refused beside its field, nothing queued.
    await open('zyxmuller', 'Zyxmüller');
    await page.keyboard.press('e');
    await dialog.waitFor();
    await page.getByTestId('person-field-email').fill('kein-mail');
    await page.getByTestId('person-save').click();
    await expect.poll(() => fieldError('email').getAttribute('class')).toMatch(/invalid/);
    expect(await pending()).toBe(0);
    await shot(page, 'personnel-refused-email-1366x860-de', false);
    await page.getByTestId('person-field-email').fill('j.zyxmueller@example.org');
    await page.getByTestId('person-field-handy').fill('0160 1234567');
    await page.getByTestId('person-save').click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => detail().textContent()).toContain('0160 1234567');
    await expect.poll(pending).toBe(1);
    expect(await detail().getByTestId('not-sent').first().getAttribute('data-local-state')).toBe(
      'changed',
    );
    // The sync centre says in words what waits.
    await page.keyboard.press('Alt+8');
    await expect
      .poll(() => page.locator('main').textContent())
      .toContain('Mobil von Jürgen Zyxmüller geändert');
    await shot(page, 'personnel-sync-centre-1366x860-de', false);
    await page.keyboard.press('Alt+5');
    await detail().waitFor();

    // A qualification added by its pair (a missing second value refused first), another removed.
    await page.getByTestId('quali-add').click();
    await page.getByTestId('quali-first').fill('2');
    await page.getByTestId('quali-save').click();
    expect(await page.getByTestId('quali-dialog').locator('.field.invalid').count()).toBe(1);
    expect(await pending()).toBe(1);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'personnel-quali-dialog-1366x860-de-dark', false);
    await axe('qualification dialog with an error, de, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('quali-second').fill('1');
    await page.getByTestId('quali-save').click();
    await expect.poll(() => page.getByTestId('person-qualification').count()).toBe(2);
    await page
      .getByTestId('person-qualification')
      .filter({ hasText: 'Sanitäter' })
      .getByTestId('quali-remove')
      .click();
    await page
      .getByTestId('quali-remove-confirm')
      .getByRole('button', { name: 'Entfernen' })
      .click();
    await expect.poll(() => page.getByTestId('person-qualification').count()).toBe(1);

    // A training deleted, after a confirmation.
    await page
      .getByTestId('person-training')
      .filter({ hasText: 'Funk' })
      .getByTestId('training-delete')
      .click();
    await page.getByTestId('training-delete-confirm').waitFor();
    await axe('training delete confirmation, de');
    await page
      .getByTestId('training-delete-confirm')
      .getByRole('button', { name: 'Löschen' })
      .click();
    await expect.poll(() => page.getByTestId('person-training').count()).toBe(2);
    // Changes of one person not yet sent travel together (the outbox folds them).
    const queued = await pending();
    expect(queued).toBeGreaterThanOrEqual(2);

    // A new person: without a last name refused beside the field, then made.
    await page.keyboard.press('Alt+5');
    // Alt+5 puts the focus in the search a frame later: out of it only once it is there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('people-search');
    await page.locator('#people-search').blur();
    await page.keyboard.press('n');
    await dialog.waitFor();
    await page.getByTestId('person-field-vorname').fill('Zora');
    await page.getByTestId('person-save').click();
    await expect.poll(() => fieldError('nachname').getAttribute('class')).toMatch(/invalid/);
    expect(await pending()).toBe(queued);
    await page.getByTestId('person-field-nachname').fill('Zyxneu');
    await page.getByTestId('person-save').click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.locator('#person-title').textContent()).toBe('Zora Zyxneu');

    // By member number: the form says whom it changes.
    await page.getByTestId('person-by-number').click();
    await page.getByTestId('person-field-mitgliednr').fill('ZQ-4711');
    await expect
      .poll(() => page.getByTestId('person-identifier-outcome').textContent())
      .toContain('Jürgen Zyxmüller');
    await page.getByTestId('person-field-ort').fill('Zyxstadt');
    await shot(page, 'personnel-by-number-1366x860-de', false);
    await page.getByTestId('person-save').click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(pending).toBe(queued + 2);
    await open('zyxmuller', 'Zyxmüller');
    await expect.poll(() => detail().textContent()).toContain('Zyxstadt');
    await shot(page, 'personnel-offline-changed-1366x860-de', false);
    await axe('person changed offline, de');

    // Reloaded offline: all of it is still there.
    await page.reload();
    await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
    await expect.poll(pending).toBe(queued + 2);
    await open('zyxneu', 'Zyxneu');
    await open('zyxmuller', 'Zyxmüller');
    await expect.poll(() => detail().textContent()).toContain('0160 1234567');

    // The service back; nobody acts: everything sent once, and the service has exactly that.
    await office.setOnline(true);
    await expect.poll(pending, { timeout: 60_000, interval: 250 }).toBe(0);
    const officeUser = office.officeUser();
    const read = async (path: string) => {
      const response = await fetch(`${sandbox.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${officeUser.accessToken}` },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as {
        data: { id: string; attributes: Record<string, unknown> }[];
      };
    };
    const everyone = (await read('/personal')).data;
    const juergen = everyone.find((person) => person.id === personId)!;
    expect(juergen.attributes.handy).toBe('0160 1234567');
    expect(juergen.attributes.ort).toBe('Zyxstadt');
    const qualis = juergen.attributes.qualifikationen as Record<string, unknown>[];
    expect(qualis.map((q) => [Number(q.position), Number(q.rang)])).toEqual([[2, 1]]);
    const trainings = (juergen.attributes.ausbildungen as { bezeichnung: string }[]).map(
      (a) => a.bezeichnung,
    );
    expect(trainings.sort()).toEqual(['Erste Hilfe', 'Sanitätshelfer']);
    expect(everyone.filter((person) => person.attributes.nachname === 'Zyxneu')).toHaveLength(1);
  }, 180_000);

  it('Mitteilungen offline: one marked read by keyboard, one deleted and the deletion undone, one deleted; reopened offline all of it holds; the service back holds exactly that', async (test) => {
    if (!office.signedIn) test.skip();
    const officeUser = office.officeUser();
    const served = async () => {
      const response = await fetch(`${sandbox.baseUrl}/benachrichtigungen`, {
        headers: { authorization: `Bearer ${officeUser.accessToken}` },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        data: { id: string; attributes: { gelesen: boolean } }[];
      };
      return new Map(body.data.map((item) => [item.id, item.attributes.gelesen]));
    };
    const before = await served();
    const rowsOf = () => page.getByTestId('notification-row');
    const row = (id: string) =>
      page.locator(`[data-testid="notification-row"][data-notification-id="${id}"]`);
    await page.keyboard.press('Alt+3');
    await page.getByTestId('notifications-list').waitFor();
    await expect.poll(() => rowsOf().count()).toBeGreaterThan(2);
    // Alt+3 lands on the first notification, where the keys work.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.rowIndex))
      .toBe('0');
    const unreadBefore = [...before].filter(([, read]) => !read).length;
    expect(await page.getByTestId('notifications-unread').textContent()).toBe(
      `${unreadBefore} ungelesen`,
    );
    expect(await page.getByTestId('nav-unread').textContent()).toContain(String(unreadBefore));
    await shot(page, 'notifications-1366x860-de', false);
    await axe('notifications, de');

    await office.goOffline();
    const ids = await rowsOf().evaluateAll((all) =>
      all.map((element) => ({
        id: (element as HTMLElement).dataset.notificationId!,
        read: (element as HTMLElement).dataset.read === 'true',
      })),
    );
    const marked = ids.find((item) => !item.read)!.id;
    const [undone, removed] = ids.filter((item) => item.id !== marked).map((item) => item.id);
    // Marked read by keyboard: the row focused, Enter.
    await row(marked).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => row(marked).getAttribute('data-read')).toBe('true');
    expect(await row(marked).getByTestId('not-sent').count()).toBe(1);
    // Deleted, and the deletion undone while it waits.
    await row(undone!).getByTestId('notification-delete').click();
    await expect.poll(() => row(undone!).count()).toBe(0);
    await page.getByTestId('notification-undo').click();
    await expect.poll(() => row(undone!).count()).toBe(1);
    // Deleted by keyboard.
    await row(removed!).focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => row(removed!).count()).toBe(0);
    await expect.poll(() => pendingOf(page)).toBe(2);
    await shot(page, 'notifications-offline-1366x860-de', false);

    // Reopened offline: all of it holds.
    await page.reload();
    await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
    await page.keyboard.press('Alt+3');
    await page.getByTestId('notifications-list').waitFor();
    await expect.poll(() => row(marked).getAttribute('data-read')).toBe('true');
    expect(await row(removed!).count()).toBe(0);
    expect(await row(undone!).count()).toBe(1);
    await expect.poll(() => pendingOf(page)).toBe(2);

    await page.setViewportSize(SMALL_LAPTOP);
    await language('en');
    await expect
      .poll(() => page.locator('#notifications-title').textContent())
      .toBe('Notifications');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'notifications-1024x700-en-dark', false);
    await axe('notifications 1024, en, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await language('de');
    await page.setViewportSize(LAPTOP);

    // The service back, nobody acting: exactly those two changes.
    await office.setOnline(true);
    await expect.poll(() => pendingOf(page), { timeout: 60_000, interval: 250 }).toBe(0);
    const after = await served();
    expect(after.get(marked)).toBe(true);
    expect(after.has(removed!)).toBe(false);
    expect(after.get(undone!)).toBe(before.get(undone!));
    for (const [id, read] of before)
      if (id !== marked && id !== removed) expect(after.get(id)).toBe(read);
    expect(after.size).toBe(before.size - 1);
    expect(office.pageErrors).toEqual([]);
  }, 180_000);

  it('a new notification from the service: counted in the navigation and, where the user allowed it, shown as a browser notification', async (test) => {
    if (!office.signedIn) test.skip();
    const officeUser = office.officeUser();
    // The page's Notifications API, recorded: what the renderer would show the system (the
    // permission as the user granted it; Chromium headless shows none itself).
    await page.evaluate(() => {
      const shown: { title: string; body: string }[] = [];
      (window as unknown as { shownNotifications: typeof shown }).shownNotifications = shown;
      class Recorded {
        static permission = 'granted';
        constructor(title: string, options?: { body?: string }) {
          shown.push({ title, body: options?.body ?? '' });
        }
      }
      (window as unknown as { Notification: unknown }).Notification = Recorded;
    });
    // The badge says "2" and, for screen readers, "2 ungelesen"; none without unread ones.
    const unread = async () => {
      const badge = page.getByTestId('nav-unread');
      return (await badge.count()) === 0 ? 0 : parseInt((await badge.textContent()) ?? '', 10);
    };
    const unreadBefore = await unread();
    sandbox.store.put({
      type: 'benachrichtigung',
      id: `9001-${officeUser.id}`,
      attributes: {
        titel: 'Sanitätsdienst Stadtfest: Helfer gesucht',
        text: 'Bitte bis Freitag melden.',
        kategorie: 'dienst',
        gelesen: false,
        erstellt_am: sandbox.store.now(),
      },
      relationships: {},
    });
    // "Sync now" reads the notifications whatever their rotation says (a scheduled sync at the
    // reference lists' pace would bring it within the hour).
    await page.keyboard.press('Alt+8');
    const syncNow = async () => {
      const now = page.getByTestId('sync-centre-now');
      await expect.poll(() => now.isEnabled(), { timeout: 30_000 }).toBe(true);
      await now.click();
    };
    const shown = () =>
      page.evaluate(
        () => (window as unknown as { shownNotifications: unknown[] }).shownNotifications,
      );
    await syncNow();
    await expect
      .poll(shown, { timeout: 30_000, interval: 250 })
      .toEqual([{ title: 'Neue Mitteilung', body: 'Sanitätsdienst Stadtfest: Helfer gesucht' }]);
    await expect.poll(unread).toBe(unreadBefore + 1);
    sandbox.store.remove('benachrichtigung', `9001-${officeUser.id}`);
    await syncNow();
    await expect.poll(unread, { timeout: 30_000 }).toBe(unreadBefore);
    expect(office.pageErrors).toEqual([]);
  }, 120_000);

  it('a change the service refuses later (a member number another person has) parks in the sync centre and opens the person’s form with the refused values', async (test) => {
    if (!office.signedIn) test.skip();
    // A member of the demo data (a person this file made may have none, and sort first).
    const other = sandbox.store
      .all('user')
      .find((user) => /^\d+$/.test(String(user.attributes.mitgliednr)))!;
    const taken = String(other.attributes.mitgliednr);
    await office.goOffline();
    await page.keyboard.press('Alt+5');
    await page.getByTestId('personnel-tab-people').click();
    await page.locator('#people-search').fill('zyxmuller');
    await expect.poll(total).toBe(1);
    await rows().first().click();
    await page.getByTestId('person-edit').click();
    await page.getByTestId('person-field-mitgliednr').fill(taken);
    // The replica knows the number: a warning, the service decides.
    await page.getByTestId('person-number-taken').waitFor();
    await page.getByTestId('person-save').click();
    await expect.poll(() => page.getByTestId('person-dialog').count()).toBe(0);
    await expect.poll(() => pendingOf(page)).toBe(1);

    await office.setOnline(true);
    await page.keyboard.press('Alt+8');
    const parked = page.locator('[data-testid="outbox-row"][data-state="parked"]');
    await expect.poll(() => parked.count(), { timeout: 60_000, interval: 250 }).toBe(1);
    expect(await parked.getAttribute('data-command')).toBe('user.update');
    expect(await parked.getByTestId('outbox-state').textContent()).toContain(taken);
    await parked.getByTestId('outbox-edit').click();
    const form = page.getByTestId('person-dialog');
    await form.waitFor();
    expect(await page.locator('#person-dialog-title').textContent()).toBe(
      'Vom Dienst abgelehnte Änderung korrigieren',
    );
    expect(await page.getByTestId('person-refused-reason').textContent()).toContain(taken);
    expect(await page.getByTestId('person-field-mitgliednr').inputValue()).toBe(taken);
    expect(await page.getByTestId('person-field-vorname').inputValue()).toBe('Jürgen');
    await shot(page, 'personnel-refused-later-1366x860-de', false);
    await axe('refused person form, de');
    await page.emulateMedia({ colorScheme: 'dark' });
    await axe('refused person form, de, dark');
    await language('en');
    await expect
      .poll(() => page.locator('#person-dialog-title').textContent())
      .toBe('Correct a change the service refused');
    await shot(page, 'personnel-refused-later-1366x860-en-dark', false);
    await axe('refused person form, en, dark');
    await language('de');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('person-field-mitgliednr').fill('ZQ-4712');
    await page.getByTestId('person-save').click();
    await expect.poll(() => form.count()).toBe(0);
    await expect.poll(() => pendingOf(page), { timeout: 60_000, interval: 250 }).toBe(0);
    const everyone = await office.read<{
      data: { id: string; attributes: Record<string, unknown> }[];
    }>('/personal');
    const served = everyone.data.find((person) => person.id === personId)!;
    expect(served.attributes.mitgliednr).toBe('ZQ-4712');
    expect(served.attributes.ort).toBe('Zyxstadt');
  }, 120_000);

  it('a login that may read people but not change them: the workspace reads, and says why nothing can be changed', async (test) => {
    if (!office.signedIn) test.skip();
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Abmelden', exact: true }).click();
    await page.getByRole('heading', { name: 'Abgemeldet' }).waitFor();
    office.loginScope = SCOPE_CATALOGUE.filter(
      (scope) => scope !== 'personal:update' && scope !== 'personal:add',
    ).join(' ');
    await page.getByRole('button', { name: 'Erneut anmelden' }).click();
    await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
    await page.keyboard.press('Alt+5');
    await page.getByTestId('personnel-tab-people').click();
    const note = page.getByTestId('personnel-readonly');
    await expect.poll(() => note.textContent()).toContain('personal:update');
    expect(await note.textContent()).toContain('personal:add');
    expect(await page.getByTestId('person-new').count()).toBe(0);
    expect(await page.getByTestId('person-by-number').count()).toBe(0);
    await page.locator('#people-search').fill('zyxmuller');
    await expect.poll(total).toBe(1);
    await rows().first().click();
    await expect.poll(() => page.locator('#person-title').textContent()).toBe('Jürgen Zyxmüller');
    await expect.poll(() => page.getByTestId('person-training').count()).toBeGreaterThan(0);
    for (const change of ['person-edit', 'quali-add', 'quali-remove', 'training-delete'])
      expect(await page.getByTestId(change).count(), change).toBe(0);
    // N does not open the new person's form either.
    await page.locator('#person-title').focus();
    await page.keyboard.press('n');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await shot(page, 'personnel-read-only-1366x860-de', false);
    await axe('read only, de');
    await language('en');
    await expect.poll(() => note.textContent()).toContain('Read only');
    await axe('read only, en');
    await language('de');
    expect(office.pageErrors).toEqual([]);
  }, 90_000);
});
