// Drift 6 of issue 10: on a service that pages by offset, a record deleted between two pages of a
// list shifts every later record one place forward, so the first record of the next page is never
// listed. A full scan then removed that unrelated record from the replica, and an incremental
// pull lost its edit (and moved the watermark past it). Reproduced against the sandbox paging by
// page[number]; the deletion lands between two pages through the client's fetch, the sandbox
// stays real.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken, type ApiClient } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { runSync } from '../../sync/pull/engine';
import { EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const PAGE_SIZE = 10;

describe('drift 6: paging shifts', () => {
  let sandbox: Sandbox;
  let dir: string;
  let file = 0;
  const freshReplica = () => openReplica(join(dir, `replica-${(file += 1)}.sqlite`));

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', seed: 6, pageSize: PAGE_SIZE });
    dir = mkdtempSync(join(tmpdir(), 'vorort-drift-paging-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * An office client whose fetch runs `between` once, right after the first page of a list that
   * `matches` has arrived (and before the next page is asked for).
   */
  function officeClient(
    matches: (url: URL) => boolean,
    between: (url: URL, firstPage: { data: { id: string }[] }) => void,
  ): { api: ApiClient; fired: () => boolean } {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    let fired = false;
    const wrapped: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      const page = url.searchParams.get('page[number]');
      if (fired || (page !== null && page !== '1') || !matches(url)) return response;
      // The whole first page is in hand: only then does the service change.
      const body = await response.text();
      fired = true;
      between(url, JSON.parse(body) as { data: { id: string }[] });
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
      fetch: wrapped,
    });
    return { api, fired: () => fired };
  }

  const plainOffice = () =>
    officeClient(
      () => false,
      () => {},
    ).api;
  const isPersonalList = (url: URL) => url.pathname.endsWith('/personal');
  const accounts = () => new Set(sandbox.users.map((u) => u.id));
  const userIds = (replica: Replica) =>
    new Set(replica.sqlite.prepare('SELECT id FROM users').pluck().all() as string[]);

  /**
   * The records of the list as the service held it when its first page was answered: the first
   * page's record to delete (not an account of the sandbox), and the record that the shift hides
   * (the first of the second page).
   */
  function shiftOf(listed: readonly { id: string }[], firstPage: readonly { id: string }[]) {
    expect(listed.length).toBeGreaterThan(PAGE_SIZE);
    expect(firstPage.map((r) => r.id)).toEqual(listed.slice(0, PAGE_SIZE).map((r) => r.id));
    const victim = firstPage.find((r) => !accounts().has(r.id))!;
    const hidden = listed[PAGE_SIZE]!;
    return { victim: victim.id, hidden: hidden.id };
  }

  it('a full scan of /personal does not delete the record a deletion between two pages hid; the deleted one goes', async () => {
    const replica = freshReplica();
    try {
      const first = await runSync({
        api: plainOffice(),
        replica,
        options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
      });
      expect(first.ok).toBe(true);
      expect(userIds(replica).size).toBe(sandbox.store.count('user'));

      let shift: { victim: string; hidden: string } | undefined;
      const client = officeClient(isPersonalList, (_url, page) => {
        shift = shiftOf(sandbox.store.all('user'), page.data);
        expect(sandbox.store.remove('user', shift.victim)).toBe(true);
      });
      // vorort sync --full: the office's id scan of /personal.
      const full = await runSync({
        api: client.api,
        replica,
        options: { profile: 'office', full: true },
      });
      expect(client.fired()).toBe(true);
      expect(full.ok, JSON.stringify(full.collections)).toBe(true);
      const { victim, hidden } = shift!;
      const after = userIds(replica);
      // No unrelated record deleted: the one the shift hid, nor any other the service has.
      expect(after.has(hidden), `the hidden record ${hidden}`).toBe(true);
      for (const user of sandbox.store.all('user')) expect(after.has(user.id), user.id).toBe(true);
      expect(full.collections.personal?.deleted).toBe(0);

      // The deleted one is gone, now or at the next scan.
      await runSync({ api: client.api, replica, options: { profile: 'office', full: true } });
      const settled = userIds(replica);
      expect(settled.has(victim)).toBe(false);
      expect(settled.has(hidden)).toBe(true);
      expect(settled.size).toBe(sandbox.store.count('user'));
    } finally {
      await replica.close();
    }
  });

  it('an incremental pull of /personal keeps the edit of the record a deletion between two pages hid', async () => {
    const replica = freshReplica();
    // Incremental every time: the id scan of /personal is not due again within these syncs.
    const options = {
      profile: 'office' as const,
      ...EVERY_ITEM_EVERY_SYNC,
      freshnessHours: { ...EVERY_ITEM_EVERY_SYNC.freshnessHours, deletions: 24 * 365 },
    };
    try {
      const first = await runSync({
        api: plainOffice(),
        replica,
        options,
      });
      expect(first.ok).toBe(true);

      // More people edited on the service than fit in one page.
      const edited = sandbox.store.all('user').slice(0, PAGE_SIZE + 5);
      for (const user of edited)
        sandbox.store.put({ ...user, attributes: { ...user.attributes, ort: `Neu-${user.id}` } });

      let shift: { victim: string; hidden: string } | undefined;
      const client = officeClient(
        (url) => isPersonalList(url) && url.searchParams.has('filter[updated_since]'),
        (url, page) => {
          const since = new Date(url.searchParams.get('filter[updated_since]')!).toISOString();
          const listed = sandbox.store.all('user').filter((u) => u.updatedAt >= since);
          shift = shiftOf(listed, page.data);
          expect(sandbox.store.remove('user', shift.victim)).toBe(true);
        },
      );
      const incremental = await runSync({ api: client.api, replica, options });
      expect(client.fired()).toBe(true);
      expect(incremental.ok, JSON.stringify(incremental.collections)).toBe(true);
      const { victim, hidden } = shift!;
      expect(edited.map((u) => u.id)).toContain(hidden);
      const ortOf = (id: string) =>
        replica.sqlite.prepare('SELECT ort FROM users WHERE id = ?').pluck().get(id) as
          string | undefined;
      // The edit of the record the shift hid arrived, as did every other edit.
      expect(ortOf(hidden)).toBe(`Neu-${hidden}`);
      for (const user of edited)
        if (user.id !== victim) expect(ortOf(user.id), user.id).toBe(`Neu-${user.id}`);
      // And it stays so: the next incremental pull does not bring it again (the watermark moved on).
      await runSync({ api: client.api, replica, options });
      expect(ortOf(hidden)).toBe(`Neu-${hidden}`);

      // The deleted one goes at the next id scan, and nothing else with it.
      await runSync({ api: client.api, replica, options: { profile: 'office', full: true } });
      const settled = userIds(replica);
      expect(settled.has(victim)).toBe(false);
      expect(settled.size).toBe(sandbox.store.count('user'));
    } finally {
      await replica.close();
    }
  });
});
