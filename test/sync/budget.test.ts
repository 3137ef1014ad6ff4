// The request budget of a sync against the sandbox: a first sync is usable within it, the outbox
// is pushed first even when the budget is small, a pace that would overrun the slot stops the
// pull early keeping what it applied, and an on-demand refresh brings an opened course at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES } from '../../sandbox/auth/index';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken, type ApiClient } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { callOrThrow, createDispatcher } from '../../sync/dispatch';
import { runSync } from '../../sync/pull/engine';
import { DEFAULT_SYNC_OPTIONS } from '../../sync/pull/options';
import { nearWindow } from '../../sync/pull/plan';
import { createRefresher } from '../../sync/pull/refresh';
import { syncOnce } from '../../sync/scheduler/sync-once';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('the request budget', () => {
  let sandbox: Sandbox;
  let dir: string;
  let api: ApiClient;
  let file = 0;
  const freshReplica = () => openReplica(join(dir, `replica-${(file += 1)}.sqlite`));
  const count = (replica: Replica, sql: string, ...params: unknown[]) =>
    replica.sqlite
      .prepare(sql)
      .pluck()
      .get(...params) as number;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'medium', seed: 8 });
    dir = mkdtempSync(join(tmpdir(), 'vorort-budget-'));
    const office = sandbox.users.find((u) => u.role === 'office')!;
    api = createApiClient({ baseUrl: sandbox.baseUrl, tokens: staticToken(office.accessToken) });
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives a usable replica in the first sync: people, own and recent hours, courses, the near window’s participants', async () => {
    const replica = freshReplica();
    try {
      const summary = await runSync({ api, replica, options: { profile: 'office' } });
      expect(summary.ok).toBe(true);
      expect(summary.requests).toBeLessThanOrEqual(150);
      expect(summary.budget).toMatchObject({ limit: 150, stoppedEarly: null });
      expect(count(replica, 'SELECT count(*) FROM users')).toBe(sandbox.store.count('user'));
      expect(count(replica, 'SELECT count(*) FROM courses')).toBeGreaterThan(50);
      const today = new Date().toISOString().slice(0, 10);
      const recentHours = count(
        replica,
        'SELECT count(*) FROM helferstunden WHERE von >= date(?, ?)',
        today,
        '-2 months',
      );
      expect(recentHours).toBeGreaterThan(0);
      // Every course of the near window has its participants, confirmed now.
      const window = nearWindow(DEFAULT_SYNC_OPTIONS);
      const near = replica.sqlite
        .prepare('SELECT id FROM courses WHERE last_date >= ? AND first_date < ?')
        .pluck()
        .all(window.from, window.until) as string[];
      expect(near.length).toBeGreaterThan(0);
      const dispatcher = createDispatcher(replica);
      for (const id of near) {
        const course = await callOrThrow(dispatcher, 'courses.get', { id });
        expect(course?.confirmedAt, id).not.toBeNull();
        const expected = sandbox.store.related('participation', 'course', id).length;
        expect(count(replica, 'SELECT count(*) FROM participations WHERE course_id = ?', id)).toBe(
          expected,
        );
      }
      // The rest comes on rotation, and says so.
      // Only when asked for: it reads every course and person, and no screen shows it.
      expect((await callOrThrow(dispatcher, 'sync.status', {})).freshness).toBeNull();
      const status = await callOrThrow(dispatcher, 'sync.status', { freshness: true });
      const courses = status.freshness!.find((f) => f.rotation === 'course')!;
      expect(courses.confirmed).toBeLessThan(courses.items);
      expect(courses.confirmed).toBeGreaterThanOrEqual(near.length);
    } finally {
      await replica.close();
    }
  });

  it('pushes the outbox first and in full even when the budget is small; the pull gets what is left', async () => {
    const replica = freshReplica();
    try {
      await runSync({ api, replica, options: { profile: 'office', full: true } });
      const dispatcher = createDispatcher(replica);
      for (let i = 0; i < 6; i += 1)
        await callOrThrow(dispatcher, 'kalender.create', { attributes: { name: `Budget ${i}` } });
      const summary = await syncOnce({
        api,
        replica,
        profile: 'office',
        options: { requestBudget: 4 },
      });
      expect(summary.outbox.done).toBe(6);
      expect(summary.outbox.requests).toBeGreaterThanOrEqual(6);
      // Nothing was left for the pull: it stopped at once, keeping the replica as it was.
      expect(summary.budget.limit).toBe(0);
      expect(summary.budget.stoppedEarly).toBe('budget');
      expect(summary.requests).toBe(0);
      expect(count(replica, "SELECT count(*) FROM outbox WHERE state <> 'done'")).toBe(0);
    } finally {
      await replica.close();
    }
  });

  it('stops before its pace would run past the slot, keeping what it applied', async () => {
    const replica = freshReplica();
    try {
      // A client paced at 10 requests a second and a 1.5-second slot: room for about 15 requests,
      // fewer than a first sync at this scale wants.
      const office = sandbox.users.find((u) => u.role === 'office')!;
      const paced = createApiClient({
        baseUrl: sandbox.baseUrl,
        tokens: staticToken(office.accessToken),
        pace: 600,
      });
      const summary = await runSync({
        api: paced,
        replica,
        options: { profile: 'office', intervalSeconds: 1.5 },
        paceRequestsPerMinute: paced.pace,
      });
      expect(summary.ok).toBe(true);
      expect(summary.budget.stoppedEarly).toBe('slot');
      expect(summary.requests).toBeLessThanOrEqual(17);
      expect(summary.seconds).toBeLessThan(4);
      expect(Object.values(summary.budget.deferred).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(count(replica, 'SELECT count(*) FROM users')).toBeGreaterThan(0);
    } finally {
      await replica.close();
    }
  });

  it('moves the course rotation on when the account may not read custom fields', async () => {
    // A small organisation: its window of courses is confirmed within the 24-hour bound.
    const small = await startSandbox({ port: 0, scale: 'small', seed: 6 });
    const replica = freshReplica();
    try {
      const office = small.users.find((u) => u.role === 'office')!;
      const scopes = ROLE_SCOPES.office.filter((scope) => !scope.startsWith('customfields:'));
      const token = small.auth.issueAccessToken(office.id, { scope: scopes.join(' ') });
      const limited = createApiClient({ baseUrl: small.baseUrl, tokens: staticToken(token) });
      const start = Date.now();
      for (let sync = 0; sync <= 24 * 12; sync += 1) {
        const now = new Date(start + sync * 5 * 60_000);
        const summary = await runSync({
          api: limited,
          replica,
          options: { profile: 'office', now: () => now, today: () => new Date(start) },
        });
        const fields = summary.collections.customfields;
        if (fields && fields.requests > 0) expect(fields.skipped).toBe('forbidden');
      }
      const unconfirmed = count(
        replica,
        `SELECT count(*) FROM courses c LEFT JOIN confirmations f ON f.scope = 'course' AND f.id = c.id
         WHERE f.confirmed_at IS NULL`,
      );
      expect(unconfirmed).toBe(0);
      // Confirmed because their participants came: the custom fields had nothing to wait for.
      const courses = replica.sqlite.prepare('SELECT id FROM courses').pluck().all() as string[];
      expect(count(replica, 'SELECT count(*) FROM participations')).toBe(
        courses.reduce((n, id) => n + small.store.related('participation', 'course', id).length, 0),
      );
    } finally {
      await replica.close();
      await small.close();
    }
  });

  it('refreshes an opened course at once, outside the budget, at most once a minute', async () => {
    const replica = freshReplica();
    try {
      await runSync({ api, replica, options: { profile: 'office' } });
      // A course far from today: not in the near window, not yet on the rotation.
      const far = replica.sqlite
        .prepare(
          `SELECT c.id FROM courses c WHERE c.first_date > date('now', '+60 days')
           AND NOT EXISTS (SELECT 1 FROM confirmations f WHERE f.scope = 'course' AND f.id = c.id)
           ORDER BY c.first_date LIMIT 1`,
        )
        .pluck()
        .get() as string;
      expect(far).toBeDefined();
      const participation = sandbox.store.related('participation', 'course', far)[0]!;
      sandbox.store.put({
        ...participation,
        attributes: { ...participation.attributes, last_name: 'Frisch' },
      });
      // A form of the course, set up on the service since: the course's view shows it at once.
      sandbox.store.put({
        type: 'formular',
        id: sandbox.store.nextId('formular'),
        attributes: {
          titel: 'Frischer Bogen',
          aktion: { typ: 'link', url: 'https://formulare.example/frisch', methode: 'GET' },
          objekt_typ: 'k',
          objekt_id: far,
        },
        relationships: {},
      });
      const refresher = createRefresher({ api, replica, options: { profile: 'office' } });
      const dispatcher = createDispatcher(replica, { refresher });
      const before = await callOrThrow(dispatcher, 'courses.get', { id: far });
      expect(before?.confirmedAt).toBeNull();

      const refreshed = await callOrThrow(dispatcher, 'sync.refresh', { kind: 'course', id: far });
      expect(refreshed).toMatchObject({ kind: 'course', id: far, refreshed: true, gone: false });
      expect(refreshed.requests).toBe(3); // participants, custom fields and forms
      const participants = await callOrThrow(dispatcher, 'participations.list', { courseId: far });
      expect(participants.map((p) => p.lastName)).toContain('Frisch');
      const forms = await callOrThrow(dispatcher, 'forms.list', { typ: 'k', id: far });
      expect(forms.map((form) => form.titel)).toContain('Frischer Bogen');
      // The screen's "as of": the older of the course's listing and its participants' refresh.
      const after = await callOrThrow(dispatcher, 'courses.get', { id: far });
      expect(after?.confirmedAt).not.toBeNull();
      expect(after!.confirmedAt! <= refreshed.confirmedAt!).toBe(true);

      // Again within the minute: nothing is sent.
      const again = await callOrThrow(dispatcher, 'sync.refresh', { kind: 'course', id: far });
      expect(again).toMatchObject({
        refreshed: false,
        requests: 0,
        confirmedAt: refreshed.confirmedAt,
      });

      // Another person than the signed-in one: the sync reads only the own forms, so theirs come
      // when their view opens.
      const person = replica.sqlite
        .prepare(
          "SELECT id FROM users WHERE id <> (SELECT value FROM replica_meta WHERE key = 'self_id') LIMIT 1",
        )
        .pluck()
        .get() as string;
      sandbox.store.put({
        type: 'formular',
        id: sandbox.store.nextId('formular'),
        attributes: {
          titel: 'Personalbogen',
          aktion: { typ: 'link', url: 'https://formulare.example/person', methode: 'GET' },
          objekt_typ: 'u',
          objekt_id: person,
        },
        relationships: {},
      });
      expect(await callOrThrow(dispatcher, 'forms.list', { typ: 'u', id: person })).toEqual([]);
      const personRefresh = await callOrThrow(dispatcher, 'sync.refresh', {
        kind: 'person',
        id: person,
      });
      expect(personRefresh.refreshed).toBe(true);
      const detail = await callOrThrow(dispatcher, 'personnel.get', { id: person });
      expect(detail?.ueberpruefungen.length).toBe(
        sandbox.store.related('ueberpruefung', 'user', person).length,
      );
      const personForms = await callOrThrow(dispatcher, 'forms.list', { typ: 'u', id: person });
      expect(personForms.map((form) => form.titel)).toEqual(['Personalbogen']);

      // Without a connection the command says so in words.
      const offline = await createDispatcher(replica).call('sync.refresh', {
        kind: 'course',
        id: far,
      });
      expect(offline).toMatchObject({ ok: false, error: { code: 'offline' } });
      const invalid = await dispatcher.call('sync.refresh', { kind: 'planet', id: far });
      expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    } finally {
      await replica.close();
    }
  });

  it('reads the notifications on a sync the user asked for, whatever their rotation says', async () => {
    const replica = freshReplica();
    const office = sandbox.users.find((u) => u.role === 'office')!;
    const id = `9101-${office.id}`;
    try {
      expect((await runSync({ api, replica, options: { profile: 'office' } })).ok).toBe(true);
      sandbox.store.put({
        type: 'benachrichtigung',
        id,
        attributes: { titel: 'Neu', gelesen: false, erstellt_am: sandbox.store.now() },
        relationships: {},
      });
      const has = () => count(replica, 'SELECT count(*) FROM benachrichtigungen WHERE id = ?', id);
      // A scheduled sync right after the first: the reference lists have earned no turn yet.
      const scheduled = await runSync({ api, replica, options: { profile: 'office' } });
      expect(scheduled.ok).toBe(true);
      expect(has()).toBe(0);
      const asked = await runSync({ api, replica, options: { profile: 'office', asked: true } });
      expect(asked.ok).toBe(true);
      expect(has()).toBe(1);
      expect(asked.requests).toBe(scheduled.requests + 1);
    } finally {
      sandbox.store.remove('benachrichtigung', id);
      await replica.close();
    }
  });
});
