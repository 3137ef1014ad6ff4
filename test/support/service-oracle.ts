// What the service holds (read by ./service-read, deliberately not the sync client, so the two
// cannot share a bug), and a comparison of a replica against it, record for record.
import type BetterSqlite3 from 'better-sqlite3';
import { expect } from 'vitest';
import { courseWindow } from '../../sync/pull/collections/courses';
import { DEFAULT_SYNC_OPTIONS } from '../../sync/pull/options';
import { list, meaning, type OracleTarget, type Resource } from './service-read';

export { list, meaning, type OracleTarget } from './service-read';

export interface ExpectedReplica {
  /** Replica table → resources the service holds for it. */
  tables: Record<string, Resource[]>;
}

/** Everything an office sync must hold (with small data, where one sync covers every person). */
export async function officeExpectation(
  target: OracleTarget,
  window: { from: string; until: string },
  hoursFrom: string,
): Promise<ExpectedReplica> {
  const users = await list(target, '/personal');
  const ausbildungen = users.flatMap((u) =>
    ((u.attributes.ausbildungen as Record<string, unknown>[] | undefined) ?? []).map(
      ({ id, ...attributes }) => ({
        type: 'ausbildung',
        id: String(id),
        attributes,
      }),
    ),
  );
  const ueberpruefungen: Resource[] = [];
  const ehrungen: Resource[] = [];
  for (const user of users) {
    ueberpruefungen.push(...(await list(target, `/personal/${user.id}/ueberpruefungen`)));
    ehrungen.push(...(await list(target, `/personal/${user.id}/ehrungen`)));
  }
  const courses = await list(
    target,
    `/courses?filter[from]=${window.from}&filter[until]=${window.until}`,
  );
  const participations: Resource[] = [];
  const customfields: Resource[] = [];
  for (const course of courses) {
    participations.push(...(await list(target, `/courses/${course.id}/participations`)));
    customfields.push(...(await list(target, `/courses/${course.id}/customfields`)));
  }
  return {
    tables: {
      users,
      ausbildungen,
      ueberpruefungen,
      ehrungen,
      kalender: await list(target, '/kalender'),
      benachrichtigungen: await list(target, '/benachrichtigungen'),
      steuersaetze: await list(target, '/steuersaetze'),
      course_types: await list(target, '/courses/types'),
      clients: await list(target, '/clients'),
      courses,
      participations,
      customfields,
      helferstunden: await list(
        target,
        `/helferstunden?filter[eigene]=false&filter[von]=${hoursFrom}`,
      ),
    },
  };
}

/** Asserts that every table holds exactly the expected records, with the service's attributes (their meaning) as their base. */
export function expectReplicaToMatch(
  sqlite: BetterSqlite3.Database,
  expected: ExpectedReplica,
): void {
  for (const [table, resources] of Object.entries(expected.tables)) {
    const rows = sqlite.prepare(`SELECT id, base FROM ${table}`).all() as {
      id: string;
      base: string;
    }[];
    const replicaIds = rows.map((r) => r.id).sort();
    const serviceIds = [...new Set(resources.map((r) => r.id))].sort();
    expect(replicaIds, `ids of ${table}`).toEqual(serviceIds);
    const byId = new Map(
      rows.map((r) => [r.id, JSON.parse(r.base) as { attributes: Record<string, unknown> }]),
    );
    for (const resource of resources) {
      expect(meaning(byId.get(resource.id)?.attributes), `${table} ${resource.id}`).toEqual(
        meaning(resource.attributes),
      );
    }
  }
}

/** An office replica synced with the default options holds exactly what the service holds. */
export async function expectOfficeReplica(
  sqlite: BetterSqlite3.Database,
  target: OracleTarget,
): Promise<void> {
  expectReplicaToMatch(
    sqlite,
    await officeExpectation(
      target,
      courseWindow(DEFAULT_SYNC_OPTIONS),
      DEFAULT_SYNC_OPTIONS.hoursHistoryStart,
    ),
  );
}

/**
 * A trainer replica synced with the default options holds exactly what the service shows the
 * trainer: the own courses in the window with their participations, the own hours, the own
 * record. Answers the courses, for checks of their own.
 */
export async function expectTrainerReplica(
  sqlite: BetterSqlite3.Database,
  target: OracleTarget,
  trainerId: string,
): Promise<Resource[]> {
  const window = courseWindow(DEFAULT_SYNC_OPTIONS);
  const courses = await list(
    target,
    `/courses?filter[from]=${window.from}&filter[until]=${window.until}&filter[trainer_user_id]=${trainerId}`,
  );
  const participations = (
    await Promise.all(courses.map((c) => list(target, `/courses/${c.id}/participations`)))
  ).flat();
  expectReplicaToMatch(sqlite, {
    tables: {
      courses,
      participations,
      helferstunden: await list(
        target,
        `/helferstunden?filter[von]=${DEFAULT_SYNC_OPTIONS.hoursHistoryStart}`,
      ),
      users: await list(target, '/personal/selbst'),
    },
  });
  return courses;
}
