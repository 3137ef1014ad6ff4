// A simulated week of scheduled syncs (one every 5 minutes on a simulated clock) against the
// sandbox at scale medium, while another user changes the service: every change arrives within
// its freshness bound, deletions are found within 24 h, every rotation's items stay within their
// bounds, and no sync spends more than its budget.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredResource } from '../../sandbox/data/store';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { courseWindow } from '../../sync/pull/collections/courses';
import { historyWindows } from '../../sync/pull/collections/hours';
import { runSync } from '../../sync/pull/engine';
import { DEFAULT_SYNC_OPTIONS } from '../../sync/pull/options';
import { nearWindow } from '../../sync/pull/plan';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const INTERVAL = 5 * MINUTE;
const WEEK_SYNCS = Number(process.env.FRESHNESS_WEEK_SYNCS ?? 7 * 24 * 12);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** A change another user made on the service, and how the replica must show it, by when. */
interface Change {
  what: string;
  madeAt: number;
  boundMs: number;
  arrived: (replica: Replica) => boolean;
}

describe('a simulated week of scheduled syncs at scale medium', () => {
  let sandbox: Sandbox;
  let replica: Replica;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'medium', seed: 21 });
    dir = mkdtempSync(join(tmpdir(), 'vorort-week-'));
    replica = openReplica(join(dir, 'week.sqlite'));
  });
  afterAll(async () => {
    await replica.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'keeps every change within its bound, finds deletions within 24 h, and never overspends',
    async () => {
      const office = sandbox.users.find((u) => u.role === 'office')!;
      const api = createApiClient({
        baseUrl: sandbox.baseUrl,
        tokens: staticToken(office.accessToken),
      });
      const start = Date.now();
      const pending: Change[] = [];
      const arrivals: Record<string, number[]> = {};
      let maxRequests = 0;
      let counter = 0;
      const random = seeded(5);

      for (let sync = 0; sync < WEEK_SYNCS; sync += 1) {
        const now = start + sync * INTERVAL;
        if (sync > 0) pending.push(...changesAt(sync, now));
        const summary = await runSync({
          api,
          replica,
          options: { profile: 'office', now: () => new Date(now), today: () => new Date(now) },
        });
        expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
        expect(summary.requests).toBeLessThanOrEqual(DEFAULT_SYNC_OPTIONS.requestBudget);
        if (sync > 0) maxRequests = Math.max(maxRequests, summary.requests);

        for (const change of [...pending]) {
          if (change.arrived(replica)) {
            (arrivals[change.what] ??= []).push(now - change.madeAt);
            pending.splice(pending.indexOf(change), 1);
          } else if (now - change.madeAt > change.boundMs) {
            throw new Error(
              `${change.what}, made ${(now - change.madeAt) / HOUR} h ago, has not arrived (bound ${change.boundMs / HOUR} h)`,
            );
          }
        }
        if (sync % 12 === 0) expectRotationsWithinBounds(replica, now, now - start);
      }

      const hoursOf = (ms: number[]) => Math.max(...ms) / HOUR;
      console.log(
        `week: ${WEEK_SYNCS} syncs, at most ${maxRequests} requests after the first; slowest arrival per change: ${Object.entries(
          arrivals,
        )
          .map(([what, ms]) => `${what} ${hoursOf(ms).toFixed(2)} h (${ms.length})`)
          .join(', ')}`,
      );
      // Changes still on their way are within their bounds (checked above); most have arrived.
      expect(Object.keys(arrivals).length).toBeGreaterThanOrEqual(5);

      /** The other user's changes scheduled for this sync. */
      function changesAt(sync: number, now: number): Change[] {
        const changes: Change[] = [];
        const every = (hours: number) => sync % ((hours * HOUR) / INTERVAL) === 0;
        const marker = () => `Geändert ${(counter += 1)}`;
        if (every(3)) changes.push(renamePerson(now, marker()));
        if (every(4)) {
          const near = nearCourse(now);
          if (near)
            changes.push(
              renameParticipant(near, now, marker(), 'near-window participant', 10 * MINUTE),
            );
          const far = farCourse(now);
          if (far) changes.push(renameParticipant(far, now, marker(), 'participant', 24 * HOUR));
        }
        if (every(8)) changes.push(renameCheck(now, marker()));
        if (every(6)) changes.push(deleteHours(now));
        if (every(24)) changes.push(deletePerson(now));
        return changes;
      }

      function pick<T>(items: readonly T[]): T {
        return items[Math.floor(random() * items.length)]!;
      }

      function replicaHas(table: string, id: string, column?: string, value?: string): boolean {
        const row = replica.sqlite
          .prepare(`SELECT ${column ?? 'id'} AS v FROM ${table} WHERE id = ?`)
          .get(id) as { v: unknown } | undefined;
        return column === undefined ? row !== undefined : row?.v === value;
      }

      function renamed(record: StoredResource, attribute: string, value: string) {
        sandbox.store.put({ ...record, attributes: { ...record.attributes, [attribute]: value } });
      }

      function renamePerson(now: number, value: string): Change {
        const person = pick(sandbox.store.all('user').filter((u) => u.id !== office.id));
        renamed(person, 'nachname', value);
        return {
          what: 'person',
          madeAt: now,
          boundMs: INTERVAL,
          arrived: () => replicaHas('users', person.id, 'nachname', value),
        };
      }

      /**
       * Courses of the replica's course window, in the near window (less its first day, which
       * leaves it before the bound runs out) or not; not those about to slide out of the window
       * (ended more than 80 days ago), which are no longer followed.
       */
      function coursesOfReplica(now: number, near: boolean): string[] {
        const day = (offset: number) =>
          new Date(now + offset * 24 * HOUR).toISOString().slice(0, 10);
        const window = courseWindow({ ...DEFAULT_SYNC_OPTIONS, today: () => new Date(now) });
        return replica.sqlite
          .prepare(
            `SELECT id FROM courses WHERE ${near ? '' : 'NOT'} (last_date >= ? AND first_date < ?)
             AND last_date >= ? AND first_date <= ? AND id IN (SELECT course_id FROM participations)`,
          )
          .pluck()
          .all(
            day(1 - DEFAULT_SYNC_OPTIONS.nearWindowDaysBack),
            day(DEFAULT_SYNC_OPTIONS.nearWindowDaysAhead),
            day(-80),
            `${window.until}T99`,
          ) as string[];
      }
      function nearCourse(now: number) {
        const ids = coursesOfReplica(now, true);
        return ids.length ? pick(ids) : undefined;
      }
      function farCourse(now: number) {
        const ids = coursesOfReplica(now, false);
        return ids.length ? pick(ids) : undefined;
      }

      function renameParticipant(
        courseId: string,
        now: number,
        value: string,
        what: string,
        boundMs: number,
      ): Change {
        const participation = pick(sandbox.store.related('participation', 'course', courseId));
        renamed(participation, 'last_name', value);
        return {
          what,
          madeAt: now,
          boundMs,
          arrived: () => replicaHas('participations', participation.id, 'last_name', value),
        };
      }

      function renameCheck(now: number, value: string): Change {
        const check = pick(sandbox.store.all('ueberpruefung'));
        renamed(check, 'bezeichnung', value);
        return {
          what: 'check',
          madeAt: now,
          boundMs: 7 * 24 * HOUR,
          arrived: () => replicaHas('ueberpruefungen', check.id, 'bezeichnung', value),
        };
      }

      function deleteHours(now: number): Change {
        const ids = replica.sqlite
          .prepare("SELECT id FROM helferstunden WHERE id NOT LIKE 'local-%'")
          .pluck()
          .all() as string[];
        const id = pick(ids);
        sandbox.store.remove('helferstunden', id);
        return {
          what: 'deleted hours entry',
          madeAt: now,
          boundMs: 24 * HOUR,
          arrived: () => !replicaHas('helferstunden', id),
        };
      }

      function deletePerson(now: number): Change {
        const people = sandbox.store
          .all('user')
          .filter((u) => !sandbox.users.some((account) => account.id === u.id));
        const person = pick(people);
        sandbox.store.remove('user', person.id);
        return {
          what: 'deleted person',
          madeAt: now,
          boundMs: 24 * HOUR,
          arrived: () => !replicaHas('users', person.id),
        };
      }
    },
    30 * MINUTE,
  );
});

/**
 * Once a rotation has had its bound's time, every item of it was confirmed within the bound;
 * the near window's courses within the last sync.
 */
function expectRotationsWithinBounds(replica: Replica, now: number, elapsed: number): void {
  const bounds = DEFAULT_SYNC_OPTIONS.freshnessHours;
  const stale = (scope: string, items: string, boundMs: number) =>
    replica.sqlite
      .prepare(
        `SELECT count(*) FROM (${items}) AS item
         LEFT JOIN confirmations f ON f.scope = ? AND f.id = item.id
         WHERE f.confirmed_at IS NULL OR f.confirmed_at < ?`,
      )
      .pluck()
      .get(scope, new Date(now - boundMs).toISOString()) as number;
  // The near window as the sync takes it (the days of the machine's zone, as its course window).
  const near = nearWindow({ ...DEFAULT_SYNC_OPTIONS, today: () => new Date(now) });
  expect(
    stale(
      'course',
      `SELECT id FROM courses WHERE last_date >= '${near.from}' AND first_date < '${near.until}'`,
      INTERVAL,
    ),
    'near-window courses confirmed in this sync',
  ).toBe(0);
  // The courses in the course window for a whole bound (one that slid out is no longer followed,
  // one that came in less than a bound ago may still wait for its turn).
  const window = courseWindow({ ...DEFAULT_SYNC_OPTIONS, today: () => new Date(now) });
  // (A day more: whether the service's window includes its last day is the service's to say.)
  const since = courseWindow({
    ...DEFAULT_SYNC_OPTIONS,
    today: () => new Date(now - (bounds.courses + 24) * HOUR),
  });
  const inWindow = `SELECT id FROM courses WHERE last_date >= '${window.from}' AND first_date <= '${since.until}T99'`;
  if (elapsed >= bounds.courses * HOUR) {
    const late = replica.sqlite
      .prepare(
        `SELECT c.id, c.first_date, c.last_date, f.confirmed_at, f.tried_at FROM (${inWindow}) AS item
         JOIN courses c ON c.id = item.id LEFT JOIN confirmations f ON f.scope = 'course' AND f.id = c.id
         WHERE f.confirmed_at IS NULL OR f.confirmed_at < ?`,
      )
      .all(new Date(now - bounds.courses * HOUR).toISOString());
    expect(late, `courses late at ${new Date(now).toISOString()}`).toEqual([]);
  }
  if (elapsed >= bounds.people * HOUR)
    expect(stale('person', 'SELECT id FROM users', bounds.people * HOUR), 'people').toBe(0);
  if (elapsed >= bounds.deletions * HOUR) {
    const windows = replica.sqlite
      .prepare(
        "SELECT count(*) FROM confirmations WHERE scope = 'hours_window' AND confirmed_at >= ?",
      )
      .pluck()
      .get(new Date(now - bounds.deletions * HOUR).toISOString()) as number;
    const total = historyWindows({
      options: { ...DEFAULT_SYNC_OPTIONS, profile: 'office', today: () => new Date(now) },
    }).length;
    expect(windows, 'history windows of the hours').toBe(total);
  }
}

/** A small deterministic random source (mulberry32), so a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
