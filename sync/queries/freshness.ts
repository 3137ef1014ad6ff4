// How fresh the replica is (DESIGN rule 15): per rotation, how many items the service has
// confirmed and the oldest confirmation; per record, the "as of" a detail screen shows.
import type { Sqlite } from '../db/sqlite';
import type { RotationFreshness } from '../contract';
import { prepared } from '../db/statements';
import { historyWindows } from '../pull/collections/hours';
import { BOUND_OF, rotationItemsSql, type RotationScope } from '../pull/freshness';
import { DEFAULT_SYNC_OPTIONS, type SyncProfile } from '../pull/options';

/** The collections each rotation confirms, as the summary names them. */
const COLLECTIONS: Record<Exclude<RotationScope, 'reference'>, string[]> = {
  course: ['participations', 'customfields'],
  forms: ['formulare'],
  person: ['ueberpruefungen', 'ehrungen'],
  trainings: ['ausbildungen'],
  client: ['client_participants'],
  hours_window: ['helferstunden_history'],
};

export function rotationFreshness(
  sqlite: Sqlite,
  profile: SyncProfile | null,
): RotationFreshness[] {
  if (profile === null) return [];
  const bounds = DEFAULT_SYNC_OPTIONS.freshnessHours;
  const scopes = (Object.keys(COLLECTIONS) as (keyof typeof COLLECTIONS)[]).filter(
    (scope) => scope !== 'client' || profile === 'office',
  );
  return scopes.map((scope) => {
    const source =
      scope === 'hours_window'
        ? historyWindows({ options: { ...DEFAULT_SYNC_OPTIONS, profile } })
            .map((w) => `SELECT '${w.von}' AS id`)
            .join(' UNION ALL ')
        : rotationItemsSql(scope, profile);
    const row = sqlite
      .prepare(
        `SELECT count(*) AS items, count(f.confirmed_at) AS confirmed,
           min(f.confirmed_at) AS oldest
         FROM (${source}) AS item LEFT JOIN confirmations f ON f.scope = ? AND f.id = item.id`,
      )
      .get(scope) as { items: number; confirmed: number; oldest: string | null };
    return {
      rotation: scope,
      collections: COLLECTIONS[scope],
      items: row.items,
      confirmed: row.confirmed,
      oldestConfirmedAt: row.oldest,
      boundHours: bounds[BOUND_OF[scope]],
    };
  });
}

/** When the service last confirmed one item's collections (scope) and its record (collection). */
export function confirmedAt(
  sqlite: Sqlite,
  scope: RotationScope,
  id: string,
  recordCollection: string,
): string | null {
  const row = prepared(
    sqlite,
    `SELECT (SELECT confirmed_at FROM confirmations WHERE scope = ? AND id = ?) AS parent,
              (SELECT last_success_at FROM sync_state WHERE collection = ?) AS record`,
  ).get(scope, id, recordCollection) as { parent: string | null; record: string | null };
  if (row.parent === null || row.record === null) return null;
  // The screen's "as of": the older of the two.
  return row.parent < row.record ? row.parent : row.record;
}
