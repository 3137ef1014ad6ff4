import type { Sqlite } from '../db/sqlite';
import { sql, type Kysely } from 'kysely';
import { confirmedAt } from './freshness';
import type { ParsedQueryArgs, PersonDetail, PersonListItem, QueryResults } from '../contract';
import type { Database } from '../db/schema';
import { searchKey } from '../resources';
import { asBool, currentAttributes, prefixRange } from './record';

export async function listPersonnel(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'personnel.list'>,
): Promise<QueryResults['personnel.list']> {
  let query = db.selectFrom('users');
  if (args.search?.trim()) {
    const [low, high] = prefixRange(searchKey(args.search));
    // Last or first name starting with the text: two index range scans.
    query = query.where((eb) =>
      eb.or([
        eb.and([eb('sort_name', '>=', low), eb('sort_name', '<', high)]),
        eb.and([eb('first_name_key', '>=', low), eb('first_name_key', '<', high)]),
      ]),
    );
  }
  if (args.status?.length) query = query.where('status', 'in', args.status);
  if (args.qualification) {
    const qualification = args.qualification;
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('qualifikationen')
        .select('user_id')
        .where((q) => q.or([q('name_kurz', '=', qualification), q('name', '=', qualification)])),
    );
  }
  const total = Number(
    (await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const order =
    args.sort === 'ort'
      ? (['ort', 'sort_name'] as const)
      : args.sort === 'status'
        ? (['status', 'sort_name'] as const)
        : (['sort_name'] as const);
  // The page's ids first, then their columns and qualifications: the correlated subquery runs
  // for the 50 people shown, not for every match before sorting.
  let page = query.select('id');
  for (const column of order) page = page.orderBy(column);
  page = page.orderBy('id').limit(args.limit).offset(args.offset);
  let rows = db
    .with('page', () => page)
    .selectFrom('page')
    .innerJoin('users', 'users.id', 'page.id')
    .select([
      'users.id',
      'users.local_state as localState',
      'vorname',
      'nachname',
      'status',
      'email',
      'ort',
      'mitgliednr',
      // In the service's order, with the unit separator between.
      sql<
        string | null
      >`(SELECT group_concat(coalesce(q.name_kurz, q.name), char(31) ORDER BY q.idx) FROM qualifikationen q WHERE q.user_id = users.id)`.as(
        'qualis',
      ),
    ]);
  for (const column of order) rows = rows.orderBy(`users.${column}`);
  const people = await rows.orderBy('users.id').execute();
  return {
    total,
    items: people.map(({ qualis, ...person }) => ({
      ...person,
      qualifikationen: qualis ? qualis.split('\u001f') : [],
    })),
  };
}

async function qualificationsOf(
  db: Kysely<Database>,
  userIds: string[],
): Promise<Map<string, string[]>> {
  const byUser = new Map<string, string[]>();
  if (!userIds.length) return byUser;
  const rows = await db
    .selectFrom('qualifikationen')
    .select(['user_id', 'name_kurz', 'name'])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('idx')
    .execute();
  for (const row of rows) {
    const label = row.name_kurz ?? row.name;
    if (!label) continue;
    byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), label]);
  }
  return byUser;
}

/** A person's trainings not deleted here, as personnel.get gives them; `only`: the one with this id. */
export function trainingsOf(
  db: Kysely<Database>,
  filter: { userId: string } | { only: string },
): Promise<PersonDetail['ausbildungen']> {
  return db
    .selectFrom('ausbildungen')
    .select(['id', 'local_state as localState', 'bezeichnung', 'datum', 'gueltig_bis'])
    .where('local_state', 'is distinct from', 'deleted')
    .where('only' in filter ? 'id' : 'user_id', '=', 'only' in filter ? filter.only : filter.userId)
    .orderBy('datum', 'desc')
    .execute();
}

export async function getPerson(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): Promise<PersonDetail | null> {
  const person = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!person) return null;
  const [qualis, organisation, ausbildungen, checks, honours] = await Promise.all([
    qualificationsOf(db, [id]),
    person.organisation_id
      ? db
          .selectFrom('organisations')
          .select('name')
          .where('id', '=', person.organisation_id)
          .executeTakeFirst()
      : undefined,
    trainingsOf(db, { userId: id }),
    db
      .selectFrom('ueberpruefungen')
      .select(['id', 'bezeichnung', 'bestanden', 'letzte_pruefung', 'naechste_pruefung'])
      .where('user_id', '=', id)
      .orderBy('naechste_pruefung')
      .execute(),
    db
      .selectFrom('ehrungen')
      .select(['id', 'bezeichnung', 'datum'])
      .where('user_id', '=', id)
      .orderBy('datum', 'desc')
      .execute(),
  ]);
  const item: PersonListItem = {
    id: person.id,
    localState: person.local_state,
    vorname: person.vorname,
    nachname: person.nachname,
    status: person.status,
    email: person.email,
    ort: person.ort,
    mitgliednr: person.mitgliednr,
    qualifikationen: qualis.get(id) ?? [],
  };
  return {
    ...item,
    attributes: currentAttributes(person),
    organisation: organisation?.name ?? null,
    ausbildungen,
    ueberpruefungen: checks.map((c) => ({ ...c, bestanden: asBool(c.bestanden) })),
    ehrungen: honours,
    confirmedAt: confirmedAt(sqlite, 'person', id, 'personal'),
  };
}

export async function countByStatus(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status ?? '', Number(r.n)]));
}
