import type { Sqlite } from '../db/sqlite';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { confirmedAt } from './freshness';
import type { ParsedQueryArgs, PersonDetail, PersonListItem, QueryResults } from '../contract';
import type { Database } from '../db/schema';
import { foldForSearch } from '../db/search-fold';
import { prepared } from '../db/statements';
import { applyQualificationEdits } from '../resources';
import { asBool, byKey, currentAttributes, type WrittenReaders } from './record';

/** The people a search finds (anywhere in names, member number, e-mail, phones; every word). */
export function peopleMatching(db: Kysely<Database>, search: string | undefined) {
  let query = db.selectFrom('users');
  for (const condition of searchConditions(search)) query = query.where(condition);
  return query;
}

/** The people a search, a member number, a group and a qualification select (every status). */
function selectPeople(db: Kysely<Database>, args: PersonnelFilter) {
  let query = peopleMatching(db, args.search);
  if (args.mitgliednr !== undefined) {
    // Spelled as the member order's index (migration 7) begins, so the index finds the number.
    query = query.where(
      sql<boolean>`(users.mitgliednr IS NULL) = 0 AND users.mitgliednr = ${args.mitgliednr}`,
    );
  }
  if (args.group) {
    const group = args.group;
    query = query.where(
      sql<boolean>`EXISTS (SELECT 1 FROM json_each(users.gruppen) WHERE value = ${group})`,
    );
  }
  if (args.qualification) {
    const qualification = args.qualification;
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('qualifikationen')
        .select('user_id')
        .where((q) => q.or([q('name_kurz', '=', qualification), q('name', '=', qualification)])),
    );
  }
  return query;
}

type PersonnelFilter = Pick<
  ParsedQueryArgs<'personnel.list'>,
  'search' | 'mitgliednr' | 'group' | 'qualification'
>;

/**
 * A search as conditions on users, one per word: a word of three or more characters through the
 * trigram index (users_search: anywhere in a word, ignoring case and diacritics), a shorter one
 * by comparing the folded text (trigrams need three characters).
 */
function searchConditions(search: string | undefined): RawBuilder<boolean>[] {
  const words = foldForSearch(search ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const long = words.filter((word) => [...word].length >= 3);
  const conditions = words
    .filter((word) => [...word].length < 3)
    // search_text is folded already: no folding function per row.
    .map((word) => sql<boolean>`instr(users.search_text, ${word}) > 0`);
  if (long.length) {
    // Each word a phrase of its own (quotes doubled), all of them required.
    const match = long.map((word) => `"${word.replace(/"/g, '""')}"`).join(' AND ');
    conditions.push(
      sql<boolean>`users.rowid IN (SELECT rowid FROM users_search WHERE users_search MATCH ${match})`,
    );
  }
  return conditions;
}

/**
 * Each sort's order, as the expressions of its index (migrations 1 and 7): a page is a range of
 * the index, and the rowid it ends in breaks ties.
 */
const ORDER = {
  name: ['users.sort_name'],
  mitgliednr: ['users.mitgliednr IS NULL', 'users.mitgliednr', 'users.sort_name'],
  status: ['users.status', 'users.sort_name'],
  ort: ['users.ort', 'users.sort_name'],
} as const;

export async function listPersonnel(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'personnel.list'>,
): Promise<QueryResults['personnel.list']> {
  const matching = selectPeople(db, args);
  // Counts beside each status: the other filters applied, the status filter not; with none of
  // them, everyone's counts as kept (migration 10).
  const filtered = Boolean(
    args.search?.trim() || args.mitgliednr !== undefined || args.group || args.qualification,
  );
  const statusCounts = filtered
    ? Object.fromEntries(
        (
          await matching
            .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
            .groupBy('status')
            .execute()
        ).map((r) => [r.status ?? '', Number(r.n)]),
      )
    : await countByStatus(db);
  const chosen = args.status?.length ? new Set<string>(args.status) : null;
  const total = Object.entries(statusCounts)
    .filter(([status]) => !chosen || (status !== '' && chosen.has(status)))
    .reduce((sum, [, n]) => sum + n, 0);
  const query = chosen ? matching.where('status', 'in', [...chosen]) : matching;
  // The page's rows first (a range of the sort's index), then their columns and qualifications:
  // the correlated subquery runs for the people shown, not for every match before sorting.
  const order = ORDER[args.sort].map((expression, index) => ({
    expression: sql.raw(expression),
    name: `o${index}`,
  }));
  let page = query.select([
    'users.id',
    sql<number>`users.rowid`.as('rid'),
    ...order.map(({ expression, name }) => sql`${expression}`.as(name)),
  ]);
  for (const { expression } of order) page = page.orderBy(expression);
  page = page
    .orderBy(sql`users.rowid`)
    .limit(args.limit)
    .offset(args.offset);
  let rows = db
    .with('page', () => page)
    .selectFrom('page')
    .innerJoin('users', (join) => join.on(sql<boolean>`users.rowid = page.rid`))
    .select([
      'users.id',
      'users.local_state as localState',
      'users.vorname',
      'users.nachname',
      'users.status',
      'users.email',
      'users.ort',
      'users.mitgliednr',
      // In the service's order, with the unit separator between.
      sql<
        string | null
      >`(SELECT group_concat(coalesce(q.name_kurz, q.name), char(31) ORDER BY q.idx) FROM qualifikationen q WHERE q.user_id = users.id)`.as(
        'qualis',
      ),
    ]);
  for (const { name } of order) rows = rows.orderBy(sql.ref(`page.${name}`));
  const people = await rows.orderBy(sql`page.rid`).execute();
  return {
    total,
    statusCounts,
    items: people.map(({ qualis, ...person }) => ({
      ...person,
      qualifikationen: qualis ? qualis.split('\u001f') : [],
    })),
  };
}

/** The groups and qualifications people have, with how many have each (the list's filters). */
export async function personnelFacets(
  db: Kysely<Database>,
): Promise<QueryResults['personnel.facets']> {
  const [groups, qualifications] = await Promise.all([
    db
      .selectFrom(sql<{ value: string }>`users, json_each(users.gruppen)`.as('g'))
      .select(['g.value as name', (eb) => eb.fn.countAll<number>().as('people')])
      .groupBy('g.value')
      .orderBy('g.value')
      .execute(),
    db
      .selectFrom('qualifikationen')
      .select([
        sql<string>`coalesce(name_kurz, name)`.as('name'),
        (eb) => eb.fn.count<number>('user_id').distinct().as('people'),
      ])
      .where(sql<boolean>`coalesce(name_kurz, name) IS NOT NULL`)
      .groupBy(sql`coalesce(name_kurz, name)`)
      .orderBy('name')
      .execute(),
  ]);
  const counted = (rows: { name: string; people: number }[]) =>
    rows.map((r) => ({ name: r.name, people: Number(r.people) }));
  return { groups: counted(groups), qualifications: counted(qualifications) };
}

/** A training's columns as personnel.get gives them, of the trainings not deleted here. */
function trainingRows(db: Kysely<Database>) {
  return db
    .selectFrom('ausbildungen')
    .select(['id', 'local_state as localState', 'bezeichnung', 'datum', 'gueltig_bis'])
    .where('local_state', 'is distinct from', 'deleted');
}

type TrainingItem = PersonDetail['ausbildungen'][number];

/** The training `id` as personnel.get gives it (what a write answers); undefined when it shows none. */
export function trainingOf(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): TrainingItem | undefined {
  return byKey(sqlite, 'personnel.training', (key) => trainingRows(db).where('id', '=', key)).one(
    id,
  );
}

/** A person as personnel.get gives it: its queries kept per connection, as a write answers it. */
export function getPerson(db: Kysely<Database>, sqlite: Sqlite, id: string): PersonDetail | null {
  const person = byKey(sqlite, 'personnel.person', (key) =>
    db.selectFrom('users').selectAll().where('id', '=', key),
  ).one(id);
  if (!person) return null;
  const qualifikationen = byKey(sqlite, 'personnel.qualifications', (key) =>
    db
      .selectFrom('qualifikationen')
      .select(['name_kurz', 'name'])
      .where('user_id', '=', key)
      .orderBy('idx'),
  )
    .all(id)
    .flatMap((q) => {
      const label = q.name_kurz ?? q.name;
      return label ? [label] : [];
    });
  const organisation = person.organisation_id
    ? byKey(sqlite, 'personnel.organisation', (key) =>
        db.selectFrom('organisations').select('name').where('id', '=', key),
      ).one(person.organisation_id)
    : undefined;
  const ausbildungen = byKey(sqlite, 'personnel.trainings', (key) =>
    trainingRows(db).where('user_id', '=', key).orderBy('datum', 'desc'),
  ).all(id);
  const checks = byKey(sqlite, 'personnel.checks', (key) =>
    db
      .selectFrom('ueberpruefungen')
      .select(['id', 'bezeichnung', 'bestanden', 'letzte_pruefung', 'naechste_pruefung'])
      .where('user_id', '=', key)
      .orderBy('naechste_pruefung'),
  ).all(id);
  const honours = byKey(sqlite, 'personnel.honours', (key) =>
    db
      .selectFrom('ehrungen')
      .select(['id', 'bezeichnung', 'datum'])
      .where('user_id', '=', key)
      .orderBy('datum', 'desc'),
  ).all(id);
  const item: PersonListItem = {
    id: person.id,
    localState: person.local_state,
    vorname: person.vorname,
    nachname: person.nachname,
    status: person.status,
    email: person.email,
    ort: person.ort,
    mitgliednr: person.mitgliednr,
    qualifikationen,
  };
  return {
    ...item,
    attributes: withLocalQualifications(currentAttributes(person), person, (q) =>
      namedAsOthersHaveIt(sqlite, q),
    ),
    organisation: organisation?.name ?? null,
    ausbildungen,
    ueberpruefungen: checks.map((c) => ({ ...c, bestanden: asBool(c.bestanden) })),
    ehrungen: honours,
    confirmedAt: confirmedAt(sqlite, 'person', id, 'personal'),
  };
}

/**
 * The qualifications as the person has them here: the service's list with the local edits
 * applied (a pending change holds edits by pair, not a list: see sync/outbox/local-truth.ts).
 */
function withLocalQualifications(
  attributes: Record<string, unknown>,
  person: { base: string; pending: string | null },
  named: (qualification: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> {
  const edits = person.pending
    ? (JSON.parse(person.pending) as { qualifikationen?: Record<string, unknown>[] })
        .qualifikationen
    : undefined;
  if (!edits?.length) return attributes;
  const base = JSON.parse(person.base) as { attributes?: Record<string, unknown> };
  return {
    ...attributes,
    qualifikationen: applyQualificationEdits(base.attributes?.qualifikationen, edits).map(named),
  };
}

/**
 * A qualification added here is named by its pair only (list position and rank) until the
 * service answers: its list's and rank's names as other people of the replica hold them.
 */
function namedAsOthersHaveIt(
  sqlite: Sqlite,
  qualification: Record<string, unknown>,
): Record<string, unknown> {
  if (qualification.name != null || qualification.position == null) return qualification;
  const known = prepared(
    sqlite,
    `SELECT liste, name, name_kurz FROM qualifikationen
     WHERE position = ? AND (rang = ? OR name_kurz = ?) AND name IS NOT NULL LIMIT 1`,
  ).get(
    String(qualification.position),
    qualification.rang ?? null,
    qualification.name_kurz ?? null,
  ) as { liste: string | null; name: string; name_kurz: string | null } | undefined;
  return known ? { ...known, ...qualification, name: known.name } : qualification;
}

/** How many people have each status ('' for none), as the triggers of migration 10 keep them. */
export async function countByStatus(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('users_by_status')
    .select(['status', 'people'])
    .where('people', '>', 0)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.people)]));
}

/** The records of this file's reads that a write answers (merged in written.ts). */
export const writtenInPersonnel = {
  user: getPerson,
  ausbildung: trainingOf,
} satisfies WrittenReaders;
