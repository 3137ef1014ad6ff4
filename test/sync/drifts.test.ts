// Ways the replica could stay wrong while every sync reports success, each reproduced against the
// sandbox as a user would meet it, as regression tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica } from '../../sync/db/open';
import { callOrThrow, createDispatcher } from '../../sync/dispatch';
import { runSync } from '../../sync/pull/engine';
import { DEFAULT_SYNC_OPTIONS, EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('drifts', () => {
  let sandbox: Sandbox;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', seed: 4 });
    dir = mkdtempSync(join(tmpdir(), 'vorort-drifts-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a course date moved on the service moves the course’s own first and last day too', async () => {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
    });
    const replica = openReplica(join(dir, 'dates.sqlite'));
    try {
      const sync = () =>
        runSync({ api, replica, options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC } });
      await sync();
      // A course of the window with one date, moved by two days on the service: the date
      // changes, the course resource does not.
      const date = sandbox.store
        .all('course_date')
        .find(
          (d) =>
            typeof d.attributes.from === 'string' &&
            (d.attributes.from as string) > new Date().toISOString().slice(0, 10) &&
            sandbox.store.related('course_date', 'course', courseOf(d)).length === 1,
        )!;
      const courseId = courseOf(date);
      const moved = (value: unknown) => (typeof value === 'string' ? shiftDays(value, 2) : value);
      sandbox.store.put({
        ...date,
        attributes: {
          ...date.attributes,
          from: moved(date.attributes.from),
          to: moved(date.attributes.to),
        },
      });
      const newDay = (moved(date.attributes.from) as string).slice(0, 10);

      await sync();
      const dispatcher = createDispatcher(replica);
      const course = await callOrThrow(dispatcher, 'courses.get', { id: courseId });
      expect(course?.dates.map((d) => d.from)).toEqual([moved(date.attributes.from)]);
      expect(course?.firstDate).toBe(moved(date.attributes.from));
      expect(course?.lastDate).toBe(moved(date.attributes.to ?? date.attributes.from));
      const onTheNewDay = await callOrThrow(dispatcher, 'courses.list', {
        from: newDay,
        until: newDay,
      });
      expect(onTheNewDay.items.map((c) => c.id)).toContain(courseId);
    } finally {
      await replica.close();
    }
  });

  it.each(['office', 'trainer'] as const)(
    'a course that slid out of the window leaves the %s replica with its participants, whatever the service now answers for it',
    async (profile) => {
      // The account with the most courses (a trainer with none would have nothing to slide out).
      const coursesOf = (id: string) =>
        sandbox.store
          .all('course')
          .filter((c) =>
            ((c.relationships.trainers ?? []) as { id: string }[]).some((t) => t.id === id),
          ).length;
      const user = sandbox.users
        .filter((u) => u.role === profile)
        .sort((a, b) => coursesOf(b.id) - coursesOf(a.id))[0]!;
      const api = createApiClient({
        baseUrl: sandbox.baseUrl,
        tokens: staticToken(user.accessToken),
      });
      const replica = openReplica(join(dir, `slid-${profile}.sqlite`));
      try {
        const start = Date.now();
        const syncAt = (days: number) => {
          const at = new Date(start + days * 24 * 3_600_000);
          return runSync({
            api,
            replica,
            options: { profile, ...EVERY_ITEM_EVERY_SYNC, now: () => at, today: () => at },
          });
        };
        await syncAt(0);
        // The course of the replica that leaves the window first (the window starts 3 months back).
        const leaving = replica.sqlite
          .prepare(
            `SELECT id, last_date FROM courses WHERE id IN (SELECT course_id FROM participations)
             ORDER BY last_date LIMIT 1`,
          )
          .get() as { id: string; last_date: string };
        expect(leaving).toBeDefined();
        // The trainer is no longer on it: the service answers 403 for its participants from now on.
        if (profile === 'trainer') {
          const course = sandbox.store.get('course', leaving.id)!;
          const trainers = (course.relationships.trainers ?? []) as { type: 'user'; id: string }[];
          sandbox.store.put({
            ...course,
            relationships: {
              ...course.relationships,
              trainers: trainers.filter((t) => t.id !== user.id),
            },
          });
        }
        const daysUntilOut =
          Math.ceil((Date.parse(leaving.last_date) - (start - 92 * 24 * 3_600_000)) / 86_400_000) +
          2;
        const later = await syncAt(daysUntilOut);
        expect(later.ok, JSON.stringify(later.collections)).toBe(true);
        expect(later.collections.participations?.skipped).toBeUndefined();
        const count = (sql: string) =>
          replica.sqlite.prepare(sql).pluck().get(leaving.id) as number;
        expect(count('SELECT count(*) FROM courses WHERE id = ?')).toBe(0);
        expect(count('SELECT count(*) FROM participations WHERE course_id = ?')).toBe(0);
      } finally {
        await replica.close();
      }
    },
  );
  /**
   * An office replica synced on a simulated clock (hours after now), and a check whether it
   * still holds an hour entry.
   */
  function officeOnClock(name: string) {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
    });
    const replica = openReplica(join(dir, `${name}.sqlite`));
    const start = Date.now();
    return {
      replica,
      syncAt(hours: number) {
        const at = new Date(start + hours * 3_600_000);
        return runSync({
          api,
          replica,
          options: { profile: 'office', now: () => at, today: () => at },
        });
      },
      holds(entry: string): boolean {
        return (
          replica.sqlite
            .prepare('SELECT count(*) FROM helferstunden WHERE id = ?')
            .pluck()
            .get(entry) !== 0
        );
      },
    };
  }

  it('an hour entry deleted while the client was away is found at the first sync back, not a cycle later', async () => {
    const { replica, syncAt, holds } = officeOnClock('absence');
    try {
      // A cycle over the hours' history windows begins and takes a few windows, newest first.
      await syncAt(0);
      await syncAt(1);
      const progress = JSON.parse(
        replica.sqlite
          .prepare("SELECT progress FROM sync_state WHERE collection = 'helferstunden'")
          .pluck()
          .get() as string,
      ) as { done: string[] };
      expect(progress.done.length).toBeGreaterThan(0);
      // An entry of a window the cycle has already read is deleted on the service; the client is
      // away for three days, then syncs twice, five minutes apart.
      const newestWindow = [...progress.done].sort().at(-1)!;
      const entry = replica.sqlite
        .prepare('SELECT id FROM helferstunden WHERE von >= ? ORDER BY von LIMIT 1')
        .pluck()
        .get(newestWindow) as string;
      expect(sandbox.store.remove('helferstunden', entry)).toBe(true);
      await syncAt(1 + 3 * 24);
      await syncAt(1 + 3 * 24 + 5 / 60);
      expect(holds(entry)).toBe(false);
    } finally {
      await replica.close();
    }
  });

  it('a deletion is found by a history cycle that spans syncs at uneven hours, not restarted on the way', async () => {
    const { replica, syncAt, holds } = officeOnClock('uneven');
    try {
      // The first cycle (into an empty table) ends; then the oldest entry, whose window a cycle
      // reads last, is deleted on the service.
      for (const hours of [0, 8, 16]) await syncAt(hours);
      const entry = replica.sqlite
        .prepare('SELECT id FROM helferstunden ORDER BY von LIMIT 1')
        .pluck()
        .get() as string;
      expect(sandbox.store.remove('helferstunden', entry)).toBe(true);
      // The next cycle begins 2 hours on and needs syncs over 12 hours to read every window:
      // it must go on across them, not start over at the last one.
      for (const hours of [18, 26, 30]) await syncAt(hours);
      expect(holds(entry)).toBe(false);
    } finally {
      await replica.close();
    }
  });

  it('a course deleted on the service while a sync reads it costs nothing: its forms leave, the sync succeeds', async () => {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    let deleted: string | undefined;
    // The course list is answered, then another user deletes a course before its forms are read.
    const deleteAfterCourseList: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (deleted === undefined && url.pathname.endsWith('/courses')) {
        const today = new Date().toISOString().slice(0, 10);
        const course = sandbox.store
          .all('course')
          .find((c) =>
            sandbox.store
              .related('course_date', 'course', c.id)
              .some((d) => String(d.attributes.from) > today),
          )!;
        deleted = course.id;
        sandbox.store.remove('course', course.id);
      }
      return response;
    };
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
      fetch: deleteAfterCourseList,
    });
    const replica = openReplica(join(dir, 'gone-owner.sqlite'));
    try {
      const summary = await runSync({
        api,
        replica,
        options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
      });
      expect(deleted).toBeDefined();
      expect(
        summary.collections.formulare?.failedItems,
        JSON.stringify(summary.collections.formulare),
      ).toBeUndefined();
      expect(summary.ok).toBe(true);
      expect(
        replica.sqlite
          .prepare("SELECT count(*) FROM formulare WHERE objekt_typ = 'k' AND objekt_id = ?")
          .pluck()
          .get(deleted),
      ).toBe(0);
    } finally {
      await replica.close();
    }
  });

  it('a participation cancelled or edited and a custom field deleted right after a sync show after --full', async () => {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    const target = { baseUrl: sandbox.baseUrl, token: office.accessToken };
    // A course of the near window made for this test, with two participants and a custom field.
    const tomorrow = new Date(Date.now() + 24 * 3_600_000).toISOString().slice(0, 10);
    const course = await write(target, 'POST', '/courses', {
      data: {
        type: 'course',
        attributes: { title: 'Gleich danach', max_participants: 12 },
        relationships: {
          course_type: { data: { type: 'course_type', id: '1' } },
          dates: { data: [{ type: 'course_date', id: 'new-1' }] },
        },
      },
      included: [
        {
          type: 'course_date',
          id: 'new-1',
          attributes: { from: `${tomorrow}T09:00:00+00:00`, to: `${tomorrow}T16:00:00+00:00` },
        },
      ],
    });
    const participant = (last: string) =>
      write(target, 'POST', `/courses/${course.id}/participations`, {
        data: { type: 'participation', attributes: { first_name: 'Erika', last_name: last } },
        included: [],
      });
    const cancelled = await participant('Absage');
    const edited = await participant('Alt');
    const field = await write(target, 'POST', `/courses/${course.id}/customfields`, {
      data: { type: 'customfield', attributes: { name: 'Parkplatz', field_type: 'text' } },
    });
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
    });
    const replica = openReplica(join(dir, 'full-right-after.sqlite'));
    try {
      // The default bounds: a course confirmed less than a minute ago is one an ordinary sync skips.
      const fullSync = () => runSync({ api, replica, options: { profile: 'office', full: true } });
      expect((await fullSync()).ok).toBe(true);
      const row = (sql: string, id: string) => replica.sqlite.prepare(sql).get(id);
      expect(row('SELECT status FROM participations WHERE id = ?', cancelled.id)).toEqual({
        status: 'registered',
      });
      expect(row('SELECT id FROM customfields WHERE id = ?', field.id)).toBeDefined();

      await write(target, 'POST', `/courses/${course.id}/participations/${cancelled.id}/cancel`, {
        data: { type: 'cancellation', attributes: { reason: 'krank' } },
      });
      await write(target, 'PATCH', `/courses/${course.id}/participations/${edited.id}`, {
        data: { type: 'participation', id: edited.id, attributes: { last_name: 'Neu' } },
      });
      await write(target, 'DELETE', `/courses/${course.id}/customfields/${field.id}`);
      expect((await fullSync()).ok).toBe(true);

      expect(row('SELECT status FROM participations WHERE id = ?', cancelled.id)).toEqual({
        status: 'cancelled',
      });
      expect(row('SELECT last_name FROM participations WHERE id = ?', edited.id)).toEqual({
        last_name: 'Neu',
      });
      expect(row('SELECT id FROM customfields WHERE id = ?', field.id)).toBeUndefined();
    } finally {
      await replica.close();
    }
  });

  it.each(['office', 'trainer'] as const)(
    'an hour type deactivated on the service that no entry uses stops being offered to the %s, and comes back when activated again',
    async (profile) => {
      const user = sandbox.users.find((u) => u.role === profile)!;
      // A type no entry uses: only the own settings' list of active types tells of it.
      const typeId = `9${profile.length}`;
      const putType = (aktiv: boolean) =>
        sandbox.store.put({
          type: 'helferstunden_typ',
          id: typeId,
          attributes: { bezeichnung: `Wasserwacht ${profile}`, aktiv },
          relationships: {},
        });
      putType(true);
      const api = createApiClient({
        baseUrl: sandbox.baseUrl,
        tokens: staticToken(user.accessToken),
      });
      const replica = openReplica(join(dir, `hour-type-${profile}.sqlite`));
      try {
        const dispatcher = createDispatcher(replica);
        const offered = async () =>
          (await callOrThrow(dispatcher, 'hours.types', { activeOnly: true })).map((t) => t.id);
        const sync = async (options: { full?: boolean } = {}) =>
          expect(
            (
              await runSync({
                api,
                replica,
                options: { profile, ...EVERY_ITEM_EVERY_SYNC, ...options },
              })
            ).ok,
          ).toBe(true);
        await sync();
        expect(await offered()).toContain(typeId);

        putType(false);
        await sync();
        expect(await offered()).not.toContain(typeId);
        await sync({ full: true });
        expect(await offered()).not.toContain(typeId);

        putType(true);
        await sync();
        expect(await offered()).toContain(typeId);
      } finally {
        await replica.close();
        sandbox.store.remove('helferstunden_typ', typeId);
      }
    },
  );

  it.each([
    { what: 'lists no active type', file: 'empty', typen: { data: [] } },
    { what: 'leaves its list of types out', file: 'absent', typen: undefined },
  ])(
    'a settings answer that $what deactivates no type (a broken answer must not take them all)',
    async ({ file, typen }) => {
      const office = sandbox.users.find((u) => u.role === 'office')!;
      let broken = false;
      // The own settings as a broken service would send them, once `broken` is set.
      const settingsAnswer: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (!broken || !url.pathname.endsWith('/helferstunden/einstellungen/selbst'))
          return response;
        const document = (await response.json()) as {
          data: { relationships: Record<string, unknown> };
        };
        const { typen: _listed, ...others } = document.data.relationships;
        document.data.relationships = typen ? { ...others, typen } : others;
        return new Response(JSON.stringify(document), {
          status: response.status,
          headers: response.headers,
        });
      };
      const api = createApiClient({
        baseUrl: sandbox.baseUrl,
        tokens: staticToken(office.accessToken),
        fetch: settingsAnswer,
      });
      const replica = openReplica(join(dir, `hour-types-${file}.sqlite`));
      try {
        // Syncs that read the settings every time, and after the first no hour entry (none
        // changed, no history window due yet), whose included types would tell the truth.
        const freshnessHours = { ...DEFAULT_SYNC_OPTIONS.freshnessHours, reference: 0 };
        const sync = async () =>
          expect(
            (await runSync({ api, replica, options: { profile: 'office', freshnessHours } })).ok,
          ).toBe(true);
        const active = () =>
          replica.sqlite
            .prepare('SELECT id FROM helferstunden_typen WHERE aktiv = 1 ORDER BY id')
            .pluck()
            .all();
        await sync();
        const before = active();
        expect(before.length).toBeGreaterThan(1);
        broken = true;
        await sync();
        expect(active()).toEqual(before);
      } finally {
        await replica.close();
      }
    },
  );
});

/** A write through the service's interface, as another user makes it; answers the record written. */
async function write(
  target: { baseUrl: string; token: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ id: string }> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${target.token}`,
      'content-type': 'application/vnd.api+json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  if (response.status === 204) return { id: '' };
  return ((await response.json()) as { data: { id: string } }).data;
}

function courseOf(date: { relationships: Record<string, unknown> }): string {
  return (date.relationships.course as { id: string }).id;
}

/** An ISO date-time with an offset (`2026-03-01T08:00:00+01:00`) moved by whole days, offset kept. */
function shiftDays(value: string, days: number): string {
  const day = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return `${day.toISOString().slice(0, 10)}${value.slice(10)}`;
}
