import type { Sqlite } from '../db/sqlite';
import { sql, type Kysely } from 'kysely';
import { prepared } from '../db/statements';
import { confirmedAt } from './freshness';
import type {
  CourseDetail,
  CourseListItem,
  ParsedQueryArgs,
  ParticipationItem,
  QueryResults,
} from '../contract';
import type { Database } from '../db/schema';
import {
  asBool,
  byKey,
  containsText,
  currentAttributes,
  type RowOf,
  type WrittenReaders,
} from './record';

function courseListQuery(db: Kysely<Database>) {
  return db
    .selectFrom('courses as c')
    .leftJoin('course_types as t', 't.id', 'c.course_type_id')
    .leftJoin('addresses as a', 'a.id', 'c.location_id')
    .leftJoin('clients as cl', 'cl.id', 'c.client_id');
}

const listColumns = [
  'c.id as id',
  'c.local_state as localState',
  'c.title as title',
  'c.course_number as courseNumber',
  'c.status as status',
  't.name as courseType',
  'c.first_date as firstDate',
  'c.last_date as lastDate',
  'a.city as city',
  'c.max_participants as maxParticipants',
  'cl.name as client',
] as const;

/**
 * The filters courses.list and courses.days share, over `courses c`: a trainer (`self`: the
 * signed-in user; unknown yet: nobody), course type and client (courses.list's only), and a
 * search anywhere in the title or the course number,
 * ignoring case and diacritics ("2026-46" and "fb-2026" find "EH-FB-2026-46"): what courseFoundBy
 * (sync/contract/search-text.ts) says in the page.
 */
function courseConditions(
  args: {
    trainerId?: string | undefined;
    search?: string | undefined;
    courseTypeId?: string | undefined;
    clientId?: string | undefined;
  },
  selfId: string | null,
) {
  const conditions = [sql`1`];
  // Plain equalities on the course's own columns: they narrow the date index's range.
  if (args.courseTypeId) conditions.push(sql`c.course_type_id = ${args.courseTypeId}`);
  if (args.clientId) conditions.push(sql`c.client_id = ${args.clientId}`);
  if (args.trainerId) {
    const trainerId = args.trainerId === 'self' ? (selfId ?? '') : args.trainerId;
    conditions.push(
      sql`c.id IN (SELECT course_id FROM course_trainers WHERE user_id = ${trainerId})`,
    );
  }
  if (args.search?.trim()) {
    const text = args.search.trim();
    conditions.push(
      sql`(${containsText('c.title', text)} OR ${containsText('c.course_number', text)})`,
    );
  }
  return sql<boolean>`${sql.join(conditions, sql` AND `)}`;
}

const participantCount = sql<number>`(SELECT count(*) FROM participations p WHERE p.course_id = c.id AND coalesce(p.status, '') <> 'cancelled')`;

export async function listCourses(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'courses.list'>,
  selfId: string | null,
): Promise<QueryResults['courses.list']> {
  let query = courseListQuery(db);
  if (args.from) query = query.where('c.last_date', '>=', args.from);
  if (args.until) query = query.where('c.first_date', '<', `${args.until}T99`);
  if (args.status?.length) query = query.where('c.status', 'in', args.status);
  query = query.where(courseConditions(args, selfId));
  const total = Number(
    (await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const orderColumn =
    args.sort === 'title' ? 'c.title' : args.sort === 'number' ? 'c.course_number' : 'c.first_date';
  const items = await query
    .select([...listColumns, participantCount.as('participants')])
    .orderBy(orderColumn)
    .orderBy('c.id')
    .limit(args.limit)
    .offset(args.offset)
    .execute();
  return { total, items: items.map((i) => ({ ...i, participants: Number(i.participants) })) };
}

/** The people who train a course of the replica, by name; those unknown by name last. */
export async function listCourseTrainers(
  db: Kysely<Database>,
): Promise<QueryResults['courses.trainers']> {
  const rows = await db
    .selectFrom('course_trainers as ct')
    .leftJoin('users as u', 'u.id', 'ct.user_id')
    .select([
      'ct.user_id as id',
      sql<
        string | null
      >`CASE WHEN u.id IS NULL THEN NULL ELSE u.nachname || ', ' || u.vorname END`.as('name'),
      (eb) => eb.fn.countAll<number>().as('courses'),
    ])
    .groupBy('ct.user_id')
    .orderBy(sql`u.id IS NULL`)
    .orderBy(sql`u.nachname COLLATE NOCASE`)
    .orderBy(sql`u.vorname COLLATE NOCASE`)
    .orderBy('ct.user_id')
    .execute();
  return rows.map((row) => ({ ...row, courses: Number(row.courses) }));
}

/**
 * The trainer's day plan: one row per course date, oldest first. A date belongs to a day by its
 * first ten characters (the service's local day). Its place among its course's dates is counted
 * over all of them, whatever the filters leave.
 */
export async function listCourseDays(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'courses.days'>,
  selfId: string | null,
): Promise<QueryResults['courses.days']> {
  let query = courseListQuery(db)
    .innerJoin('course_dates as d', 'd.course_id', 'c.id')
    .where('c.local_state', 'is distinct from', 'deleted')
    .where(courseConditions(args, selfId));
  if (args.from) query = query.where('d.date_from', '>=', args.from);
  if (args.until) query = query.where('d.date_from', '<', `${args.until}T99`);
  const counts = await query
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      (args.anchor
        ? sql<number>`coalesce(sum(d.date_from < ${args.anchor}), 0)`
        : sql<number>`0`
      ).as('before'),
    ])
    .executeTakeFirstOrThrow();
  const rows = await query
    .select([
      ...listColumns.filter((column) => column !== 'c.id as id'),
      'c.id as courseId',
      'd.id as dateId',
      'd.date_from as from',
      'd.date_to as to',
      participantCount.as('participants'),
      sql<number>`(SELECT count(*) FROM course_dates o WHERE o.course_id = d.course_id AND (coalesce(o.date_from, '') < coalesce(d.date_from, '') OR (coalesce(o.date_from, '') = coalesce(d.date_from, '') AND o.id <= d.id)))`.as(
        'dayNumber',
      ),
      sql<number>`(SELECT count(*) FROM course_dates o WHERE o.course_id = d.course_id)`.as(
        'dayCount',
      ),
    ])
    .orderBy('d.date_from')
    .orderBy('d.id')
    .limit(args.limit)
    .offset(args.offset)
    .execute();
  return {
    total: Number(counts.total),
    anchorIndex: Number(counts.before),
    items: rows.map((row) => ({
      ...row,
      participants: Number(row.participants),
      dayNumber: Number(row.dayNumber),
      dayCount: Number(row.dayCount),
    })),
  };
}

/** A course as courses.get gives it: its queries kept per connection, as a write answers it. */
export function getCourse(db: Kysely<Database>, sqlite: Sqlite, id: string): CourseDetail | null {
  const course = byKey(sqlite, 'courses.get', (key) =>
    courseListQuery(db)
      .select([
        ...listColumns,
        participantCount.as('participants'),
        'c.base as base',
        'c.pending as pending',
        'c.client_id as clientId',
        'c.location_id as locationId',
        'a.base as locationBase',
      ])
      .where('c.id', '=', key),
  ).one(id);
  if (!course) return null;
  const dates = byKey(sqlite, 'courses.dates', (key) =>
    db
      .selectFrom('course_dates')
      .select(['id', 'date_from as from', 'date_to as to'])
      .where('course_id', '=', key)
      .orderBy('date_from'),
  ).all(id);
  const client = course.clientId
    ? byKey(sqlite, 'courses.client', (key) =>
        db.selectFrom('clients').select(['id', 'name']).where('id', '=', key),
      ).one(course.clientId)
    : undefined;
  const trainers = byKey(sqlite, 'courses.trainers', (key) =>
    db
      .selectFrom('course_trainers as ct')
      .leftJoin('users as u', 'u.id', 'ct.user_id')
      .select([
        'ct.user_id as id',
        sql<
          string | null
        >`CASE WHEN u.id IS NULL THEN NULL ELSE u.vorname || ' ' || u.nachname END`.as('name'),
      ])
      .where('ct.course_id', '=', key),
  ).all(id);
  const item: Omit<CourseListItem, 'client'> = {
    id: course.id,
    localState: course.localState,
    title: course.title,
    courseNumber: course.courseNumber,
    status: course.status,
    courseType: course.courseType,
    firstDate: course.firstDate,
    lastDate: course.lastDate,
    city: course.city,
    maxParticipants: course.maxParticipants,
    participants: Number(course.participants),
  };
  return {
    ...item,
    attributes: currentAttributes(course),
    dates,
    location: course.locationBase
      ? currentAttributes({ base: course.locationBase, pending: null })
      : course.locationId
        ? queuedLocation(sqlite, id, course.locationId)
        : null,
    client: client ?? null,
    trainers,
    customfields: courseCustomfields(sqlite, db, id),
    confirmedAt: confirmedAt(sqlite, 'course', id, 'courses'),
  };
}

/** A custom field's columns as courses.get gives them, of the fields not deleted here. */
function customfieldRows(db: Kysely<Database>) {
  return db
    .selectFrom('customfields')
    .select(['id', 'local_state', 'name', 'field_type', 'base', 'pending'])
    .where('local_state', 'is distinct from', 'deleted');
}

type CustomfieldRow = RowOf<typeof customfieldRows>;
type CustomfieldItem = CourseDetail['customfields'][number];

const customfieldItem = (f: CustomfieldRow): CustomfieldItem => ({
  id: f.id,
  localState: f.local_state,
  name: f.name,
  fieldType: f.field_type,
  attributes: currentAttributes(f),
});

/** A course's custom fields not deleted here, as courses.get gives them. */
function courseCustomfields(sqlite: Sqlite, db: Kysely<Database>, courseId: string) {
  return byKey(sqlite, 'courses.customfields', (key) =>
    customfieldRows(db).where('course_id', '=', key).orderBy('position'),
  )
    .all(courseId)
    .map(customfieldItem);
}

/** The custom field `id` as courses.get gives it (what a write answers); undefined when it shows none. */
export function customfieldOf(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): CustomfieldItem | undefined {
  const row = byKey(sqlite, 'courses.customfield', (key) =>
    customfieldRows(db).where('id', '=', key),
  ).one(id);
  return row && customfieldItem(row);
}

/** A participations.list item's columns (`participations p`, its company and accident insurer). */
function participationRows(db: Kysely<Database>) {
  return db
    .selectFrom('participations as p')
    .leftJoin('companies as co', 'co.id', 'p.company_id')
    .leftJoin('uvts as u', 'u.id', 'p.uvt_id')
    .select([
      'p.id as id',
      'p.local_state as localState',
      'p.first_name as firstName',
      'p.last_name as lastName',
      'p.status as status',
      'p.attended as attended',
      'co.name as company',
      'u.short_name as uvt',
      'p.company_id as companyId',
      'p.uvt_id as uvtId',
      'p.base as base',
      'p.pending as pending',
    ]);
}

type ParticipationRow = RowOf<typeof participationRows>;

const participationItem = (
  sqlite: Sqlite,
  { base, pending, ...row }: ParticipationRow,
): ParticipationItem => ({
  ...row,
  company: participantCompany(sqlite, row),
  attended: asBool(row.attended),
  attributes: currentAttributes({ base, pending }),
});

/** A course's participations. */
export async function listParticipations(
  db: Kysely<Database>,
  sqlite: Sqlite,
  args: ParsedQueryArgs<'participations.list'>,
): Promise<ParticipationItem[]> {
  let query = participationRows(db).where('p.course_id', '=', args.courseId);
  if (!args.includeCancelled)
    query = query.where(sql<boolean>`coalesce(p.status, '') <> 'cancelled'`);
  const rows = await query.orderBy('p.last_name').orderBy('p.first_name').orderBy('p.id').execute();
  return rows.map((row) => participationItem(sqlite, row));
}

/** The participation `id` as participations.list gives it (what a write answers), whatever its course. */
export function participationOf(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): ParticipationItem | undefined {
  const row = byKey(sqlite, 'participations.item', (key) =>
    participationRows(db).where('p.id', '=', key),
  ).one(id);
  return row && participationItem(sqlite, row);
}

/**
 * A participant's company: the replica's; or one created with a walk-in's participation, which
 * lives only in that queued operation's `included` until the service has it, so that lists and
 * exports show it at once.
 */
export function participantCompany(
  sqlite: Sqlite,
  participation: { id: string; company: string | null; companyId: string | null },
): string | null {
  if (participation.company !== null || participation.companyId === null)
    return participation.company;
  return queuedCompanyName(sqlite, participation.id, participation.companyId);
}

function queuedCompanyName(
  sqlite: Sqlite,
  participationId: string,
  companyId: string,
): string | null {
  const queued = prepared(
    sqlite,
    "SELECT args FROM outbox WHERE record_type = 'participation' AND record_id = ? AND state <> 'done' ORDER BY id DESC",
  )
    .pluck()
    .all(participationId) as string[];
  for (const text of queued) {
    const args = JSON.parse(text) as {
      included?: { type?: string; id?: string; attributes?: { name?: unknown } }[];
    };
    const company = args.included?.find((item) => item.type === 'company' && item.id === companyId);
    if (typeof company?.attributes?.name === 'string') return company.attributes.name;
  }
  return null;
}

/**
 * A course created here with a new location: the address lives only in the queued create's
 * `included` until the service has it, so that the course shows its place at once.
 */
export function queuedLocation(
  sqlite: Sqlite,
  courseId: string,
  locationId: string,
): Record<string, unknown> | null {
  const queued = prepared(
    sqlite,
    "SELECT args FROM outbox WHERE record_type = 'course' AND record_id = ? AND state <> 'done' ORDER BY id DESC",
  )
    .pluck()
    .all(courseId) as string[];
  for (const text of queued) {
    const args = JSON.parse(text) as {
      included?: { type?: string; id?: string; attributes?: Record<string, unknown> }[];
    };
    const address = args.included?.find(
      (item) => item.type === 'address' && item.id === locationId,
    );
    if (address?.attributes) return address.attributes;
  }
  return null;
}

/** The records of this file's reads that a write answers (merged in written.ts). */
export const writtenInCourses = {
  course: getCourse,
  participation: participationOf,
  customfield: customfieldOf,
} satisfies WrittenReaders;
