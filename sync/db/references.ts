// The references between the replica's tables that are not foreign keys (the service's records
// point at each other by id, and a sync fills tables in any order). One list serves two ends:
// a sync never deletes a row that another row still points at (reference data stays whole, e.g.
// UVTs that /uvts no longer lists because it lists only the favourites), and the tests check
// after every sync that no reference dangles (but where the service offers the target nowhere).
import type BetterSqlite3 from 'better-sqlite3';
import type { TableName } from './schema';

export interface Reference {
  table: TableName;
  column: string;
  target: TableName;
  /**
   * The target is replicated only in these profiles (e.g. a trainer's replica holds the own
   * person, not the other trainers of a course). Absent: in every profile.
   */
  profiles?: readonly ('office' | 'trainer')[];
  /**
   * A person deleted on the service leaves the replica with their personal data, even while
   * hours or courses still name them (the service's deletion wins over a whole reference): such
   * a reference may dangle after the service deleted its target, and is checked only on request.
   */
  weak?: true;
  /**
   * The service offers some targets nowhere the account can read them: a company's UVT comes only
   * where /uvts lists it (with the setting "select favorites", only the favourites) or where a
   * participation names it as its own UVT (`include=uvt`); the interface has no read of one UVT.
   * Such a reference may dangle from the first sync on (a target held is still kept whole), and
   * is checked only on request, against what the service offers.
   */
  unoffered?: true;
}

export const REFERENCES: readonly Reference[] = [
  { table: 'users', column: 'organisation_id', target: 'organisations', profiles: ['office'] },
  { table: 'companies', column: 'uvt_id', target: 'uvts', unoffered: true },
  { table: 'participations', column: 'uvt_id', target: 'uvts' },
  { table: 'participations', column: 'company_id', target: 'companies' },
  { table: 'participations', column: 'client_id', target: 'clients', profiles: ['office'] },
  { table: 'courses', column: 'course_type_id', target: 'course_types' },
  { table: 'courses', column: 'client_id', target: 'clients' },
  { table: 'courses', column: 'location_id', target: 'addresses' },
  {
    table: 'course_trainers',
    column: 'user_id',
    target: 'users',
    profiles: ['office'],
    weak: true,
  },
  { table: 'cancellations', column: 'participation_id', target: 'participations' },
  { table: 'helferstunden', column: 'anlass_id', target: 'helferstunden_anlaesse' },
  { table: 'helferstunden', column: 'typ_id', target: 'helferstunden_typen' },
  { table: 'helferstunden', column: 'user_id', target: 'users', profiles: ['office'], weak: true },
];

/** Ids of `target` that some row of the replica points at. */
export function referencedIds(sqlite: BetterSqlite3.Database, target: TableName): Set<string> {
  const ids = new Set<string>();
  for (const reference of REFERENCES.filter((r) => r.target === target && !r.weak)) {
    const rows = sqlite
      .prepare(
        `SELECT DISTINCT ${reference.column} FROM ${reference.table} WHERE ${reference.column} IS NOT NULL`,
      )
      .pluck()
      .all() as string[];
    for (const id of rows) ids.add(id);
  }
  return ids;
}

export interface DanglingReference extends Reference {
  /** Ids pointed at that the target table does not hold. */
  missing: string[];
}

/**
 * Every reference of the replica that points at a row it does not hold, for the given profile.
 * A record in quarantine counts as held: the service has it, the client could not read it yet.
 */
export function danglingReferences(
  sqlite: BetterSqlite3.Database,
  profile: 'office' | 'trainer',
  options: { includeWeak?: boolean; includeUnoffered?: boolean } = {},
): DanglingReference[] {
  const found: DanglingReference[] = [];
  for (const reference of REFERENCES) {
    if (reference.profiles && !reference.profiles.includes(profile)) continue;
    if (reference.weak && !options.includeWeak) continue;
    if (reference.unoffered && !options.includeUnoffered) continue;
    const missing = sqlite
      .prepare(
        `SELECT DISTINCT r.${reference.column} FROM ${reference.table} r
         WHERE r.${reference.column} IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM ${reference.target} t WHERE t.id = r.${reference.column})
           AND NOT EXISTS (SELECT 1 FROM quarantine q WHERE q.id = r.${reference.column})`,
      )
      .pluck()
      .all() as string[];
    if (missing.length) found.push({ ...reference, missing });
  }
  return found;
}
