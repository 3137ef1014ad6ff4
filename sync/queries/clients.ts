// The clients' reads (Auftraggeber): the list, one client with its courses, the participants a
// client registered, and the companies a walk-in may belong to.
import { sql, type Kysely } from 'kysely';
import type { ParsedQueryArgs, QueryResults } from '../contract';
import type { Database } from '../db/schema';
import type { Sqlite } from '../db/sqlite';
import { currentAttributes, prefixPattern } from './record';
import { queuedLocation } from './courses';
import { confirmedAt } from './freshness';

export async function listClients(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'clients.list'>,
): Promise<QueryResults['clients.list']> {
  let query = db
    .selectFrom('clients as c')
    .select([
      'c.id as id',
      'c.name as name',
      'c.city as city',
      sql<number>`(SELECT count(*) FROM client_participants cp WHERE cp.client_id = c.id)`.as(
        'participants',
      ),
    ]);
  if (args.search?.trim())
    query = query.where(
      sql<boolean>`c.name LIKE ${`%${prefixPattern(args.search.trim())}`} ESCAPE '\\'`,
    );
  const rows = await query.orderBy('c.name').execute();
  return rows.map((r) => ({ ...r, participants: Number(r.participants) }));
}

export function listClientParticipants(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'clients.participants'>,
): Promise<QueryResults['clients.participants']> {
  return db
    .selectFrom('client_participants')
    .select([
      'id',
      'course_id as courseId',
      'first_name as firstName',
      'last_name as lastName',
      'status',
    ])
    .where('client_id', '=', args.clientId)
    .orderBy('last_name')
    .orderBy('first_name')
    .execute();
}

export async function getClient(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): Promise<QueryResults['clients.get']> {
  const client = await db
    .selectFrom('clients')
    .select([
      'id',
      'name',
      'city',
      'base',
      'pending',
      sql<number>`(SELECT count(*) FROM client_participants WHERE client_id = ${id})`.as(
        'participants',
      ),
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!client) return null;
  const courses = await db
    .selectFrom('courses as c')
    .leftJoin('addresses as a', 'a.id', 'c.location_id')
    .leftJoin('course_types as t', 't.id', 'c.course_type_id')
    .select([
      'c.id as id',
      'c.course_number as courseNumber',
      'c.title as title',
      't.name as courseType',
      'c.status as status',
      'c.local_state as localState',
      'c.first_date as firstDate',
      'c.last_date as lastDate',
      sql<number>`(SELECT count(*) FROM course_dates d WHERE d.course_id = c.id)`.as('dates'),
      'a.city as city',
      'a.base as addressBase',
      'c.location_id as locationId',
    ])
    .where('c.local_state', 'is distinct from', 'deleted')
    .where((eb) =>
      eb.or([
        eb('c.client_id', '=', id),
        eb(
          'c.id',
          'in',
          eb.selectFrom('client_participants').select('course_id').where('client_id', '=', id),
        ),
        eb(
          'c.id',
          'in',
          eb.selectFrom('participations').select('course_id').where('client_id', '=', id),
        ),
      ]),
    )
    .orderBy('c.first_date')
    .orderBy('c.id')
    .execute();
  const { base, pending, ...fields } = client;
  return {
    ...fields,
    participants: Number(client.participants),
    attributes: currentAttributes({ base, pending }),
    confirmedAt: confirmedAt(sqlite, 'client', id, 'clients'),
    courses: courses.map(({ addressBase, locationId, ...course }) => {
      // A course created here with a new place has it in its queued create only.
      const place = addressBase
        ? currentAttributes({ base: addressBase, pending: null })
        : locationId && course.localState === 'created'
          ? queuedLocation(sqlite, course.id, locationId)
          : null;
      return {
        ...course,
        city: course.city ?? (typeof place?.city === 'string' ? place.city : null),
        dates: Number(course.dates),
        address: place ? placeLine(place) : null,
      };
    }),
  };
}

const wordOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** An address in one line: description, street (or street name and number), postal code and town. */
export function placeLine(address: Record<string, unknown>): string | null {
  const street =
    wordOf(address.street) ??
    ([wordOf(address.street_name), wordOf(address.street_number)].filter(Boolean).join(' ') ||
      null);
  const town = [wordOf(address.postal_code), wordOf(address.city)].filter(Boolean).join(' ');
  return (
    [wordOf(address.description), street, wordOf(address.address_addition), town]
      .filter(Boolean)
      .join(', ') || null
  );
}

/**
 * Companies of the replica (they come with participations) for a walk-in's company: names that
 * begin with the search first, then those that contain it, each by name. LIKE ignores the case
 * of ASCII letters only: umlauts match as they are typed.
 */
export async function listCompanies(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'companies.list'>,
): Promise<QueryResults['companies.list']> {
  let query = db
    .selectFrom('companies as c')
    .leftJoin('uvts as u', 'u.id', 'c.uvt_id')
    .select(['c.id as id', 'c.name as name', 'c.uvt_id as uvtId', 'u.short_name as uvt']);
  const search = args.search?.trim();
  if (search) {
    const starts = prefixPattern(search);
    query = query
      .where(sql<boolean>`c.name LIKE ${`%${starts}`} ESCAPE '\\'`)
      .orderBy(sql`c.name LIKE ${starts} ESCAPE '\\'`, 'desc');
  }
  return query
    .orderBy(sql`c.name COLLATE NOCASE`)
    .orderBy('c.id')
    .limit(args.limit)
    .execute();
}
