// The sync's lanes (people, reference data and courses, hours) side by side against the real
// sandbox over HTTP, with real SQLite files: every request counted to its collection, a lane that
// fails for good stopping the others, the caller's cancellation, and the trainer profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { format } from 'date-fns';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import {
  ApiError,
  createApiClient,
  staticToken,
  type ApiClient,
  type ApiClientOptions,
  type RequestEvent,
} from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { runSync, type SyncSummary } from '../../sync/pull/engine';
import {
  DEFAULT_SYNC_OPTIONS,
  type SyncProgress,
  EVERY_ITEM_EVERY_SYNC,
} from '../../sync/pull/options';
import { expectOfficeReplica, expectTrainerReplica } from '../support/service-oracle';

const dirs: string[] = [];
function tempFile(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vorort-lanes-'));
  dirs.push(dir);
  return join(dir, name);
}
const open: { replica: Replica; sandbox: RunningSandbox }[] = [];
afterAll(async () => {
  for (const { replica, sandbox } of open) {
    await replica.close();
    await closeSandbox(sandbox);
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Closes a sandbox that a cancelled or failed sync talked to. Requests cancelled while fetch was
 * still connecting leave pooled connections that never carried a request; Node's server counts
 * those as busy until its 60 s header time-out, so close() would wait that long. A burst of
 * plain requests uses every pooled connection once, after which they are idle and close at once.
 */
async function closeSandbox(sandbox: RunningSandbox): Promise<void> {
  await Promise.allSettled(
    Array.from({ length: 32 }, () =>
      fetch(`${sandbox.origin}/oauth/v1/userinfo`).then((response) => response.arrayBuffer()),
    ),
  );
  await sandbox.close();
}

async function setUp(seed: number) {
  const sandbox = await startSandbox({ port: 0, scale: 'small', seed });
  const replica = openReplica(tempFile(`seed-${seed}.sqlite`));
  open.push({ replica, sandbox });
  return { sandbox, replica };
}

function accountOf(sandbox: RunningSandbox, role: 'office' | 'trainer') {
  const account = sandbox.users.find((user) => user.role === role);
  if (!account) throw new Error(`The sandbox has no ${role} account`);
  return account;
}

interface Instrumented {
  api: ApiClient;
  /** What the client reported through its onRequest option, one event per attempt. */
  events: RequestEvent[];
  /** Requests handed to fetch, i.e. sent on the wire (counted when they start, not when they end). */
  sent: string[];
}

/** A client of the real sandbox whose requests are counted twice: by onRequest and as they start. */
function instrumentedClient(
  sandbox: RunningSandbox,
  token: string,
  options: Partial<ApiClientOptions> & { onEvent?: (event: RequestEvent) => void } = {},
): Instrumented {
  const events: RequestEvent[] = [];
  const sent: string[] = [];
  const { onEvent, ...clientOptions } = options;
  const api = createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens: staticToken(token),
    maxRetries: 1,
    backoff: { baseMs: 5, maxMs: 20 },
    ...clientOptions,
    fetch: (input, init) => {
      sent.push(String(input));
      return fetch(input, init);
    },
    onRequest: (event) => {
      events.push(event);
      onEvent?.(event);
    },
  });
  return { api, events, sent };
}

/** The collection a request belongs to, told from its path alone. */
function collectionOf(url: string): string {
  const path = new URL(url).pathname;
  const rules: [RegExp, string][] = [
    [/^\/oauth\/v1\/userinfo$/, 'userinfo'],
    [/^\/organisation\/selbst\/stammdaten$/, 'orga'],
    [/^\/personal(\/selbst)?$/, 'personal'],
    [/^\/personal\/[^/]+\/(ueberpruefungen|ehrungen)$/, 'person_details'],
    [/^\/kalender$/, 'kalender'],
    [/^\/benachrichtigungen$/, 'benachrichtigungen'],
    [/^\/helferstunden\/einstellungen\/selbst$/, 'helferstunden_einstellungen'],
    [/^\/steuersaetze$/, 'steuersaetze'],
    [/^\/courses\/types$/, 'course_types'],
    [/^\/uvts$/, 'uvts'],
    [/^\/clients$/, 'clients'],
    [/^\/courses$/, 'courses'],
    [/^\/courses\/[^/]+\/participations$/, 'participations'],
    [/^\/courses\/[^/]+\/customfields$/, 'customfields'],
    [/^\/clients\/[^/]+\/participants$/, 'client_participants'],
    [/^\/formulare\/[^/]+\/liste$/, 'formulare'],
    [/^\/helferstunden$/, 'helferstunden'],
  ];
  return rules.find(([pattern]) => pattern.test(path))?.[1] ?? `unknown ${path}`;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function requestsOf(summary: SyncSummary): Record<string, number> {
  return Object.fromEntries(
    Object.entries(summary.collections)
      .filter(([, result]) => result.requests > 0)
      .map(([name, result]) => [name, result.requests]),
  );
}

/** The hours' incremental pull and their history windows share one path: counted together. */
function hoursFolded(counts: Record<string, number>): Record<string, number> {
  const { helferstunden_history: history = 0, ...rest } = counts;
  return { ...rest, helferstunden: (rest.helferstunden ?? 0) + history };
}

function count(sqlite: BetterSqlite3.Database, sql: string, ...params: unknown[]): number {
  return sqlite
    .prepare(sql)
    .pluck()
    .get(...params) as number;
}

/** Monthly windows of the full hours scan, from the history start to today (the last one open). */
function monthlyHourWindows(): number {
  const start = new Date(`${DEFAULT_SYNC_OPTIONS.hoursHistoryStart}T00:00:00`);
  const today = new Date();
  return (
    (today.getFullYear() - start.getFullYear()) * 12 + (today.getMonth() - start.getMonth()) + 1
  );
}

/** Runs the sync to its rejection and answers the error with what was counted at that moment. */
async function rejectionOf(sync: Promise<SyncSummary>, client: Instrumented) {
  const outcome = await sync.then(
    (summary) => ({ summary, error: undefined }),
    (error: unknown) => ({ summary: undefined, error }),
  );
  const atSettle = { sent: client.sent.length, events: client.events.length };
  expect(outcome.summary, 'the sync should have failed').toBeUndefined();
  expect(outcome.error).toBeInstanceOf(ApiError);
  return { error: outcome.error as ApiError, atSettle };
}

/** Nothing is sent, and no attempt reported, after the sync settled. */
async function expectQuietAfter(client: Instrumented, atSettle: { sent: number; events: number }) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(client.sent.length, 'requests sent after the sync settled').toBe(atSettle.sent);
  expect(client.events.length, 'attempts reported after the sync settled').toBe(atSettle.events);
  // Every attempt sent was reported once.
  expect(client.events.length).toBe(client.sent.length);
}

describe('office sync in lanes', () => {
  it('counts every request to exactly one collection, as the client saw them', async () => {
    const { sandbox, replica } = await setUp(31);
    const office = accountOf(sandbox, 'office');
    const client = instrumentedClient(sandbox, office.accessToken);

    const first = await runSync({
      api: client.api,
      replica,
      options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
    });
    expect(first.ok, JSON.stringify(first.collections)).toBe(true);
    const perCollection = hoursFolded(requestsOf(first));
    const sum = Object.values(perCollection).reduce((a, b) => a + b, 0);
    expect(sum).toBe(first.requests);
    expect(first.requests).toBe(client.events.length);
    expect(client.sent.length).toBe(client.events.length);
    expect(perCollection).toEqual(countBy(client.events, (event) => collectionOf(event.url)));

    const sqlite = replica.sqlite;
    const courses = count(sqlite, 'SELECT count(*) FROM courses');
    const people = count(sqlite, 'SELECT count(*) FROM users');
    expect(courses).toBeGreaterThan(0);
    expect(people).toBeGreaterThan(0);
    expect(perCollection).toMatchObject({
      userinfo: 1,
      orga: 1,
      personal: 1, // no paging: the whole list in one answer
      person_details: 2 * people, // checks and honours per person
      kalender: 1,
      benachrichtigungen: 1,
      helferstunden_einstellungen: 1,
      steuersaetze: 1,
      course_types: 1,
      uvts: 1,
      clients: 1,
      courses: 1,
      participations: courses,
      customfields: courses,
      client_participants: count(sqlite, 'SELECT count(*) FROM clients'),
      formulare:
        1 +
        count(
          sqlite,
          'SELECT count(*) FROM courses WHERE last_date >= ?',
          format(new Date(), 'yyyy-MM-dd'), // forms of courses not yet ended, by the local day
        ),
      helferstunden: 1 + monthlyHourWindows(), // the own entries, then every window
    });

    // The next sync: incremental hours and people, the same attribution.
    client.events.length = 0;
    client.sent.length = 0;
    const second = await runSync({
      api: client.api,
      replica,
      // Not the id scans of the day (the people listed whole, the hours' history windows).
      options: {
        profile: 'office',
        ...EVERY_ITEM_EVERY_SYNC,
        freshnessHours: { ...EVERY_ITEM_EVERY_SYNC.freshnessHours, deletions: 24 },
      },
    });
    expect(second.ok, JSON.stringify(second.collections)).toBe(true);
    const again = hoursFolded(requestsOf(second));
    expect(Object.values(again).reduce((a, b) => a + b, 0)).toBe(second.requests);
    expect(second.requests).toBe(client.events.length);
    expect(again).toEqual(countBy(client.events, (event) => collectionOf(event.url)));
    expect(again).toMatchObject({ personal: 1, helferstunden: 1, participations: courses });
  });

  it.each([
    {
      kind: 'auth' as const,
      status: 401,
      // The office account is removed on the service: its token is no longer accepted.
      fail: (sandbox: RunningSandbox, officeId: string) => {
        sandbox.store.remove('account', officeId);
      },
      failed: (event: RequestEvent) => event.status === 401,
    },
    {
      kind: 'network' as const,
      status: undefined,
      // The service goes away: every further connection is refused.
      fail: (sandbox: RunningSandbox) => {
        void sandbox.close();
      },
      failed: (event: RequestEvent) => event.status === null,
    },
  ])(
    'stops every lane when one fails for good ($kind) and sends nothing afterwards',
    async ({ kind, status, fail, failed }) => {
      const { sandbox, replica } = await setUp(32);
      const office = accountOf(sandbox, 'office');
      let triggered = false;
      const client = instrumentedClient(sandbox, office.accessToken, {
        maxRetries: 0,
        // Once the people's details have begun (about 100 requests of their own to go), while
        // the course and hours lanes are still busy.
        onEvent: (event) => {
          if (!triggered && collectionOf(event.url) === 'person_details') {
            triggered = true;
            fail(sandbox, office.id);
          }
        },
      });

      const { error, atSettle } = await rejectionOf(
        runSync({
          api: client.api,
          replica,
          options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
        }),
        client,
      );
      expect(triggered).toBe(true);
      // The first failure itself, not the cancellation it caused in the other lanes.
      expect(error.kind).toBe(kind);
      expect(error.status).toBe(status);
      await expectQuietAfter(client, atSettle);

      // Without the shared stop the people's lane alone would go on through all its remaining
      // people (two failing requests each); with it, only what was already under way fails.
      const people = count(replica.sqlite, 'SELECT count(*) FROM users');
      expect(people).toBeGreaterThan(20);
      const failures = client.events.filter(failed).length;
      expect(failures).toBeGreaterThan(0);
      expect(failures).toBeLessThanOrEqual(24);
      const detailsSent = client.sent.filter((url) => collectionOf(url) === 'person_details');
      expect(detailsSent.length).toBeLessThan(2 * people - 20);

      // What failed is on record; nothing was marked as synced.
      const lastSync = replica.sqlite
        .prepare("SELECT value FROM sync_log WHERE key = 'last_successful_sync_at'")
        .pluck()
        .get();
      expect(lastSync).toBeUndefined();
      const failedCollections = replica.sqlite
        .prepare('SELECT collection FROM sync_state WHERE last_error IS NOT NULL')
        .pluck()
        .all();
      expect(failedCollections.length).toBeGreaterThan(0);
    },
  );

  it('stops at the caller’s cancellation and leaves a replica the next sync completes', async () => {
    const { sandbox, replica } = await setUp(33);
    const office = accountOf(sandbox, 'office');
    const target = { baseUrl: sandbox.baseUrl, token: office.accessToken };
    const client = instrumentedClient(sandbox, office.accessToken);
    const controller = new AbortController();
    let hoursIndexesAtCancel: string[] | undefined;
    const onProgress = (event: SyncProgress) => {
      // Mid-way through the first load of the hours, while their indexes are deferred.
      if (event.collection === 'helferstunden' && event.done > 0 && !controller.signal.aborted) {
        hoursIndexesAtCancel = hoursIndexes(replica.sqlite);
        controller.abort();
      }
    };

    const { error, atSettle } = await rejectionOf(
      runSync({
        api: client.api,
        replica,
        options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
        onProgress,
        signal: controller.signal,
      }),
      client,
    );
    expect(error.kind).toBe('cancelled');
    await expectQuietAfter(client, atSettle);

    // The cancelled load left its rows and got its indexes back at once.
    expect(hoursIndexesAtCancel).toEqual([]);
    expect(count(replica.sqlite, 'SELECT count(*) FROM helferstunden')).toBeGreaterThan(0);
    expect(hoursIndexes(replica.sqlite)).toEqual([
      'helferstunden_anlass',
      'helferstunden_local',
      'helferstunden_person_totals',
      'helferstunden_totals',
      'helferstunden_user_von',
      'helferstunden_von',
    ]);
    expect(
      count(replica.sqlite, "SELECT count(*) FROM replica_meta WHERE key = 'deferred_indexes'"),
    ).toBe(0);
    // The hours got no watermark: the next sync scans them in full again.
    expect(
      replica.sqlite
        .prepare("SELECT watermark FROM sync_state WHERE collection = 'helferstunden'")
        .pluck()
        .get() ?? null,
    ).toBeNull();

    const next = await runSync({
      api: client.api,
      replica,
      options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
    });
    expect(next.ok, JSON.stringify(next.collections)).toBe(true);
    await expectOfficeReplica(replica.sqlite, target);
  });
});

function hoursIndexes(sqlite: BetterSqlite3.Database): string[] {
  return sqlite
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'helferstunden' AND sql IS NOT NULL ORDER BY name",
    )
    .pluck()
    .all() as string[];
}

describe('trainer sync in lanes', () => {
  it('holds the own courses, participants and hours, with every request counted', async () => {
    const { sandbox, replica } = await setUp(34);
    const trainer = accountOf(sandbox, 'trainer');
    const client = instrumentedClient(sandbox, trainer.accessToken);
    const summary = await runSync({
      api: client.api,
      replica,
      options: { profile: 'trainer', ...EVERY_ITEM_EVERY_SYNC },
    });
    expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);

    const perCollection = hoursFolded(requestsOf(summary));
    expect(Object.values(perCollection).reduce((a, b) => a + b, 0)).toBe(summary.requests);
    expect(summary.requests).toBe(client.events.length);
    expect(perCollection).toEqual(countBy(client.events, (event) => collectionOf(event.url)));
    expect(summary.collections.clients).toBeUndefined();
    expect(summary.collections.client_participants).toBeUndefined();

    const target = { baseUrl: sandbox.baseUrl, token: trainer.accessToken };
    const courses = await expectTrainerReplica(replica.sqlite, target, trainer.id);
    expect(courses.length).toBeGreaterThan(0);
    expect(perCollection).toMatchObject({
      userinfo: 1,
      personal: 1, // the own record
      person_details: 2, // the own checks and honours
      courses: 1,
      participations: courses.length,
      customfields: courses.length,
      helferstunden: 1, // the own hours in one answer
    });
    expect(hoursIndexes(replica.sqlite)).toEqual([
      'helferstunden_anlass',
      'helferstunden_local',
      'helferstunden_person_totals',
      'helferstunden_totals',
      'helferstunden_user_von',
      'helferstunden_von',
    ]);
  });
});
