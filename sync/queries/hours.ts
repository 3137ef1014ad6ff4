import { sql, type Kysely } from 'kysely';
import type { ParsedQueryArgs, QueryResults } from '../contract';
import type { Database } from '../db/schema';
import { asBool } from './record';

interface HoursFilter {
  userId?: string | undefined;
  from?: string | undefined;
  until?: string | undefined;
  freigegeben?: boolean | undefined;
}

/** The WHERE clause over `helferstunden h` for a filter (TRUE when nothing is filtered). */
function hoursWhere(filter: HoursFilter) {
  // A record deleted here is gone for every screen, though its DELETE is still queued.
  const conditions = [sql`h.local_state IS NOT 'deleted'`];
  if (filter.userId) conditions.push(sql`h.user_id = ${filter.userId}`);
  if (filter.from) conditions.push(sql`h.von >= ${filter.from}`);
  if (filter.until) conditions.push(sql`h.von < ${`${filter.until}T99`}`);
  if (filter.freigegeben !== undefined)
    conditions.push(sql`h.freigegeben = ${filter.freigegeben ? 1 : 0}`);
  return sql<boolean>`${sql.join(conditions, sql` AND `)}`;
}

export async function listHours(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'hours.list'>,
  selfId: string | null,
): Promise<QueryResults['hours.list']> {
  const filter = { ...args, userId: args.userId === 'self' ? (selfId ?? '') : args.userId };
  const totals = await db
    .selectFrom('helferstunden as h')
    .where(hoursWhere(filter))
    .select([
      (eb) => eb.fn.countAll<number>().as('n'),
      sql<number | null>`sum(h.stunden)`.as('stunden'),
    ])
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('helferstunden as h')
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .leftJoin('helferstunden_anlaesse as a', 'a.id', 'h.anlass_id')
    .leftJoin('helferstunden_typen as t', 't.id', 'h.typ_id')
    .where(hoursWhere(filter))
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
    ])
    .orderBy(args.sort === 'stunden' ? 'h.stunden' : 'h.von', 'desc')
    .orderBy('h.id')
    .limit(args.limit)
    .offset(args.offset)
    .execute();
  return {
    total: Number(totals.n),
    totalStunden: Number(totals.stunden ?? 0),
    items: rows.map((r) => ({ ...r, freigegeben: asBool(r.freigegeben) })),
  };
}

export async function hoursSummary(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'hours.summary'>,
  selfId: string | null,
): Promise<QueryResults['hours.summary']> {
  const filter: HoursFilter = {
    userId: args.userId === 'self' ? (selfId ?? '') : args.userId,
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
