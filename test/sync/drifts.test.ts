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
import { EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('drifts', () => {
  let sandbox: Sandbox;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', seed: 14 });
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
});

function courseOf(date: { relationships: Record<string, unknown> }): string {
  return (date.relationships.course as { id: string }).id;
}

/** An ISO date-time with an offset (`2026-03-01T08:00:00+01:00`) moved by whole days, offset kept. */
function shiftDays(value: string, days: number): string {
  const day = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return `${day.toISOString().slice(0, 10)}${value.slice(10)}`;
}
