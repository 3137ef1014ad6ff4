// The replica against the service, record by record and field by field, allowing only what the
// freshness bounds allow (DESIGN rule 15): a record the service changed may be stale until its
// parent is confirmed or its bound runs out, never wrong once confirmed after the change; a
// deletion may be late, never forever. When a change happened comes from the sandbox's change
// journal (the record itself, or a record pointing at it: a moved date concerns its course).
import type BetterSqlite3 from 'better-sqlite3';
import { meaning } from '../support/service-read';
import type { FreshnessBounds } from '../../sync/pull/options';
import { relationshipIds, type ServiceView, type Vouch } from './oracle';
import type { ChangeTime, ChangeTimes } from './journal';

/** The service's type of each compared replica table (journal keys are `type:id`). */
export const TABLE_TYPE: Record<string, string> = {
  users: 'user',
  ausbildungen: 'ausbildung',
  ueberpruefungen: 'ueberpruefung',
  ehrungen: 'ehrung',
  kalender: 'kalender',
  benachrichtigungen: 'benachrichtigung',
  steuersaetze: 'steuersatz',
  clients: 'client',
  courses: 'course',
  course_dates: 'course_date',
  participations: 'participation',
  customfields: 'customfield',
  helferstunden: 'helferstunden',
  helferstunden_anlaesse: 'helferstunden_anlass',
  helferstunden_typen: 'helferstunden_typ',
  formulare: 'forms',
  course_types: 'course_type',
  uvts: 'uvt',
  companies: 'company',
  addresses: 'address',
  client_participants: 'participation',
};

/**
 * How each table learns of a change. `tier2`: every sync asks for it (incremental or whole), so a
 * change the service stamped shows after the next sync; one it did not stamp shows once the
 * deletion-finding full read came round. `vouched`: per parent, on the parent's rotation.
 */
interface TableRule {
  /**
   * Bound of a change (hours) when the parent is not confirmed after it; 0: the next sync.
   * `vouch`: the parent or list that vouches for this record, if any.
   */
  change: (bounds: FreshnessBounds, stamped: boolean, vouch: Vouch | undefined) => number;
  /** Bound of a deletion (hours): a record the replica holds that the service no longer has. */
  deletion: (bounds: FreshnessBounds) => number;
  /** What vouches for a replica row the service no longer shows: its parent, or its list. */
  vouchOf?: (row: Record<string, unknown>) => Vouch;
  /**
   * Rows the service no longer shows that the replica keeps on purpose (occasions of any entry,
   * rows other rows point at): all of them, or those this says.
   */
  keepsExtras?: true | ((row: Record<string, unknown>) => boolean);
  /** Attributes compared as the replica's columns (`columns` of the expected record), not its base. */
  asColumns?: readonly string[];
}

const incremental: TableRule = {
  change: (b, stamped) => (stamped ? 0 : b.deletions),
  deletion: (b) => b.deletions,
};
const whole: TableRule = { change: () => 0, deletion: () => 0 };
const perCourse: TableRule = {
  change: (b) => b.courses,
  deletion: (b) => b.courses,
  vouchOf: (row) => ({ scope: 'course', id: String(row.course_id) }),
};
const perPerson: TableRule = {
  change: (b) => b.people,
  deletion: (b) => b.people,
  vouchOf: (row) => ({ scope: 'person', id: String(row.user_id) }),
};
/** A reference list, fetched whole on its rotation (its collection's sync state vouches). */
const reference = (collection: string): TableRule => ({
  change: (b) => b.reference,
  deletion: (b) => b.reference,
  vouchOf: () => ({ scope: 'reference', id: collection }),
});

const RULES: Record<string, TableRule> = {
  users: incremental,
  ausbildungen: incremental,
  ueberpruefungen: perPerson,
  ehrungen: perPerson,
  kalender: reference('kalender'),
  benachrichtigungen: reference('benachrichtigungen'),
  steuersaetze: reference('steuersaetze'),
  clients: reference('clients'),
  courses: whole,
  course_dates: whole,
  participations: perCourse,
  customfields: perCourse,
  helferstunden: incremental,
  helferstunden_anlaesse: {
    change: (b) => b.deletions,
    deletion: (b) => b.deletions,
    keepsExtras: true,
  },
  // Active types come with the own settings (the reference rotation), the others with the hour
  // entries that name them (the history windows' cycle). The replica keeps every type it saw,
  // but offers (`aktiv`) only those the settings list.
  helferstunden_typen: {
    change: (b, _stamped, vouch) => (vouch ? b.reference : b.deletions),
    deletion: (b) => b.reference,
    vouchOf: () => ({ scope: 'reference', id: 'helferstunden_einstellungen' }),
    keepsExtras: (row) => row.aktiv !== 1,
    asColumns: ['aktiv'],
  },
  // One record per owner (the own person, a course); the forms of ended courses stay.
  formulare: { change: (b) => b.courses, deletion: (b) => b.courses, keepsExtras: true },
  // Every course list includes the types its courses name; the rest come on the rotation.
  course_types: reference('course_types'),
  // Favourites on the rotation, the others with the participations that name them (vouched by
  // that course, so as fresh as its participants: a renamed UVT no favourite comes with the
  // course's next read); kept while anything points at them.
  uvts: {
    ...reference('uvts'),
    change: (b, _stamped, vouch) => (vouch?.scope === 'course' ? b.courses : b.reference),
    keepsExtras: true,
  },
  companies: { ...perCourse, keepsExtras: true },
  // Every course list includes its courses' locations; those of courses gone stay.
  addresses: { ...whole, keepsExtras: true },
  client_participants: {
    change: (b) => b.courses,
    deletion: (b) => b.courses,
    vouchOf: (row) => ({ scope: 'client', id: String(row.client_id) }),
  },
};

/** How the service view names a replica row: by id, or (client participants) by client and id. */
const ROW_KEYS: Record<string, (row: Record<string, unknown>) => string> = {
  client_participants: (row) => `${String(row.client_id)}:${String(row.id)}`,
};

export interface Divergence {
  table: string;
  id: string;
  kind: 'missing' | 'extra' | 'differs';
  /** For `differs`: the fields, with the replica's and the service's values. */
  fields?: { field: string; replica: unknown; service: unknown }[];
  /** Why it is not allowed: confirmed after the change, or past its bound. */
  why: string;
}

export interface CompareInput {
  sqlite: BetterSqlite3.Database;
  view: ServiceView;
  changes: ChangeTimes;
  bounds: FreshnessBounds;
  /** The client's clock now (ms). */
  now: number;
  /** When this sync began: what changed since is due at the next one. */
  syncStartedAt: number;
  /** When the tester first saw each parent (`courses:id`, `users:id`) in this replica. */
  firstSeen: ReadonlyMap<string, number>;
  /** The client's clock at this replica's first sync: what the run did not change is due from then. */
  bornAt: number;
  /**
   * The client's clock at each sync of this replica so far, this one last. The bounds hold for a
   * sync every few minutes; a client that did not sync for a while is allowed that while on top.
   */
  syncTimes: readonly number[];
  /**
   * When a sync of this replica last left work for later (its budget ran out) or was re-reading
   * everything after a restore; 0 for never. The bounds hold for a client that keeps up: they
   * count from its last catching up.
   */
  lastCatchingUpAt: number;
}

export interface CompareResult {
  compared: number;
  divergences: Divergence[];
  /** Stale records allowed (not yet due, or the client still catching up). */
  allowed: number;
}

const HOUR = 3_600_000;

export function compareReplica(input: CompareInput): CompareResult {
  const { sqlite, view, changes, bounds, now } = input;
  const result: CompareResult = { compared: 0, divergences: [], allowed: 0 };
  const confirmations = confirmationsOf(sqlite);
  for (const [table, expected] of view) {
    const rule = RULES[table];
    const type = TABLE_TYPE[table];
    if (!rule || !type) throw new Error(`no comparison rule for ${table}`);
    const columns = new Set(
      (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map(
        (c) => c.name,
      ),
    );
    const rows =
      table === 'formulare'
        ? formLists(sqlite, expected.keys())
        : rowsById(sqlite, table, ROW_KEYS[table]);
    // Whether a divergence on this record is allowed, and why not when it is not.
    // What the service held before the replica's first sync comes with it, or (rows of the
    // rotations that fill in the history, newest first) within the deletions' bound of it.
    const judge = (key: string, vouch: Vouch | undefined, boundHours: number): string | null => {
      // A record vouched for by a parent changes with it too (a trainer taken off the course).
      const recorded = latest(changes.of(key), vouch && changes.of(serviceKey(vouch)));
      const change = recorded && recorded.at >= input.bornAt ? recorded : undefined;
      // A change while the sync ran (between two of its answers) is due at the next sync; the
      // confirmations of this one may stem from answers read before it.
      if (change && change.at >= input.syncStartedAt) return null;
      const parentSeen = vouch ? (input.firstSeen.get(parentKey(vouch)) ?? now) : 0;
      if (!change) boundHours = Math.max(boundHours, rule.deletion(bounds));
      const since = Math.max(change?.at ?? input.bornAt, parentSeen);
      const confirmed = vouch ? confirmations.get(`${vouch.scope}:${vouch.id}`) : undefined;
      if (confirmed !== undefined && change && confirmed > change.at)
        return `confirmed at ${iso(confirmed)}, after the change at ${iso(change.at)}`;
      // This very sync was catching up: what it left for later is not due yet.
      if (input.lastCatchingUpAt >= now) return null;
      const from = Math.max(since, input.lastCatchingUpAt);
      if (now - from < boundHours * HOUR + longestGap(input.syncTimes, from)) return null;
      return `past its bound of ${boundHours} h (${change ? `${change.what}${change.touched ? '' : ' unstamped'} ${iso(change.at)}` : 'changed before the run'}, now ${iso(now)}${
        vouch ? `, parent first seen ${iso(parentSeen)}` : ''
      })`;
    };
    const decide = (divergence: Omit<Divergence, 'why'>, why: string | null) => {
      if (why === null) result.allowed += 1;
      else result.divergences.push({ ...divergence, why });
    };

    for (const record of expected.values()) {
      result.compared += 1;
      const row = rows.get(record.id);
      const stamped = changes.of(record.key)?.touched ?? true;
      const bound = rule.change(bounds, stamped, record.vouch);
      if (!row) {
        decide({ table, id: record.id, kind: 'missing' }, judge(record.key, record.vouch, bound));
        continue;
      }
      const fields = fieldDifferences(row, record, columns, rule.asColumns);
      if (fields.length)
        decide(
          { table, id: record.id, kind: 'differs', fields },
          judge(record.key, record.vouch, bound),
        );
    }
    if (rule.keepsExtras === true) continue;
    for (const [id, row] of rows) {
      if (expected.has(id)) continue;
      if (rule.keepsExtras?.(row)) continue;
      result.compared += 1;
      decide(
        { table, id, kind: 'extra' },
        judge(`${type}:${String(row.id)}`, rule.vouchOf?.(row), rule.deletion(bounds)),
      );
    }
  }
  return result;
}

/** The longest time between two consecutive syncs since `since` (the one spanning it included). */
function longestGap(syncTimes: readonly number[], since: number): number {
  let longest = 0;
  for (let i = 1; i < syncTimes.length; i += 1)
    if (syncTimes[i]! > since) longest = Math.max(longest, syncTimes[i]! - syncTimes[i - 1]!);
  return longest;
}

function latest(a: ChangeTime | undefined, b: ChangeTime | undefined): ChangeTime | undefined {
  return !a || (b && b.at > a.at) ? b : a;
}

/** The journal's key of a parent. */
function serviceKey(vouch: Vouch): string {
  switch (vouch.scope) {
    case 'course':
      return `course:${vouch.id}`;
    case 'client':
      return `client:${vouch.id}`;
    case 'forms':
      return `forms:${vouch.id}`;
    case 'reference':
      return `reference:${vouch.id}`;
    default:
      return `user:${vouch.id}`;
  }
}

/** The replica's parent row whose arrival starts a vouched record's bound. */
function parentKey(vouch: Vouch): string {
  if (vouch.scope === 'forms')
    return `${vouch.id.startsWith('k:') ? 'courses' : 'users'}:${vouch.id.slice(2)}`;
  if (vouch.scope === 'client') return `clients:${vouch.id}`;
  return vouch.scope === 'course' ? `courses:${vouch.id}` : `users:${vouch.id}`;
}

/** Field by field: the service's attributes, the relationships it names, the derived columns. */
function fieldDifferences(
  row: Record<string, unknown>,
  record: {
    attributes: Record<string, unknown>;
    relationships: Record<string, string[]>;
    columns?: Record<string, unknown>;
  },
  columns: Set<string>,
  asColumns: readonly string[] = [],
): { field: string; replica: unknown; service: unknown }[] {
  const differences: { field: string; replica: unknown; service: unknown }[] = [];
  const base = JSON.parse(String(row.base ?? '{}')) as {
    attributes?: Record<string, unknown>;
    relationships?: Record<string, unknown>;
  };
  const mine = (meaning(base.attributes ?? {}) ?? {}) as Record<string, unknown>;
  const theirs = (meaning(record.attributes) ?? {}) as Record<string, unknown>;
  for (const name of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
    if (asColumns.includes(name)) continue;
    if (JSON.stringify(mine[name]) !== JSON.stringify(theirs[name]))
      differences.push({ field: name, replica: mine[name], service: theirs[name] });
  }
  const replicaRelationships = relationshipIds(base.relationships);
  for (const [name, ids] of Object.entries(record.relationships)) {
    const held = replicaRelationships[name] ?? [];
    if (held.join(',') !== ids.join(','))
      differences.push({ field: `relationships.${name}`, replica: held, service: ids });
  }
  for (const [column, value] of Object.entries(record.columns ?? {})) {
    if (!columns.has(column)) continue;
    if ((row[column] ?? null) !== (value ?? null))
      differences.push({ field: column, replica: row[column], service: value });
  }
  return differences;
}

function rowsById(
  sqlite: BetterSqlite3.Database,
  table: string,
  keyOf: (row: Record<string, unknown>) => string = (row) => String(row.id),
) {
  return new Map(
    (sqlite.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[]).map((row) => [
      keyOf(row),
      row,
    ]),
  );
}

/**
 * The forms of each owner (`typ:id`) as one row whose base holds the list in order; an owner
 * without rows holds an empty list (the replica keeps no row for "no forms").
 */
function formLists(sqlite: BetterSqlite3.Database, owners: Iterable<string>) {
  const lists = new Map<string, { titel: unknown; aktion: unknown }[]>(
    [...owners].map((owner) => [owner, []]),
  );
  for (const row of sqlite
    .prepare('SELECT objekt_typ, objekt_id, titel, aktion FROM formulare ORDER BY position')
    .all() as { objekt_typ: string; objekt_id: string; titel: string; aktion: string }[]) {
    const owner = `${row.objekt_typ}:${row.objekt_id}`;
    const forms = lists.get(owner) ?? [];
    forms.push({ titel: row.titel, aktion: JSON.parse(row.aktion) as unknown });
    lists.set(owner, forms);
  }
  return new Map(
    [...lists].map(([owner, forms]) => [
      owner,
      { id: owner, base: JSON.stringify({ attributes: { forms } }) } as Record<string, unknown>,
    ]),
  );
}

/** `scope:id` → when the service last confirmed it (ms); reference collections by their last success. */
function confirmationsOf(sqlite: BetterSqlite3.Database): Map<string, number> {
  const confirmed = new Map<string, number>();
  for (const row of sqlite
    .prepare('SELECT scope, id, confirmed_at FROM confirmations WHERE confirmed_at IS NOT NULL')
    .all() as { scope: string; id: string; confirmed_at: string }[])
    confirmed.set(`${row.scope}:${row.id}`, Date.parse(row.confirmed_at));
  for (const row of sqlite
    .prepare('SELECT collection, last_success_at FROM sync_state WHERE last_success_at IS NOT NULL')
    .all() as { collection: string; last_success_at: string }[])
    confirmed.set(`reference:${row.collection}`, Date.parse(row.last_success_at));
  return confirmed;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
