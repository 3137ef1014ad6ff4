// The volunteer hours' reads: the list and its totals, one's own summary, settings and years.
import { sql, type Kysely } from 'kysely';
import type { HoursItem, ParsedQueryArgs, QueryResults } from '../contract';
import type { Database } from '../db/schema';
import type { Sqlite } from '../db/sqlite';
import { asBool, byKey, currentAttributes, type RowOf, type WrittenReaders } from './record';
import {
  hoursColumnsOf,
  type ColumnFilter,
  type HoursAggregates,
  type Sums,
} from './hours-columns';

interface HoursFilter extends ColumnFilter {
  /** The entry with this id only (what a write answers). */
  only?: string;
}

/** The WHERE clause over `helferstunden h` for a filter (TRUE when nothing is filtered). */
export function hoursWhere(filter: HoursFilter) {
  // A record deleted here is gone for every screen, though its DELETE is still queued.
  const conditions = [sql`h.local_state IS NOT 'deleted'`];
  if (filter.userId !== undefined)
    conditions.push(
      filter.userId === filter.selfId
        ? sql`(h.user_id = ${filter.userId} OR (h.user_id IS NULL AND h.local_state = 'created'))`
        : sql`h.user_id = ${filter.userId}`,
    );
  if (filter.only !== undefined) conditions.push(sql`h.id = ${filter.only}`);
  if (filter.anlassId !== undefined) conditions.push(sql`h.anlass_id = ${filter.anlassId}`);
  if (filter.typId !== undefined) conditions.push(sql`h.typ_id = ${filter.typId}`);
  if (filter.from) conditions.push(sql`h.von >= ${filter.from}`);
  if (filter.until) conditions.push(sql`h.von < ${`${filter.until}T99`}`);
  if (filter.freigegeben !== undefined)
    conditions.push(sql`h.freigegeben = ${filter.freigegeben ? 1 : 0}`);
  return sql<boolean>`${sql.join(conditions, sql` AND `)}`;
}

/**
 * hoursWhere for counting and summing everyone's entries: without a period or another indexed
 * term, a term on `von` that every entry meets (one without a start too, as the list shows it)
 * leads SQLite to the covering index by `von` (migration 9) instead of the table, whose rows carry
 * their JSON.
 */
function coveredWhere(filter: HoursFilter) {
  const indexed =
    filter.from || filter.until || filter.userId !== undefined || filter.anlassId !== undefined;
  return indexed
    ? hoursWhere(filter)
    : sql<boolean>`${hoursWhere(filter)} AND (h.von >= '' OR h.von IS NULL)`;
}

/** An hours.list item's columns: the entry, its person, occasion and type (`helferstunden h`). */
function hoursItems(db: Kysely<Database>) {
  return db
    .selectFrom('helferstunden as h')
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .leftJoin('helferstunden_anlaesse as a', 'a.id', 'h.anlass_id')
    .leftJoin('helferstunden_typen as t', 't.id', 'h.typ_id')
    .select([
      'h.id as id',
      'h.local_state as localState',
      'h.user_id as userId',
      sql<
        string | null
      >`CASE WHEN u.id IS NULL THEN NULL ELSE u.nachname || ', ' || u.vorname END`.as('userName'),
      'h.von as von',
      'h.bis as bis',
      'h.stunden as stunden',
      'h.freigegeben as freigegeben',
      'a.beschreibung as anlass',
      'a.typ as anlassTyp',
      't.bezeichnung as typ',
      'h.anlass_id as anlassId',
      'h.typ_id as typId',
      'h.base as base',
      'h.pending as pending',
    ]);
}

type HoursRow = RowOf<typeof hoursItems>;

function hoursItem({ base, pending, ...row }: HoursRow): HoursItem {
  // What an edit form shows besides the columns: the local truth's remark and kilometres.
  const attributes = currentAttributes({ base, pending });
  return {
    ...row,
    freigegeben: asBool(row.freigegeben),
    bemerkung: typeof attributes.bemerkung === 'string' ? attributes.bemerkung : null,
    anfahrtKm: typeof attributes.anfahrt_km === 'number' ? attributes.anfahrt_km : null,
  };
}

export async function listHours(
  db: Kysely<Database>,
  sqlite: Sqlite,
  args: ParsedQueryArgs<'hours.list'>,
  selfId: string | null,
): Promise<QueryResults['hours.list']> {
  const filter = filterOf(args, selfId);
  const totals =
    hoursColumnsOf(sqlite).sums(filter) ??
    (await db
      .selectFrom('helferstunden as h')
      .where(coveredWhere(filter))
      .select([
        (eb) => eb.fn.countAll<number>().as('entries'),
        sql<number | null>`sum(h.stunden)`.as('stunden'),
      ])
      .executeTakeFirstOrThrow());
  const rows = await hoursItems(db)
    .where(hoursWhere(filter))
    .orderBy(args.sort === 'stunden' ? 'h.stunden' : 'h.von', 'desc')
    .orderBy('h.id')
    .limit(args.limit)
    .offset(args.offset)
    .execute();
  return {
    total: Number(totals.entries),
    totalStunden: Number(totals.stunden ?? 0),
    items: rows.map(hoursItem),
  };
}

/** The entry `id` as hours.list gives it (what a write answers); undefined when it shows none. */
export function hoursItemOf(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): HoursItem | undefined {
  const row = byKey(sqlite, 'hours.item', (key) =>
    hoursItems(db).where(hoursWhere({ only: key })),
  ).one(id);
  return row && hoursItem(row);
}

/** The filter of hours.list and hours.totals, with 'self' as the signed-in user. */
function filterOf(
  args: Omit<ParsedQueryArgs<'hours.totals'>, 'limit'>,
  selfId: string | null,
): HoursFilter {
  return {
    userId: args.userId === 'self' ? (selfId ?? '') : args.userId,
    selfId,
    anlassId: args.anlassId,
    typId: args.typId,
    from: args.from,
    until: args.until,
    freigegeben: args.freigegeben,
  };
}

/**
 * The totals of a filter: all, per person (most hours first, the first `limit`) and per type.
 * An own entry created here has no person yet: it counts as the signed-in user's. Counted over
 * the columns in memory when they are current (hours-columns.ts), else by SQLite.
 */
export async function hoursTotals(
  db: Kysely<Database>,
  sqlite: Sqlite,
  args: ParsedQueryArgs<'hours.totals'>,
  selfId: string | null,
): Promise<QueryResults['hours.totals']> {
  const filter = filterOf(args, selfId);
  const typeNames = await db
    .selectFrom('helferstunden_typen')
    .select(['id', 'bezeichnung'])
    .orderBy('id')
    .execute();
  const counted =
    hoursColumnsOf(sqlite).aggregates(filter, args.limit) ??
    (await sqlAggregates(db, filter, args.limit, typeNames));
  let people = counted.top.map((r) => ({ ...r, userId: r.userId as string | null }));
  let persons = counted.persons;
  if (counted.unassigned.entries > 0) {
    let row = people.find((r) => r.userId === selfId);
    if (!row) {
      row = { userId: selfId, ...counted.own };
      if (row.entries === 0) persons += 1;
      people.push(row);
    }
    row.stunden += counted.unassigned.stunden;
    row.entries += counted.unassigned.entries;
  }
  people = people
    .sort((a, b) => b.stunden - a.stunden || (a.userId ?? '').localeCompare(b.userId ?? ''))
    .slice(0, args.limit);
  const ids = people.flatMap((r) => (r.userId === null ? [] : [r.userId]));
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const users = await db
      .selectFrom('users')
      .select(['id', sql<string>`nachname || ', ' || vorname`.as('name')])
      .where('id', 'in', ids)
      .execute();
    for (const user of users) names.set(user.id, user.name);
  }
  // An entry of a type not known here counts as none.
  const known = typeNames.map((type) => ({
    typId: type.id as string | null,
    typ: type.bezeichnung,
    stunden: counted.byType.get(type.id)?.stunden ?? 0,
    entries: counted.byType.get(type.id)?.entries ?? 0,
  }));
  const rest = {
    typId: null,
    typ: null,
    stunden: counted.stunden - known.reduce((sum, r) => sum + r.stunden, 0),
    entries: counted.entries - known.reduce((sum, r) => sum + r.entries, 0),
  };
  const byTyp = [...known, rest]
    .filter((r) => r.entries > 0)
    .sort((a, b) => b.stunden - a.stunden || (a.typ ?? '').localeCompare(b.typ ?? ''));
  return {
    entries: counted.entries,
    stunden: counted.stunden,
    persons,
    byUser: people.map((r) => ({
      ...r,
      userName: r.userId === null ? null : (names.get(r.userId) ?? null),
    })),
    byTyp,
  };
}

/**
 * hoursTotals' aggregates by SQLite: two passes over the covering indexes of migration 9, one
 * for all and per type, then one by person.
 */
async function sqlAggregates(
  db: Kysely<Database>,
  filter: HoursFilter,
  limit: number,
  typeNames: { id: string }[],
): Promise<HoursAggregates> {
  const where = coveredWhere(filter);
  const sums = [
    sql<number>`coalesce(sum(h.stunden), 0)`.as('stunden'),
    sql<number>`count(*)`.as('entries'),
  ] as const;
  const sumsOf = (row: { stunden: unknown; entries: unknown } | undefined) => ({
    stunden: Number(row?.stunden ?? 0),
    entries: Number(row?.entries ?? 0),
  });
  const [unassigned, tableSize] = await Promise.all([
    db
      .selectFrom('helferstunden as h')
      .where(hoursWhere(filter))
      .where('h.user_id', 'is', null)
      .where('h.local_state', '=', 'created')
      .select([...sums])
      .executeTakeFirstOrThrow(),
    // About how many entries there are, at no cost (rowids only grow).
    db
      .selectFrom('helferstunden')
      .select(sql<number | null>`max(rowid)`.as('size'))
      .executeTakeFirstOrThrow(),
  ]);
  // All and per type in one pass over the filter's entries, each type a sum of its own (a few
  // types: grouping would sort every entry).
  const perType = typeNames.flatMap((type, index) => [
    sql`coalesce(sum(CASE WHEN h.typ_id = ${type.id} THEN h.stunden END), 0)`.as(`s${index}`),
    sql`count(CASE WHEN h.typ_id = ${type.id} THEN 1 END)`.as(`n${index}`),
  ]);
  const all = (await db
    .selectFrom('helferstunden as h')
    .where(where)
    .select([...sums, ...perType])
    .executeTakeFirstOrThrow()) as Record<string, unknown> & { stunden: unknown; entries: unknown };
  const byType = new Map<string | null, Sums>(
    typeNames.map((type, index) => [
      type.id,
      sumsOf({ stunden: all[`s${index}`], entries: all[`n${index}`] }),
    ]),
  );
  // Per person, the people counted before the limit. SQLite takes a period's range of the `von`
  // index and sorts every entry in it by person (a year of 100,000 entries: about twice the time);
  // when the filter holds more than a quarter of all entries and no person or occasion narrows
  // it, reading every entry in the order of people (that covering index) sums with no sort.
  const byPeople =
    filter.userId === undefined &&
    filter.anlassId === undefined &&
    Number(all.entries) * 4 > Number(tableSize.size ?? 0);
  const { rows: top } = await sql<{
    userId: string;
    stunden: number;
    entries: number;
    persons: number;
  }>`SELECT h.user_id AS userId, coalesce(sum(h.stunden), 0) AS stunden, count(*) AS entries,
      count(*) OVER () AS persons
    FROM helferstunden AS h ${byPeople ? sql`INDEXED BY helferstunden_person_totals` : sql``}
    WHERE ${where} AND h.user_id IS NOT NULL
    GROUP BY h.user_id ORDER BY stunden DESC, h.user_id LIMIT ${limit}`.execute(db);
  const own =
    Number(unassigned.entries) > 0 && !top.some((r) => r.userId === filter.selfId)
      ? await db
          .selectFrom('helferstunden as h')
          .where(where)
          .where('h.user_id', '=', filter.selfId ?? '')
          .select([...sums])
          .executeTakeFirstOrThrow()
      : undefined;
  const ownInTop = top.find((r) => r.userId === filter.selfId);
  return {
    ...sumsOf(all),
    byType,
    top: top.map((r) => ({ userId: r.userId, ...sumsOf(r) })),
    persons: Number(top[0]?.persons ?? 0),
    own: sumsOf(ownInTop ?? own),
    unassigned: sumsOf(unassigned),
  };
}

/** The own hour settings as last read, with the types that take new entries (the active ones). */
export async function hoursSettings(db: Kysely<Database>): Promise<QueryResults['hours.settings']> {
  const row = await db
    .selectFrom('singletons')
    .select(['base', 'pending'])
    .where('key', '=', 'helferstunden_einstellungen')
    .executeTakeFirst();
  if (!row) return null;
  const attributes = currentAttributes(row);
  const types = await db
    .selectFrom('helferstunden_typen')
    .select(['id', 'bezeichnung'])
    .where('aktiv', '=', 1)
    .orderBy('bezeichnung')
    .execute();
  const flag = (value: unknown) => (typeof value === 'boolean' ? value : null);
  const words = (value: unknown) =>
    typeof value === 'string' && value.trim() ? value.trim() : null;
  const standard = attributes.standard_typ_id;
  return {
    eigeneStundenErfassen: flag(attributes.eigene_stunden_erfassen),
    freigabeErforderlich: flag(attributes.freigabe_erforderlich),
    standardTypId: typeof standard === 'number' ? String(standard) : words(standard),
    anfahrtErfassen: flag(attributes.anfahrt_erfassen),
    zahlenfeldBezeichnung: words(attributes.zahlenfeld_bezeichnung),
    activeTypes: types,
  };
}

export async function hoursSummary(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'hours.summary'>,
  selfId: string | null,
): Promise<QueryResults['hours.summary']> {
  const filter: HoursFilter = {
    userId: args.userId === 'self' ? (selfId ?? '') : args.userId,
    selfId,
    ...(args.year ? { from: `${args.year}-01-01`, until: `${args.year}-12-31` } : {}),
  };
  const rows = await db
    .selectFrom('helferstunden as h')
    .leftJoin('helferstunden_typen as t', 't.id', 'h.typ_id')
    .where(hoursWhere(filter))
    .select([
      't.bezeichnung as typ',
      sql<number>`coalesce(sum(h.stunden), 0)`.as('stunden'),
      (eb) => eb.fn.countAll<number>().as('entries'),
    ])
    .groupBy('t.bezeichnung')
    .orderBy('stunden', 'desc')
    .execute();
  const byTyp = rows.map((r) => ({
    typ: r.typ,
    stunden: Number(r.stunden),
    entries: Number(r.entries),
  }));
  return {
    totalStunden: byTyp.reduce((sum, r) => sum + r.stunden, 0),
    entries: byTyp.reduce((sum, r) => sum + r.entries, 0),
    byTyp,
  };
}

export async function hoursYears(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'hours.years'>,
  selfId: string | null,
): Promise<QueryResults['hours.years']> {
  const userId = args.userId === 'self' ? (selfId ?? '') : args.userId;
  const year = sql<string>`substr(h.von, 1, 4)`;
  const rows = await db
    .selectFrom('helferstunden as h')
    .where(hoursWhere({ userId, selfId }))
    .where('h.von', 'is not', null)
    .select([
      year.as('year'),
      sql<number>`coalesce(sum(h.stunden), 0)`.as('stunden'),
      (eb) => eb.fn.countAll<number>().as('entries'),
    ])
    .groupBy(year)
    .orderBy(year, 'desc')
    .execute();
  return rows
    .map((r) => ({ year: Number(r.year), stunden: Number(r.stunden), entries: Number(r.entries) }))
    .filter((r) => Number.isInteger(r.year));
}

/** The records of this file's reads that a write answers (merged in written.ts). */
export const writtenInHours = {
  helferstunden: hoursItemOf,
} satisfies WrittenReaders;
