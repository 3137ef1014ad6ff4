// Smaller screens: calendars, notifications, reference data, forms, the feed's events, search.
import { sql, type Kysely } from 'kysely';
import type { FormObjectType, ParsedQueryArgs, QueryResults } from '../contract';
import type { Database } from '../db/schema';
import { redactFeedUrl } from '../pull/feed';
import { expandSeries } from '../pull/feed-recur';
import type { Sqlite } from '../db/sqlite';
import {
  byKey,
  containsText,
  currentAttributes,
  prefixPattern,
  type RowOf,
  type WrittenReaders,
} from './record';
import { peopleMatching } from './personnel';

/** A calendars.list item's columns, of the calendars not deleted here. */
function calendarRows(db: Kysely<Database>) {
  return db
    .selectFrom('kalender')
    .select(['id', 'local_state', 'name', 'farbe', 'typ', 'base', 'pending'])
    .where('local_state', 'is distinct from', 'deleted');
}

type CalendarRow = RowOf<typeof calendarRows>;
type CalendarItem = QueryResults['calendars.list'][number];

const calendarItem = (r: CalendarRow): CalendarItem => ({
  id: r.id,
  localState: r.local_state,
  name: r.name,
  farbe: r.farbe,
  typ: r.typ,
  // The address's path is the secret that lets anyone read the calendar: never in a list.
  icalAddress: icalUrlOf(r) === null ? null : redactFeedUrl(icalUrlOf(r)!),
});

const icalUrlOf = (r: CalendarRow): string | null =>
  (currentAttributes(r).ical_url as string | undefined) ?? null;

/** A calendar's private feed address whole (calendars.icalUrl): asked for on purpose. */
export async function calendarIcalUrl(
  db: Kysely<Database>,
  id: string,
): Promise<QueryResults['calendars.icalUrl']> {
  const row = await calendarRows(db).where('id', '=', id).executeTakeFirst();
  return row ? icalUrlOf(row) : null;
}

export async function listCalendars(db: Kysely<Database>): Promise<QueryResults['calendars.list']> {
  return (await calendarRows(db).orderBy('name').execute()).map(calendarItem);
}

/** The calendar `id` as calendars.list gives it (what a write answers); undefined when it shows none. */
export function calendarOf(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): CalendarItem | undefined {
  const row = byKey(sqlite, 'calendars.item', (key) => calendarRows(db).where('id', '=', key)).one(
    id,
  );
  return row && calendarItem(row);
}

/** A notifications.list item's columns, of the notifications not deleted here. */
function notificationRows(db: Kysely<Database>) {
  return db
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
}

type NotificationRow = RowOf<typeof notificationRows>;
type NotificationItem = QueryResults['notifications.list'][number];

function notificationItem(r: NotificationRow): NotificationItem {
  const attributes = currentAttributes(r);
  return {
    id: r.id,
    localState: r.local_state,
    titel: r.titel,
    kategorie: r.kategorie,
    gelesen: attributes.gelesen === true,
    erstelltAm: r.erstellt_am,
    text: typeof attributes.text === 'string' ? attributes.text : null,
    // Only a web address is offered to open; anything else the service sends stays unshown.
    link:
      typeof attributes.link === 'string' && /^https:\/\//i.test(attributes.link)
        ? attributes.link
        : null,
  };
}

export async function listNotifications(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'notifications.list'>,
): Promise<QueryResults['notifications.list']> {
  let query = notificationRows(db);
  if (args.unreadOnly) query = query.where('gelesen', '=', 0);
  return (await query.orderBy('erstellt_am', 'desc').execute()).map(notificationItem);
}

export async function countNotifications(
  db: Kysely<Database>,
): Promise<QueryResults['notifications.count']> {
  const counts = await notificationRows(db)
    .clearSelect()
    .select((eb) => [
      eb.fn.countAll<number>().as('shown'),
      eb.fn
        .sum<number | null>(eb.case().when('gelesen', '=', 0).then(1).else(0).end())
        .as('unread'),
    ])
    .executeTakeFirstOrThrow();
  const size = await db
    .selectFrom('replica_meta')
    .select('value')
    .where('key', '=', 'size:benachrichtigungen')
    .executeTakeFirst();
  const service = size ? Number(size.value) : NaN;
  return {
    unread: Number(counts.unread ?? 0),
    shown: Number(counts.shown),
    service: Number.isInteger(service) ? service : null,
  };
}

/** The notification `id` as notifications.list gives it (what a write answers); undefined when it shows none. */
export function notificationOf(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): NotificationItem | undefined {
  const row = byKey(sqlite, 'notifications.item', (key) =>
    notificationRows(db).where('id', '=', key),
  ).one(id);
  return row && notificationItem(row);
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
    // The UVTs held, and those only a company names (the service offered them nowhere).
    sql<{
      id: string;
      name: string | null;
      shortName: string | null;
      favorite: number | null;
      known: number;
    }>`SELECT u.id, u.name, u.short_name AS shortName, u.favorite, 1 AS known FROM uvts u
       UNION ALL
       SELECT DISTINCT c.uvt_id, NULL, NULL, NULL, 0 FROM companies c
       WHERE c.uvt_id IS NOT NULL AND c.uvt_id NOT IN (SELECT id FROM uvts)
       ORDER BY known DESC, name COLLATE NOCASE, id`
      .execute(db)
      .then((result) => result.rows),
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
    uvts: uvts.map((u) => ({
      ...u,
      favorite: u.favorite === 1,
      known: u.known === 1,
    })),
    taxRates,
  };
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

/** Every form of the replica by its object (forms.all): courses and people named, by kind and name. */
export async function listAllForms(db: Kysely<Database>): Promise<QueryResults['forms.all']> {
  const rows = await db
    .selectFrom('formulare as f')
    .leftJoin('courses as c', (join) =>
      join.onRef('c.id', '=', 'f.objekt_id').on('f.objekt_typ', '=', 'k'),
    )
    .leftJoin('users as u', (join) =>
      join.onRef('u.id', '=', 'f.objekt_id').on('f.objekt_typ', '=', 'u'),
    )
    .select([
      'f.objekt_typ as typ',
      'f.objekt_id as id',
      'f.titel as titel',
      'f.aktion as aktion',
      sql<string | null>`CASE f.objekt_typ
        WHEN 'k' THEN nullif(trim(coalesce(c.course_number, '') || ' ' || coalesce(c.title, '')), '')
        WHEN 'u' THEN nullif(trim(coalesce(u.vorname, '') || ' ' || coalesce(u.nachname, '')), '')
        END`.as('label'),
    ])
    .orderBy(sql`instr('kudtm', f.objekt_typ)`)
    .orderBy(sql`label IS NULL`)
    .orderBy(sql`label COLLATE NOCASE`)
    .orderBy('f.objekt_id')
    .orderBy('f.position')
    .execute();
  const objects: QueryResults['forms.all'] = [];
  for (const row of rows) {
    const last = objects.at(-1);
    const form = {
      titel: row.titel,
      aktion: row.aktion ? (JSON.parse(row.aktion) as unknown) : null,
    };
    if (last && last.typ === row.typ && last.id === row.id) last.forms.push(form);
    else
      objects.push({
        typ: row.typ as FormObjectType,
        id: row.id,
        label: row.label,
        forms: [form],
      });
  }
  return objects;
}

/**
 * The private feed's events whose first day is in the range (feed.events), by start: a repeating
 * event once for each of its occurrences in the range (expanded in its own zone, without those
 * EXDATE excludes and those changed by a VEVENT of their own, which show as that row), each with
 * its own start, end and day and its RECURRENCE-ID as recurrenceId. A series ical.js cannot expand,
 * or a row fetched before migration 11, shows on its first day.
 */
export async function listFeedEvents(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'feed.events'>,
): Promise<QueryResults['feed.events']> {
  const columns = [
    'uid',
    'recurrence_id',
    'summary',
    'description',
    'location',
    'categories',
    'status',
    'all_day',
    'starts_at',
    'ends_at',
    'start_day',
    'rrule',
    'ical',
  ] as const;
  const [single, series] = await Promise.all([
    db
      .selectFrom('feed_events')
      .select(columns)
      .where('start_day', '>=', args.from)
      .where('start_day', '<=', args.until)
      .where('ical', 'is', null)
      .execute(),
    // Every series that began by the range's last day and may reach its first.
    db
      .selectFrom('feed_events')
      .select(columns)
      .where('ical', 'is not', null)
      .where('start_day', '<=', args.until)
      .where((eb) => eb.or([eb('last_day', 'is', null), eb('last_day', '>=', args.from)]))
      .execute(),
  ]);
  // The occurrences changed by a VEVENT of their own, wherever they moved to.
  const changed = new Map<string, Set<string>>();
  if (series.length) {
    const overrides = await db
      .selectFrom('feed_events')
      .select(['uid', 'recurrence_id'])
      .where('recurrence_id', '!=', '')
      .where(
        'uid',
        'in',
        series.map((r) => r.uid),
      )
      .execute();
    for (const { uid, recurrence_id } of overrides) {
      const ids = changed.get(uid) ?? new Set<string>();
      ids.add(recurrence_id);
      changed.set(uid, ids);
    }
  }
  type Row = (typeof single)[number];
  const event = (r: Row, recurring: boolean) => ({
    uid: r.uid,
    recurrenceId: r.recurrence_id,
    summary: r.summary,
    description: r.description,
    location: r.location,
    categories: r.categories,
    status: r.status,
    allDay: r.all_day === 1,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    startDay: r.start_day,
    recurring,
  });
  const seriesUids = new Set(series.map((r) => r.uid));
  const answer: QueryResults['feed.events'] = single.map((r) =>
    event(
      r,
      (r.rrule !== null && r.rrule !== '') || (r.recurrence_id !== '' && seriesUids.has(r.uid)),
    ),
  );
  for (const r of series) {
    const occurrences = expandSeries(r.ical!, args, spanOf(r), changed.get(r.uid));
    if (!occurrences) {
      if (r.start_day >= args.from) answer.push(event(r, true));
      continue;
    }
    for (const occurrence of occurrences) answer.push({ ...event(r, true), ...occurrence });
  }
  return answer.sort(
    (a, b) =>
      compare(a.startDay, b.startDay) ||
      Number(b.allDay) - Number(a.allDay) ||
      compare(a.startsAt, b.startsAt) ||
      compare(a.uid, b.uid) ||
      compare(a.recurrenceId, b.recurrenceId),
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** An event's length: milliseconds, or whole days when all day; null without an end. */
function spanOf(row: {
  all_day: number;
  starts_at: string;
  ends_at: string | null;
}): number | null {
  if (!row.ends_at) return null;
  if (row.all_day === 1)
    return Math.round(
      (Date.parse(`${row.ends_at}T00:00:00Z`) - Date.parse(`${row.starts_at}T00:00:00Z`)) /
        86_400_000,
    );
  const span = Date.parse(row.ends_at) - Date.parse(row.starts_at);
  return Number.isFinite(span) ? span : null;
}

export async function search(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'search'>,
): Promise<QueryResults['search']> {
  const text = args.text.trim();
  const starts = prefixPattern(text.toLocaleLowerCase('de'));
  const [people, courses, participants, occasions, clients] = await Promise.all([
    peopleMatching(db, text)
      .select(['id', sql<string>`nachname || ', ' || vorname`.as('label')])
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
    db
      .selectFrom('helferstunden_anlaesse')
      .select(['id', sql<string>`coalesce(beschreibung, '')`.as('label'), 'datum'])
      .where('local_state', 'is distinct from', 'deleted')
      .where(containsText('beschreibung', text))
      .orderBy('datum', 'desc')
      .limit(args.limit)
      .execute(),
    db
      .selectFrom('clients')
      .select(['id', sql<string>`coalesce(name, '')`.as('label')])
      .where(containsText('name', text))
      .orderBy('name')
      .limit(args.limit)
      .execute(),
  ]);
  return { people, courses, participants, occasions, clients };
}

/** The records of this file's reads that a write answers (merged in written.ts). */
export const writtenInMisc = {
  kalender: calendarOf,
  benachrichtigung: notificationOf,
} satisfies WrittenReaders;
