import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { confirmedAt } from './freshness';
import type {
  CourseDetail,
  CourseListItem,
  ParsedQueryArgs,
  ParticipationItem,
  QueryResults,
} from '../contract';
import type { Database } from '../db/schema';
import { asBool, currentAttributes, prefixPattern } from './record';

function courseListQuery(db: Kysely<Database>) {
  return db
    .selectFrom('courses as c')
    .leftJoin('course_types as t', 't.id', 'c.course_type_id')
    .leftJoin('addresses as a', 'a.id', 'c.location_id');
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
] as const;

const participantCount = sql<number>`(SELECT count(*) FROM participations p WHERE p.course_id = c.id AND coalesce(p.status, '') <> 'cancelled')`;

export async function listCourses(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'courses.list'>,
  selfId: string | null,
): Promise<QueryResults['courses.list']> {
  let query = courseListQuery(db);
  if (args.from) query = query.where('c.last_date', '>=', args.from);
  if (args.until) query = query.where('c.first_date', '<', `${args.until}T99`);
  const trainerId = args.trainerId === 'self' ? selfId : args.trainerId;
  if (args.trainerId) {
    query = query.where('c.id', 'in', (eb) =>
      eb
        .selectFrom('course_trainers')
        .select('course_id')
        .where('user_id', '=', trainerId ?? ''),
    );
  }
  if (args.status?.length) query = query.where('c.status', 'in', args.status);
  if (args.search?.trim()) {
    const pattern = prefixPattern(args.search.trim());
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`c.title LIKE ${`%${pattern}`} ESCAPE '\\'`,
        sql<boolean>`c.course_number LIKE ${pattern} ESCAPE '\\'`,
      ]),
    );
  }
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

export async function getCourse(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  id: string,
): Promise<CourseDetail | null> {
  const course = await courseListQuery(db)
    .select([
      ...listColumns,
      participantCount.as('participants'),
      'c.base as base',
      'c.pending as pending',
      'c.client_id as clientId',
      'a.base as locationBase',
    ])
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!course) return null;
  const [dates, client, trainers, customfields] = await Promise.all([
    db
      .selectFrom('course_dates')
      .select(['id', 'date_from as from', 'date_to as to'])
      .where('course_id', '=', id)
      .orderBy('date_from')
      .execute(),
    course.clientId
      ? db
          .selectFrom('clients')
          .select(['id', 'name'])
          .where('id', '=', course.clientId)
          .executeTakeFirst()
      : undefined,
    db
      .selectFrom('course_trainers as ct')
      .leftJoin('users as u', 'u.id', 'ct.user_id')
      .select([
        'ct.user_id as id',
        sql<
          string | null
        >`CASE WHEN u.id IS NULL THEN NULL ELSE u.vorname || ' ' || u.nachname END`.as('name'),
      ])
      .where('ct.course_id', '=', id)
      .execute(),
    db
      .selectFrom('customfields')
      .select(['id', 'local_state', 'name', 'field_type', 'base', 'pending'])
      .where('course_id', '=', id)
      .where('local_state', 'is distinct from', 'deleted')
      .orderBy('position')
      .execute(),
  ]);
  const item: CourseListItem = {
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
      : null,
    client: client ?? null,
    trainers,
    customfields: customfields.map((f) => ({
      id: f.id,
      localState: f.local_state,
      name: f.name,
      fieldType: f.field_type,
      attributes: currentAttributes(f),
    })),
    confirmedAt: confirmedAt(sqlite, 'course', id, 'courses'),
  };
}

export async function listParticipations(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'participations.list'>,
): Promise<ParticipationItem[]> {
  let query = db
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
      'p.base as base',
      'p.pending as pending',
    ])
    .where('p.course_id', '=', args.courseId);
  if (!args.includeCancelled)
    query = query.where(sql<boolean>`coalesce(p.status, '') <> 'cancelled'`);
  const rows = await query.orderBy('p.last_name').orderBy('p.first_name').orderBy('p.id').execute();
  return rows.map(({ base, pending, ...row }) => ({
    ...row,
    attended: asBool(row.attended),
    attributes: currentAttributes({ base, pending }),
  }));
}
