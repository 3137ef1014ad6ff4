// What the service holds, read with plain fetch (deliberately not the sync client, so the two
// cannot share a bug), and a comparison of a replica against it, record for record.
import type BetterSqlite3 from 'better-sqlite3';
import { expect } from 'vitest';
import { courseWindow } from '../../sync/pull/collections/courses';
import { DEFAULT_SYNC_OPTIONS } from '../../sync/pull/options';

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
}

export interface OracleTarget {
  baseUrl: string;
  token: string;
}

async function getJson(
  target: OracleTarget,
  path: string,
): Promise<{ data: Resource[] | Resource; included?: Resource[]; links?: { next?: string } }> {
  let url: string | undefined = `${target.baseUrl}${path}`;
  const data: Resource[] = [];
  const included: Resource[] = [];
  let single: Resource | undefined;
  while (url) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${target.token}` } });
    if (!response.ok)
      throw new Error(`oracle GET ${url}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as {
      data: Resource[] | Resource;
      included?: Resource[];
      links?: { next?: string };
    };
    if (Array.isArray(body.data)) data.push(...body.data);
    else single = body.data;
    included.push(...(body.included ?? []));
    url = body.links?.next;
  }
  return { data: single ?? data, included };
}

export async function list(target: OracleTarget, path: string): Promise<Resource[]> {
  const { data } = await getJson(target, path);
  return Array.isArray(data) ? data : [data];
}

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

/**
 * What a value means, as the tolerant reader keeps it (DESIGN rule 14): null, "", zero dates,
 * empty lists and empty objects are no value and left out, at any depth.
 */
export function meaning(value: unknown): unknown {
  if (
    value === null ||
    value === '' ||
    (typeof value === 'string' && value.startsWith('0000-00-00'))
  )
    return undefined;
  if (Array.isArray(value)) {
    const items = value.map(meaning).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([key, member]) => [key, meaning(member)] as const)
      .filter(([, member]) => member !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return value;
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
