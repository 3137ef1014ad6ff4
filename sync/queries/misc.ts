// Smaller screens: calendars, notifications, reference data, clients, forms, search.
import { sql, type Kysely } from 'kysely';
import type { ParsedQueryArgs, QueryResults } from '../contract';
import type { Database } from '../db/schema';
import { searchKey } from '../resources';
import { containsText, currentAttributes, prefixPattern, prefixRange } from './record';

/** `only`: the calendar with this id (what a write answers). */
export async function listCalendars(
  db: Kysely<Database>,
  only?: string,
): Promise<QueryResults['calendars.list']> {
  let query = db
    .selectFrom('kalender')
    .select(['id', 'local_state', 'name', 'farbe', 'typ', 'base', 'pending'])
    .where('local_state', 'is distinct from', 'deleted');
  if (only !== undefined) query = query.where('id', '=', only);
  const rows = await query.orderBy('name').execute();
  return rows.map((r) => ({
    id: r.id,
    localState: r.local_state,
    name: r.name,
    farbe: r.farbe,
    typ: r.typ,
    icalUrl: (currentAttributes(r).ical_url as string | undefined) ?? null,
  }));
}

/** `only`: the notification with this id (what a write answers). */
export async function listNotifications(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'notifications.list'>,
  only?: string,
): Promise<QueryResults['notifications.list']> {
  let query = db
    .selectFrom('benachrichtigungen')
    .select([
      'id',
      'local_state',
      'titel',
      'kategorie',
      'gelesen',
      'erstellt_am',
      'base',
      'pending',
    ])
    .where('local_state', 'is distinct from', 'deleted');
  if (args.unreadOnly) query = query.where('gelesen', '=', 0);
  if (only !== undefined) query = query.where('id', '=', only);
  const rows = await query.orderBy('erstellt_am', 'desc').execute();
  return rows.map((r) => {
    const attributes = currentAttributes(r);
    return {
      id: r.id,
      localState: r.local_state,
      titel: r.titel,
      kategorie: r.kategorie,
      gelesen: attributes.gelesen === true,
      erstelltAm: r.erstellt_am,
      text: typeof attributes.text === 'string' ? attributes.text : null,
    };
  });
}

export async function listHourTypes(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'hours.types'>,
): Promise<QueryResults['hours.types']> {
  let query = db.selectFrom('helferstunden_typen').select(['id', 'bezeichnung', 'aktiv']);
  if (args.activeOnly) query = query.where('aktiv', '=', 1);
  const rows = await query.orderBy('bezeichnung').execute();
  return rows.map((r) => ({ id: r.id, bezeichnung: r.bezeichnung, aktiv: r.aktiv === 1 }));
}

export async function referenceData(db: Kysely<Database>): Promise<QueryResults['reference.get']> {
  const [singletons, courseTypes, uvts, taxRates] = await Promise.all([
    db
      .selectFrom('singletons')
      .select(['key', 'base', 'pending'])
      .where('key', 'in', ['orga', 'userinfo'])
      .execute(),
    db
      .selectFrom('course_types')
      .select(['id', 'name', 'short_name as shortName'])
      .orderBy('name')
      .execute(),
    db
      .selectFrom('uvts')
      .select(['id', 'name', 'short_name as shortName', 'favorite'])
      .orderBy('name')
      .execute(),
    db
      .selectFrom('steuersaetze')
      .select(['id', 'bezeichnung', 'satz', 'gueltig_ab as gueltigAb'])
      .orderBy('satz', 'desc')
      .execute(),
  ]);
  const orga = singletons.find((s) => s.key === 'orga');
  const user = singletons.find((s) => s.key === 'userinfo');
  return {
    organisation: orga ? currentAttributes(orga) : null,
    // The user-info is a plain JSON document, stored whole as its base.
    user: user ? (JSON.parse(user.base) as Record<string, unknown>) : null,
    courseTypes,
    uvts: uvts.map((u) => ({ ...u, favorite: u.favorite === 1 })),
    taxRates,
  };
}

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

export async function listForms(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'forms.list'>,
): Promise<QueryResults['forms.list']> {
  const rows = await db
    .selectFrom('formulare')
    .select(['titel', 'aktion'])
    .where('objekt_typ', '=', args.typ)
    .where('objekt_id', '=', args.id)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({
    titel: r.titel,
    aktion: r.aktion ? (JSON.parse(r.aktion) as unknown) : null,
  }));
}

export async function search(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'search'>,
): Promise<QueryResults['search']> {
  const text = args.text.trim();
  const starts = prefixPattern(text.toLocaleLowerCase('de'));
  const [people, courses, participants] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', sql<string>`nachname || ', ' || vorname`.as('label')])
      .where((eb) => {
        const [low, high] = prefixRange(searchKey(text));
        return eb.or([
          eb.and([eb('sort_name', '>=', low), eb('sort_name', '<', high)]),
          eb.and([eb('first_name_key', '>=', low), eb('first_name_key', '<', high)]),
        ]);
      })
      .orderBy('sort_name')
      .limit(args.limit)
      .execute(),
    db
      .selectFrom('courses')
      .select([
        'id',
        sql<string>`coalesce(course_number, '') || ' ' || coalesce(title, '')`.as('label'),
      ])
      .where((eb) => eb.or([containsText('title', text), containsText('course_number', text)]))
      .orderBy('first_date')
      .limit(args.limit)
      .execute(),
    db
      .selectFrom('participations')
      .select([
        'id',
        'course_id as courseId',
        sql<string>`coalesce(last_name, '') || ', ' || coalesce(first_name, '')`.as('label'),
      ])
      .where((eb) =>
        eb.or([
          sql<boolean>`last_name LIKE ${starts} ESCAPE '\\' COLLATE NOCASE`,
          sql<boolean>`first_name LIKE ${starts} ESCAPE '\\' COLLATE NOCASE`,
        ]),
      )
      .orderBy('last_name')
      .limit(args.limit)
      .execute(),
  ]);
  return { people, courses, participants };
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
