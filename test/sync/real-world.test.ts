// The client against the shapes and faults of the real service (DESIGN rule 14): answers shaped
// as public sources show the real service's (`real`), and in shapes beyond those (`robust`),
// give the same replica as our uniform sandbox; an unreadable record costs only itself; a missing right is said per area; and a sync
// converges through a heavy fault mix. Real HTTP against the sandbox, real SQLite files.
import { describe, expect, it } from 'vitest';
import { ROLE_SCOPES } from '../../sandbox/auth/index';
import { listedUvts } from '../../sandbox/http/uvts';
import { startSandbox, type SandboxOptions } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { serviceDay } from '../../sync/contract/service-time';
import { openReplica, type Replica } from '../../sync/db/open';
import { runSync, type SyncSummary } from '../../sync/pull/engine';
import { EVERY_ITEM_EVERY_SYNC, type SyncOptions } from '../../sync/pull/options';
import { createDispatcher, typedCaller } from '../../sync/dispatch';
import {
  expectNoDanglingReferences,
  snapshotDifferences,
  snapshotReplica,
  type SnapshotOptions,
} from '../support/replica-snapshot';
import { temporaryFiles } from '../support/temp-files';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Profile = 'office' | 'trainer';

const tempFile = temporaryFiles('real');

function userOf(sandbox: Sandbox, role: Profile) {
  const user = sandbox.users.find((u) => u.role === role);
  if (!user) throw new Error(`no ${role} user`);
  return user;
}

async function syncOnce(
  sandbox: Sandbox,
  replica: Replica,
  profile: Profile,
  options: Partial<SyncOptions> = {},
  token = userOf(sandbox, profile).accessToken,
  /** False where the test deletes people on the service (references to people are weak). */
  includeWeak = true,
): Promise<SyncSummary> {
  const api = createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens: staticToken(token),
    backoff: { baseMs: 20, maxMs: 200 },
  });
  const summary = await runSync({
    api,
    replica,
    options: { profile, ...EVERY_ITEM_EVERY_SYNC, ...options },
  });
  // Every sync, whatever it met, leaves no reference dangling, but to what the service offers nowhere.
  const offeredUvts = new Set(listedUvts(sandbox.store).map((uvt) => uvt.id));
  expectNoDanglingReferences(replica.sqlite, profile, {
    includeWeak,
    offered: { uvts: (id) => offeredUvts.has(id) },
  });
  return summary;
}

/** A replica synced (with everyone's details) from a sandbox started with `options`. */
async function syncedReplica(
  options: SandboxOptions,
  profile: Profile,
  name: string,
): Promise<{ replica: Replica; summary: SyncSummary; origin: string }> {
  const sandbox = await startSandbox({ port: 0, ...options });
  try {
    const replica = openReplica(tempFile(name));
    const summary = await syncOnce(sandbox, replica, profile, { full: true });
    return { replica, summary, origin: sandbox.origin };
  } finally {
    await sandbox.close();
  }
}

function expectSameReplica(
  actual: { replica: Replica; origin: string },
  expected: { replica: Replica; origin: string },
  options: SnapshotOptions = {},
) {
  const differences = snapshotDifferences(
    snapshotReplica(actual.replica.sqlite, { ...options, origin: actual.origin }),
    snapshotReplica(expected.replica.sqlite, { ...options, origin: expected.origin }),
  );
  expect(differences).toEqual({});
}

/**
 * Three syncs of the medium scale, every item each time (about 2,400 requests a sync): 20 to 40 s
 * on a shared machine under load, whatever the date.
 */
const MEDIUM_SYNCS_TIMEOUT = 120_000;

const quarantined = (replica: Replica) =>
  replica.sqlite.prepare('SELECT * FROM quarantine').all() as { id: string; reason: string }[];

describe.each([
  { shapes: 'real' as const, seed: 3 },
  { shapes: 'robust' as const, seed: 3 },
  { shapes: 'robust' as const, seed: 17 },
])('the $shapes shapes, seed $seed', ({ shapes, seed }) => {
  it.each<Profile>(['office', 'trainer'])(
    '%s: give the same replica as the uniform shapes, with nothing quarantined',
    async (profile) => {
      const uniform = await syncedReplica({ scale: 'small', seed }, profile, 'uniform.sqlite');
      const varied = await syncedReplica(
        { scale: 'small', seed, shapes },
        profile,
        `${shapes}.sqlite`,
      );
      try {
        expect(varied.summary.ok, JSON.stringify(varied.summary.collections)).toBe(true);
        expect(varied.summary.quarantined).toBe(0);
        expect(quarantined(varied.replica)).toEqual([]);
        // Robust shapes really were different: the reader converted values on the way. The real
        // ones (an empty date as 0000-00-00, sandbox/http/shapes.test.ts) need no conversion.
        const conversions = Object.values(varied.summary.collections).reduce(
          (sum, r) => sum + (r.conversions ?? 0),
          0,
        );
        if (shapes === 'robust') expect(conversions).toBeGreaterThan(0);
        else expect(conversions).toBe(0);
        const count = (table: string) =>
          varied.replica.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
        for (const table of ['users', 'qualifikationen', 'helferstunden', 'courses'])
          expect(count(table), table).toBeGreaterThan(0);
        if (profile === 'office') {
          for (const table of ['ausbildungen', 'ueberpruefungen', 'ehrungen', 'participations'])
            expect(count(table), table).toBeGreaterThan(0);
          // Robust: some people came without embedded trainings, fetched from their endpoint.
          if (shapes === 'robust')
            expect(varied.summary.collections.ausbildungen?.requests ?? 0).toBeGreaterThan(0);
        }
        // The bases differ by the attributes the client does not know (kept raw); every column does not.
        expectSameReplica(varied, uniform, { skipTables: ['singletons'] });
      } finally {
        await uniform.replica.close();
        await varied.replica.close();
      }
    },
  );
});

describe('one unreadable record', { timeout: MEDIUM_SYNCS_TIMEOUT }, () => {
  it('costs only itself: the rest is applied, it is quarantined, reported, and retried', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'medium', seed: 4 });
    const replica = openReplica(tempFile('quarantine.sqlite'));
    try {
      const people = sandbox.store.all('user');
      expect(people.length).toBeGreaterThanOrEqual(1000);
      const broken = people[Math.floor(people.length / 2)]!;
      sandbox.breakRecord('user', broken.id);
      const hours = sandbox.store.all('helferstunden');
      const brokenHour = hours[7]!;
      sandbox.breakRecord('helferstunden', brokenHour.id, 'von-object');

      const first = await syncOnce(sandbox, replica, 'office');
      expect(first.collections.personal?.records).toBe(people.length - 1);
      expect(first.collections.personal?.quarantined).toBe(1);
      expect(hoursQuarantined(first)).toBe(1);
      expect(first.quarantined).toBe(2);
      const has = (table: string, id: string) =>
        replica.sqlite.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== undefined;
      expect(has('users', broken.id)).toBe(false);
      expect(has('helferstunden', brokenHour.id)).toBe(false);
      expect(replica.sqlite.prepare('SELECT count(*) FROM users').pluck().get()).toBe(
        people.length - 1,
      );

      // Reported in the status and through the contract's query, with the raw record and the reason.
      const queries = typedCaller(createDispatcher(replica));
      const status = await queries.query('sync.status', {});
      expect(status.quarantine).toEqual({
        total: 2,
        byCollection: { personal: 1, helferstunden: 1 },
      });
      const listed = await queries.query('sync.quarantine', {});
      expect(listed.items.map((q) => [q.collection, q.id, q.kind])).toEqual(
        expect.arrayContaining([
          ['personal', broken.id, 'unreadable'],
          ['helferstunden', brokenHour.id, 'unreadable'],
        ]),
      );
      expect(listed.items.find((q) => q.id === broken.id)?.reason).toMatch(/attributes/);

      // Still broken: tried again (the incremental pull holds its watermark), still quarantined, nothing lost.
      // An ordinary sync of the day: not the history windows, which would list the record again.
      const second = await syncOnce(sandbox, replica, 'office', {
        freshnessHours: { ...EVERY_ITEM_EVERY_SYNC.freshnessHours, deletions: 24 },
      });
      // A record that stays unreadable is reported again, and fails no sync (exit 0).
      expect(second.ok, JSON.stringify(second.collections)).toBe(true);
      expect(second.collections.personal?.quarantined).toBe(1);
      expect(hoursQuarantined(second)).toBe(1);
      expect(second.collections.helferstunden?.failedItems).toBeUndefined();
      expect(quarantined(replica)).toHaveLength(2);
      const attempts = replica.sqlite
        .prepare('SELECT attempts FROM quarantine WHERE id = ?')
        .pluck()
        .get(broken.id);
      expect(attempts).toBe(2);

      // Readable again: the next sync applies it and the quarantine is empty.
      sandbox.repairRecord('user', broken.id);
      sandbox.repairRecord('helferstunden', brokenHour.id);
      const third = await syncOnce(sandbox, replica, 'office');
      expect(third.ok).toBe(true);
      expect(third.quarantined).toBe(0);
      expect(has('users', broken.id)).toBe(true);
      expect(has('helferstunden', brokenHour.id)).toBe(true);
      expect(quarantined(replica)).toEqual([]);
    } finally {
      await replica.close();
      await sandbox.close();
    }
  });
});

describe('the quarantine', () => {
  it('lets go of records the service deleted, and of those whose parent left the replica', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'small', seed: 6 });
    const replica = openReplica(tempFile('quarantine-gone.sqlite'));
    try {
      const office = userOf(sandbox, 'office').id;
      const ownerOf = (c: { relationships?: unknown }) =>
        (c.relationships as { user: { id: string } }).user.id;
      const check = sandbox.store.all('ueberpruefung').find((c) => ownerOf(c) !== office)!;
      const checkOwner = ownerOf(check);
      const person = sandbox.store.all('user').find((u) => u.id !== checkOwner && u.id !== office)!;
      sandbox.breakRecord('user', person.id);
      sandbox.breakRecord('ueberpruefung', check.id);
      await syncOnce(sandbox, replica, 'office', { full: true });
      expect(quarantined(replica).map((q) => q.id)).toEqual(
        expect.arrayContaining([person.id, check.id]),
      );

      // Both people are deleted on the service: the next full scan forgets their entries.
      sandbox.store.remove('user', person.id);
      sandbox.store.remove('user', checkOwner);
      const token = userOf(sandbox, 'office').accessToken;
      const summary = await syncOnce(sandbox, replica, 'office', { full: true }, token, false);
      expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
      expect(quarantined(replica)).toEqual([]);
      const status = await typedCaller(createDispatcher(replica)).query('sync.status', {});
      expect(status.quarantine.total).toBe(0);
    } finally {
      await replica.close();
      await sandbox.close();
    }
  });
});

describe('a token without a right', () => {
  it('reports the missing right per area; the rest is applied and the sync is ok', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'small', seed: 6 });
    const replica = openReplica(tempFile('scopes.sqlite'));
    try {
      const office = userOf(sandbox, 'office');
      const withoutCourses = ROLE_SCOPES.office.filter(
        (scope) => !/^(courses|participations|customfields|clients|uvts):/.test(scope),
      );
      const token = sandbox.auth.issueAccessToken(office.id, { scope: withoutCourses.join(' ') });
      const summary = await syncOnce(sandbox, replica, 'office', {}, token);
      expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
      expect(summary.unavailable.map((u) => [u.collection, u.reason])).toEqual(
        expect.arrayContaining([
          ['course_types', 'forbidden'],
          ['courses', 'forbidden'],
        ]),
      );
      expect(summary.collections.personal?.records).toBeGreaterThan(0);
      expect(summary.collections.helferstunden?.records).toBeGreaterThan(0);
      const areas = await typedCaller(createDispatcher(replica)).query('sync.areas', {});
      const courses = areas.find((a) => a.area === 'courses');
      expect(courses?.state).toBe('forbidden');
      expect(courses?.message).toEqual({
        de: 'Keine Berechtigung für Kurse',
        en: 'no right to read courses',
      });
      expect(areas.find((a) => a.area === 'personnel')?.state).toBe('available');
    } finally {
      await replica.close();
      await sandbox.close();
    }
  });
});

describe('through faults', () => {
  const FAULTS = 'error=0.2,lost=0.1,slow=0.05,malformed=0.05';
  it.each([
    { profile: 'office' as const, within: 5 },
    { profile: 'trainer' as const, within: 3 },
  ])(
    'the $profile replica equals the clean one within $within syncs, and a no-change sync loses no row',
    async ({ profile, within }) => {
      // One demo day for both sandboxes: each would take its own today, which differs when the
      // test runs across Berlin's midnight.
      const anchorDate = serviceDay();
      const clean = await syncedReplica(
        { scale: 'medium', seed: 9, anchorDate },
        profile,
        'clean.sqlite',
      );
      const sandbox = await startSandbox({
        port: 0,
        scale: 'medium',
        seed: 9,
        anchorDate,
        faults: FAULTS,
        // The fault mix as given, with slow answers shortened so the test stays quick.
        slowMs: 100,
      });
      const replica = openReplica(tempFile('faulty.sqlite'));
      try {
        const expected = snapshotReplica(clean.replica.sqlite, {
          withBase: true,
          origin: clean.origin,
        });
        const snapshot = () =>
          snapshotReplica(replica.sqlite, { withBase: true, origin: sandbox.origin });
        let syncs = 0;
        let differences: ReturnType<typeof snapshotDifferences> = { start: {} as never };
        while (syncs < within && Object.keys(differences).length > 0) {
          syncs += 1;
          await syncOnce(sandbox, replica, profile);
          differences = snapshotDifferences(snapshot(), expected);
        }
        console.log(`${profile}: equal to the clean replica after ${syncs} syncs`);
        expect(Object.keys(differences)).toEqual([]);
        // A sync with no change on the service (faults still on) loses no row of any table.
        await syncOnce(sandbox, replica, profile);
        expect(snapshotDifferences(snapshot(), expected)).toEqual({});
      } finally {
        await replica.close();
        await clean.replica.close();
        await sandbox.close();
      }
    },
    // Every sync also runs the id scans (the hours' history windows) through the faults.
    120_000,
  );
});

describe('reference data', { timeout: MEDIUM_SYNCS_TIMEOUT }, () => {
  it('stays whole: UVTs that /uvts no longer lists (only the favourites) stay while referenced', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'medium', seed: 12 });
    const replica = openReplica(tempFile('uvts.sqlite'));
    try {
      const uvts = () => replica.sqlite.prepare('SELECT count(*) FROM uvts').pluck().get();
      await syncOnce(sandbox, replica, 'office');
      const afterFirst = uvts() as number;
      const favourites = (
        await (
          await fetch(`${sandbox.baseUrl}/uvts`, {
            headers: { authorization: `Bearer ${userOf(sandbox, 'office').accessToken}` },
          })
        ).json()
      ).data.length as number;
      // Participations and companies brought UVTs beyond the favourites.
      expect(afterFirst).toBeGreaterThan(favourites);
      await syncOnce(sandbox, replica, 'office');
      await syncOnce(sandbox, replica, 'office', { full: true });
      expect(uvts()).toBe(afterFirst);
    } finally {
      await replica.close();
      await sandbox.close();
    }
  });

  it('keeps a company whose UVT the service offers nowhere, and takes the UVT once offered', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'small', seed: 6 });
    const replica = openReplica(tempFile('unoffered-uvt.sqlite'));
    try {
      // A course of the trainer's, tomorrow, whatever the demo's calendar holds.
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const { store } = sandbox;
      const course = await postAsOffice(sandbox, '/courses', {
        data: {
          type: 'course',
          attributes: { title: 'Erste Hilfe Probe' },
          relationships: {
            course_type: { data: { type: 'course_type', id: store.all('course_type')[0]!.id } },
            dates: { data: [{ type: 'course_date', id: 'new-1' }] },
            trainers: { data: [{ type: 'user', id: userOf(sandbox, 'trainer').id }] },
          },
        },
        included: [
          {
            type: 'course_date',
            id: 'new-1',
            attributes: { from: `${tomorrow}T09:00:00+00:00`, to: `${tomorrow}T17:00:00+00:00` },
          },
        ],
      });
      // A participant no UVT pays for (no UVT of its own), from a company whose UVT is no
      // favourite and named by no participation: neither /uvts nor `include=uvt` brings it.
      const uvt = store.put({
        type: 'uvt',
        id: store.nextId('uvt'),
        attributes: { name: 'Unfallkasse Probe', short_name: 'UK Probe', favorite: false },
        relationships: {},
      });
      const company = store.put({
        type: 'company',
        id: store.nextId('company'),
        attributes: {
          name: 'Probe GmbH',
          street: '',
          postal_code: '',
          city: '',
          uvt_member_number: '',
        },
        relationships: { uvt: { type: 'uvt', id: uvt.id } },
      });
      store.put({
        type: 'participation',
        id: store.nextId('participation'),
        attributes: { ...store.all('participation')[0]!.attributes, status: 'registered' },
        relationships: {
          course: { type: 'course', id: course.id },
          company: { type: 'company', id: company.id },
          uvt: null,
          client: null,
          user: null,
        },
      });
      const companyUvt = () =>
        replica.sqlite.prepare('SELECT uvt_id FROM companies WHERE id = ?').pluck().get(company.id);
      const holdsUvt = () =>
        replica.sqlite.prepare('SELECT count(*) FROM uvts WHERE id = ?').pluck().get(uvt.id);

      await syncOnce(sandbox, replica, 'trainer');
      expect(companyUvt()).toBe(uvt.id);
      expect(holdsUvt()).toBe(0);
      // A favourite, /uvts lists it: the next sync takes it; no favourite again, it stays named.
      const favourite = store.put({ ...uvt, attributes: { ...uvt.attributes, favorite: true } });
      await syncOnce(sandbox, replica, 'trainer');
      expect(holdsUvt()).toBe(1);
      store.put({ ...favourite, attributes: { ...favourite.attributes, favorite: false } });
      await syncOnce(sandbox, replica, 'trainer');
      expect(holdsUvt()).toBe(1);
    } finally {
      await replica.close();
      await sandbox.close();
    }
  });
});

async function postAsOffice(sandbox: Sandbox, path: string, body: unknown) {
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${userOf(sandbox, 'office').accessToken}`,
      'content-type': 'application/vnd.api+json',
    },
    body: JSON.stringify(body),
  });
  const document = (await response.json()) as { data: { id: string } };
  expect(response.status, JSON.stringify(document)).toBe(201);
  return document.data;
}

/** The hours' quarantined records, from their incremental pull and their history windows. */
function hoursQuarantined(summary: SyncSummary): number {
  const { helferstunden, helferstunden_history: history } = summary.collections;
  return (helferstunden?.quarantined ?? 0) + (history?.quarantined ?? 0);
}
