// The office's view of everyone's hours (issue 23) in Debian's Chromium against browser mode on
// the sandbox: the "Alle" tab of the hours workspace with its filter and totals (a type chosen:
// the list and the totals follow), then offline an entry entered for another person and an
// occasion changed; reopened offline both are there; the service back, with nobody acting, holds
// exactly those two changes (read over plain HTTP). A trainer's login sees no "Alle" tab and no
// error. axe-core on each view, at 1366×860 in German and 1024×700 in English, light and dark.
// Screenshots: test-artifacts/e2e/office-hours-*.png.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatBerlinDate } from '../../sandbox/data/time';
import type { RunningSandbox } from '../../sandbox/server';
import { putOccasionWithEntry, useOfficeApp } from './office-fixture';
import { chromiumPresent, LAPTOP, pendingOf, phaseOf, shot, SMALL_LAPTOP } from './support';

const haveChromium = chromiumPresent('office hours e2e');

const today = () => formatBerlinDate(Date.now());
const OCCASION = '990300';

interface Served {
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { id: string } | null }>;
}

describe.skipIf(!haveChromium)('the office’s view of everyone’s hours in Chromium', () => {
  const office = useOfficeApp({ name: 'office-hours', artifacts: ['office-hours-'] });
  const language = (code: 'de' | 'en') => office.language(code);
  const axe = (screen: string) => office.axe(screen);
  let sandbox: RunningSandbox;
  let page: Page;
  /** The person the office enters hours for: active, not the office. */
  let person = { id: '', vorname: '', nachname: '' };

  const view = () => page.getByTestId('office-hours');
  const listTotal = async () =>
    Number(
      await page
        .locator('[data-testid="office-hours-list"], [data-testid="office-hours-empty"]')
        .first()
        .getAttribute('data-total'),
    );
  /** The view shows the filter it holds: list and totals answered it. */
  const painted = () =>
    expect.poll(() => view().getAttribute('data-painted'), { timeout: 20_000 }).not.toBeNull();
  /** An option of the filter's person picker. */
  const filterOption = (text: string) =>
    page
      .locator('.office-hours-filter')
      .getByTestId('combobox-option')
      .filter({ hasText: text })
      .first();
  const totalHours = async () =>
    Number(await page.getByTestId('office-hours-total').getAttribute('data-stunden'));

  const officeToken = () => office.officeUser().accessToken;
  /** The service's entries and occasions as plain HTTP gives them to the office. */
  const servedHours = async (): Promise<Served[]> => {
    const response = await fetch(
      `${sandbox.baseUrl}/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&include=anlass`,
      { headers: { authorization: `Bearer ${officeToken()}` } },
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Served[] }).data;
  };
  const servedOccasion = async (id: string) => {
    const response = await fetch(
      `${sandbox.baseUrl}/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&include=anlass`,
      { headers: { authorization: `Bearer ${officeToken()}` } },
    );
    const body = (await response.json()) as { included?: Served[] };
    return (body.included ?? []).find((record) => record.id === id);
  };

  /** An occasion of this week with an entry of the office's (occasions come with their entries). */
  const makeOccasion = () =>
    putOccasionWithEntry(
      sandbox,
      { occasion: OCCASION, entry: '990301', userId: office.officeUser().id },
      'Zyxdienst Stadtfest',
    );

  beforeAll(() => {
    ({ sandbox, page } = office);
    makeOccasion();
    const officeUser = office.officeUser();
    const chosen = sandbox.store
      .all('user')
      .find(
        (user) =>
          user.id !== officeUser.id &&
          user.attributes.status === 'aktiv' &&
          /^[A-Za-z]+$/.test(String(user.attributes.nachname)),
      )!;
    person = {
      id: chosen.id,
      vorname: String(chosen.attributes.vorname),
      nachname: String(chosen.attributes.nachname),
    };
  });

  it('signs in as the office and syncs', () => office.signIn(), 180_000);

  it('shows everyone’s hours of this year with totals per type and person; a type chosen, list and totals follow', async (test) => {
    if (!office.signedIn) test.skip();
    await page.locator('[data-workspace="hours"]').click();
    await page.getByTestId('hours-tab-all').click();
    await painted();
    const everyone = await listTotal();
    expect(everyone).toBeGreaterThan(5);
    expect(Number(await page.getByTestId('office-hours-total').getAttribute('data-entries'))).toBe(
      everyone,
    );
    // Several people's entries, each row naming its person.
    const people = await page
      .getByTestId('office-hours-row')
      .evaluateAll((rows) => new Set(rows.map((row) => (row as HTMLElement).dataset.userId)).size);
    expect(people).toBeGreaterThan(1);
    const byType = await page
      .getByTestId('office-type-total')
      .evaluateAll((items) => items.map((item) => Number((item as HTMLElement).dataset.stunden)));
    const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
    expect(sum(byType)).toBe(Math.round((await totalHours()) * 100) / 100);
    // The own settings: which types take new entries.
    await expect
      .poll(() => page.getByTestId('office-hours-settings').textContent())
      .toMatch(/aktiven Typen/);
    await shot(page, 'office-hours-1366x860-de', false);
    await axe('everyone’s hours, de');

    // A type chosen: the list and the totals show only its entries.
    const typeOption = await page
      .getByTestId('office-filter-type')
      .locator('option')
      .nth(1)
      .getAttribute('value');
    const before = await view().getAttribute('data-painted');
    await page.getByTestId('office-filter-type').selectOption(typeOption!);
    await expect.poll(() => view().getAttribute('data-painted')).not.toBe(before);
    await painted();
    const ofType = await listTotal();
    expect(ofType).toBeLessThan(everyone);
    expect(await page.getByTestId('office-type-total').count()).toBeLessThanOrEqual(1);
    expect(Number(await page.getByTestId('office-hours-total').getAttribute('data-entries'))).toBe(
      ofType,
    );
    // Approved only: no open entry listed.
    await page.getByTestId('office-filter-state').selectOption('approved');
    await painted();
    expect(
      await page
        .getByTestId('office-hours-row')
        .evaluateAll((rows) =>
          rows.every((row) => (row as HTMLElement).dataset.freigegeben === 'true'),
        ),
    ).toBe(true);
    await page.getByTestId('office-filter-reset').click();
    await painted();
    await expect.poll(listTotal).toBe(everyone);
    expect(office.pageErrors).toEqual([]);
  }, 120_000);

  it('offline: enters hours for another person and changes an occasion; reopened offline both are there; the service back holds exactly those changes', async (test) => {
    if (!office.signedIn) test.skip();
    const hoursBefore = await servedHours();
    const occasionBefore = await servedOccasion(OCCASION);
    expect(occasionBefore?.attributes.beschreibung).toBe('Zyxdienst Stadtfest');

    await office.goOffline();

    // An entry for the person, by the dialog's person picker.
    await page.keyboard.press('Escape');
    await page.getByTestId('office-hours-add').click();
    const dialog = page.getByTestId('hours-dialog');
    await dialog.waitFor();
    // Saved without a person: said beside the field, nothing queued.
    await page.getByTestId('hours-save').click();
    await expect
      .poll(() => dialog.getByText('Bitte die Person aus der Liste wählen.').count())
      .toBe(1);
    expect(await pendingOf(page)).toBe(0);
    await page.getByTestId('hours-person').fill(person.nachname);
    const personOption = dialog
      .getByTestId('combobox-option')
      .filter({ hasText: `${person.nachname}, ${person.vorname}` });
    await personOption.first().click();
    await page.getByTestId('hours-date').fill(today());
    await page.getByTestId('hours-start').fill('08:00');
    await page.getByTestId('hours-end').fill('12:30');
    await page.getByTestId('hours-occasion').fill('Zyxdienst');
    await dialog.getByTestId('combobox-option').filter({ hasText: 'Zyxdienst' }).first().click();
    await page.getByTestId('hours-bemerkung').fill('Sanitätsdienst am Stand');
    // Every marked field mended: the line asking to check them has gone too.
    await expect.poll(() => page.getByTestId('hours-form-error').count()).toBe(0);
    await shot(page, 'office-hours-dialog-1366x860-de', false);
    await axe('entry for another person, de');
    await page.getByTestId('hours-save').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => pendingOf(page)).toBe(1);

    // Listed as the person's, not yet sent.
    await page.locator('#office-filter-person').fill(person.nachname);
    await filterOption(`${person.nachname}, ${person.vorname}`).click();
    await painted();
    const mine = page.locator(
      `[data-testid="office-hours-row"][data-user-id="${person.id}"][data-local-state="created"]`,
    );
    await expect.poll(() => mine.count()).toBe(1);
    expect(await mine.textContent()).toContain('4,5 Std.');

    // The occasion changed: its description and day.
    await page.getByTestId('office-occasions').click();
    await page.getByTestId('occasions-dialog').waitFor();
    await page.getByTestId('occasions-search').fill('Zyxdienst');
    const occasionRow = page.locator(
      `[data-testid="occasion-row"][data-occasion-id="${OCCASION}"]`,
    );
    await occasionRow.getByTestId('occasion-edit').click();
    // A description left empty is refused beside the field.
    await page.getByTestId('occasion-beschreibung').fill('');
    await page.getByTestId('occasion-save').click();
    await expect.poll(() => page.locator('.occasion-form .field-error').count()).toBeGreaterThan(0);
    await page.getByTestId('occasion-beschreibung').fill('Zyxdienst Stadtfest Süd');
    await page.getByTestId('occasion-datum').fill(today());
    await page.getByTestId('occasion-save').click();
    await expect.poll(() => occasionRow.getAttribute('data-local-state')).toBe('changed');
    expect(await occasionRow.textContent()).toContain('Zyxdienst Stadtfest Süd');
    await expect.poll(() => pendingOf(page)).toBe(2);
    await shot(page, 'office-hours-occasions-1366x860-de', false);
    await axe('occasions, de');
    await page.keyboard.press('Escape');

    // Reopened offline: both are there.
    await page.reload();
    await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
    await page.locator('[data-workspace="hours"]').click();
    await page.getByTestId('hours-tab-all').click();
    await painted();
    await page.locator('#office-filter-person').fill(person.nachname);
    await filterOption(`${person.nachname}, ${person.vorname}`).click();
    await painted();
    await expect.poll(() => mine.count()).toBe(1);
    expect(await mine.textContent()).toContain('Zyxdienst Stadtfest Süd');
    await expect.poll(() => pendingOf(page)).toBe(2);

    // The small laptop, in English and dark.
    await page.setViewportSize(SMALL_LAPTOP);
    await language('en');
    await expect.poll(() => page.getByTestId('hours-tab-all').textContent()).toBe('Everyone');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'office-hours-1024x700-en-dark', false);
    await axe('everyone’s hours 1024, en, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('office-filter-reset').click();
    await painted();
    await shot(page, 'office-hours-1024x700-en', false);
    await axe('everyone’s hours 1024, en');
    await language('de');
    await page.setViewportSize(LAPTOP);

    // The service back, nobody acting: exactly the new entry and the changed occasion.
    await office.setOnline(true);
    await expect.poll(() => pendingOf(page), { timeout: 60_000, interval: 250 }).toBe(0);
    const hoursAfter = await servedHours();
    const known = new Set(hoursBefore.map((entry) => entry.id));
    const added = hoursAfter.filter((entry) => !known.has(entry.id));
    expect(added).toHaveLength(1);
    expect(added[0]!.relationships?.user?.data?.id).toBe(person.id);
    expect(added[0]!.relationships?.anlass?.data?.id).toBe(OCCASION);
    expect(added[0]!.attributes).toMatchObject({
      stunden: 4.5,
      bemerkung: 'Sanitätsdienst am Stand',
      freigegeben: false,
    });
    expect(String(added[0]!.attributes.von).slice(0, 16)).toBe(`${today()}T08:00`);
    // Every other entry as it was.
    const byId = new Map(hoursAfter.map((entry) => [entry.id, entry]));
    for (const entry of hoursBefore)
      expect(byId.get(entry.id)?.attributes, entry.id).toEqual(entry.attributes);
    const occasionAfter = await servedOccasion(OCCASION);
    expect(occasionAfter?.attributes).toMatchObject({
      beschreibung: 'Zyxdienst Stadtfest Süd',
      datum: today(),
      typ: 'dienst',
    });
    expect(office.pageErrors).toEqual([]);
  }, 240_000);

  it('a trainer’s login sees only their own hours: no “Alle” tab, and no error', async (test) => {
    if (!office.signedIn) test.skip();
    await page.getByRole('button', { name: 'Abmelden' }).click();
    // The office's data leaves this computer with the office: the trainer's replica is their own.
    await page.getByLabel('Auch die Daten auf diesem Computer löschen').check();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Abmelden und Daten löschen', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Abgemeldet' }).waitFor();
    office.loginHint = 'trainer1';
    await page.getByRole('button', { name: 'Erneut anmelden' }).click();
    await page.getByTestId('user-name').waitFor({ timeout: 30_000 });
    await expect.poll(() => phaseOf(page), { timeout: 120_000, interval: 200 }).toBe('idle');
    await page.locator('[data-workspace="hours"]').click();
    await page.getByTestId('hours-total').waitFor();
    expect(await page.getByTestId('hours-tab-all').count()).toBe(0);
    expect(await page.getByTestId('office-hours').count()).toBe(0);
    expect(await page.getByTestId('office-hours-refused').count()).toBe(0);
    // Their own entries only: not the office's entry at the occasion.
    await expect.poll(() => page.getByTestId('hours-row').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('hours-row').filter({ hasText: 'Zyxdienst' }).count()).toBe(0);
    await shot(page, 'office-hours-trainer-1366x860-de', false);
    expect(office.pageErrors).toEqual([]);
  }, 180_000);
});
