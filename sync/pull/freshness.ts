// Freshness (DESIGN rule 15): when the service last confirmed each parent's collections, and the
// rotations that keep every confirmation within its bound. Each rotation earns a share of its
// items per elapsed time (items × elapsed ÷ bound, with a margin) and spends it on the least
// recently confirmed items, so the work is spread evenly over the syncs instead of bursting.
import type { Sqlite } from '../db/sqlite';
import { prepared } from '../db/statements';
import { upsertRow, upsertRows } from '../db/upsert';
import type { FreshnessBounds, SyncProfile } from './options';

/**
 * The per-parent rotations: course (participants and custom fields of a course), forms (the forms
 * of a course or of the own person), person (checks and honours), trainings (trainings of a person
 * whose record does not embed them), client (a client's participants), hours_window (a date window
 * of the volunteer hours: the rotation that finds deletions), reference (a small collection).
 */
export type RotationScope =
  'course' | 'forms' | 'person' | 'trainings' | 'client' | 'hours_window' | 'reference';

/** Requests one item of each rotation costs. */
export const ITEM_COST: Record<RotationScope, number> = {
  course: 2,
  forms: 1,
  person: 2,
  trainings: 1,
  client: 1,
  hours_window: 1,
  reference: 1,
};

/** Which bound each rotation is held to. */
export const BOUND_OF: Record<RotationScope, keyof FreshnessBounds> = {
  course: 'courses',
  forms: 'courses',
  person: 'people',
  trainings: 'people',
  client: 'courses',
  hours_window: 'deletions',
  reference: 'reference',
};

/**
 * The hours a rotation plans for. The history windows find a deletion only when a whole cycle
 * over them completes after it, which can take up to two cycles: they cycle in half the bound.
 */
export function plannedBoundHours(scope: RotationScope, bounds: FreshnessBounds): number {
  const bound = bounds[BOUND_OF[scope]];
  return scope === 'hours_window' ? bound / 2 : bound;
}

/**
 * A rotation plans for a bound this much shorter than its own, so the syncs' jitter (a sync
 * that runs late, a budget spent by the outbox) does not push an item past its bound.
 */
const MARGIN = 0.95;

/** Records that the service confirmed these items of `scope` now. */
export function confirm(
  sqlite: Sqlite,
  scope: RotationScope,
  ids: readonly string[],
  at: string,
): void {
  stamp(sqlite, 'confirmed_at', scope, ids, at);
}

export function confirmedAt(sqlite: Sqlite, scope: RotationScope, id: string): string | null {
  return (
    (prepared(sqlite, 'SELECT confirmed_at FROM confirmations WHERE scope = ? AND id = ?')
      .pluck()
      .get(scope, id) as string | undefined) ?? null
  );
}

/** Notes that a sync asks for these items now: one that keeps failing goes to the back of its rotation. */
export function markTried(
  sqlite: Sqlite,
  scope: RotationScope,
  ids: readonly string[],
  at: string,
): void {
  stamp(sqlite, 'tried_at', scope, ids, at);
}

function stamp(
  sqlite: Sqlite,
  column: 'confirmed_at' | 'tried_at',
  scope: RotationScope,
  ids: readonly string[],
  at: string,
): void {
  if (ids.length === 0) return;
  // The other time of an item already there stays.
  const rows = ids.map((id) => ({ scope, id, [column]: at }));
  sqlite.transaction(() => upsertRows(sqlite, 'confirmations', ['scope', 'id'], rows, 'local'))();
}

/** SQL: when the item `f` was last asked for or confirmed, '' for never (least recent first). */
export const LAST_TOUCHED = "max(coalesce(f.tried_at, ''), coalesce(f.confirmed_at, ''))";

/** Forgets the confirmations of items that left the replica (a deleted course, a person who left). */
export function forgetGoneItems(sqlite: Sqlite): void {
  const items: Partial<Record<RotationScope, string>> = {
    course: 'SELECT id FROM courses',
    person: 'SELECT id FROM users',
    trainings: 'SELECT id FROM users',
    client: 'SELECT id FROM clients',
  };
  for (const [scope, existing] of Object.entries(items))
    sqlite
      .prepare(`DELETE FROM confirmations WHERE scope = ? AND id NOT IN (${existing})`)
      .run(scope);
}

/**
 * How many items of a rotation of `items` this sync should take: its share of the time since the
 * rotation was last planned (the interval for the first plan), added to what earlier syncs could
 * not take. Never more than all items once over.
 */
export function earnedShare(
  sqlite: Sqlite,
  scope: RotationScope,
  items: number,
  boundHours: number,
  now: Date,
  intervalSeconds: number,
): number {
  const row = prepared(sqlite, 'SELECT credit, planned_at FROM rotations WHERE scope = ?').get(
    scope,
  ) as { credit: number; planned_at: string } | undefined;
  // A bound of 0: every item in every sync.
  if (boundHours <= 0) return items;
  const boundMs = boundHours * 3_600_000;
  const elapsedMs = row
    ? Math.min(Math.max(0, now.getTime() - Date.parse(row.planned_at)), boundMs)
    : intervalSeconds * 1000;
  const earned = (items * elapsedMs) / (boundMs * MARGIN);
  return Math.min((row?.credit ?? 0) + earned, items / MARGIN);
}

/** Keeps what a rotation earned and did not spend (the next sync takes it first). */
export function keepShare(sqlite: Sqlite, scope: RotationScope, credit: number, now: Date): void {
  upsertRow(sqlite, 'rotations', ['scope'], {
    scope,
    credit: Math.max(0, credit),
    planned_at: now.toISOString(),
  });
}

/** The items each rotation keeps confirmed (what the plan chooses from). */
export function rotationItemsSql(
  scope: Exclude<RotationScope, 'reference' | 'hours_window'>,
  profile: SyncProfile,
) {
  switch (scope) {
    case 'course':
      return "SELECT id FROM courses WHERE id NOT LIKE 'local-%'";
    case 'forms':
      return `SELECT 'k:' || id AS id FROM courses WHERE last_date >= date('now', 'localtime') AND id NOT LIKE 'local-%'
              UNION ALL SELECT 'u:' || value FROM replica_meta WHERE key = 'self_id'`;
    case 'person':
      return profile === 'trainer'
        ? "SELECT value AS id FROM replica_meta WHERE key = 'self_id'"
        : "SELECT id FROM users WHERE id NOT LIKE 'local-%'";
    case 'trainings':
      return 'SELECT id FROM users WHERE trainings_from_endpoint = 1';
    case 'client':
      return 'SELECT id FROM clients';
  }
}

/** Where a rotation's items record a request that failed for good (sync/pull/quarantine.ts). */
const FAILURES: Record<Exclude<RotationScope, 'reference' | 'hours_window'>, string[]> = {
  course: ['participations', 'customfields'],
  forms: ['formulare'],
  person: ['person_details'],
  trainings: ['ausbildungen'],
  client: ['client_participants'],
};

/**
 * Items of the rotations not read since their confirmations were last forgotten (a resync after
 * the service's restore): neither confirmed, nor asked for and failed (recorded in the
 * quarantine, and tried again by the rotation: a refused item must not hold a resync forever).
 */
export function unconfirmedItems(sqlite: Sqlite, profile: SyncProfile): number {
  const scopes = (Object.keys(FAILURES) as (keyof typeof FAILURES)[]).filter(
    (scope) => scope !== 'client' || profile === 'office',
  );
  let total = 0;
  for (const scope of scopes) {
    // A form list's key is the owner's kind and id ('k:17'); its failure names the id.
    const key = scope === 'forms' ? 'substr(item.id, 3)' : 'item.id';
    const failures = FAILURES[scope].map((c) => `'${c}'`).join(', ');
    total += sqlite
      .prepare(
        `SELECT count(*) FROM (${rotationItemsSql(scope, profile)}) AS item
         LEFT JOIN confirmations f ON f.scope = ? AND f.id = item.id
         WHERE f.confirmed_at IS NULL AND NOT (f.tried_at IS NOT NULL AND EXISTS (
           SELECT 1 FROM quarantine q
           WHERE q.raw IS NULL AND q.collection IN (${failures}) AND q.id = ${key}))`,
      )
      .pluck()
      .get(scope) as number;
  }
  return total;
}
