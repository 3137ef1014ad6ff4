// What an export reads from the replica, as plain records: local truth (the service's last version
// with pending local changes), records deleted locally left out. Date filters are Berlin days,
// decided on the instant (a date-time without an offset is Berlin wall-clock time, see berlin.ts).
import type { Sqlite } from '../db/sqlite';
import { sql, type Kysely } from 'kysely';
import { notFound } from '../core-error';
import type { Replica } from '../db/open';
import type { Database } from '../db/schema';
import { participantCompany } from '../queries/courses';
import { currentAttributes } from '../queries/record';
import { berlinIsoDate, serviceInstant } from '../contract/service-time';

export interface DayRange {
  from?: string | undefined;
  until?: string | undefined;
}

/** Whether the Berlin day of the instant lies in the range (both ends included). */
function inRange(ms: number, range: DayRange): boolean {
  if (!range.from && !range.until) return true;
  const day = berlinIsoDate(ms);
  return (!range.from || day >= range.from) && (!range.until || day <= range.until);
}

/** A day before and after the range: the rows' own offsets decide exactly (inRange). */
function widened(range: DayRange): { low: string | null; high: string | null } {
  const shift = (day: string, days: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  return {
    low: range.from ? shift(range.from, -1) : null,
    high: range.until ? `${shift(range.until, 1)}T99` : null,
  };
}

export function selfIdOf(sqlite: Sqlite): string | null {
  return (
    (sqlite.prepare("SELECT value FROM replica_meta WHERE key = 'self_id'").pluck().get() as
      string | undefined) ?? null
  );
}

/** 'self' as the signed-in user's id; a replica that never learnt it cannot answer. */
export function resolveSelf(sqlite: Sqlite, id: string | undefined): string | undefined {
  if (id !== 'self') return id;
  const self = selfIdOf(sqlite);
  if (!self)
    throw notFound(
      'Der angemeldete Benutzer ist im Replikat noch nicht bekannt: erst synchronisieren.',
      'The signed-in user is not known in the replica yet: sync first.',
    );
  return self;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** "Description, Street 1, Addition, 12345 Town" of an address row's local truth. */
function addressLine(base: string | null): string | null {
  if (!base) return null;
  const a = currentAttributes({ base, pending: null });
  const town = [text(a.postal_code), text(a.city)].filter(Boolean).join(' ');
  const line = [text(a.description), text(a.street), text(a.address_addition), town]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
  return line || null;
}

export interface CourseInfo {
  id: string;
  title: string | null;
  courseNumber: string | null;
  status: string | null;
  courseType: string | null;
  client: string | null;
  location: string | null;
  participants: number;
  maxParticipants: number | null;
  trainers: string[];
}

export interface CourseDateRecord {
  id: string;
  course: CourseInfo;
  /** 1-based place among the course's dates (by start), and how many it has. */
  position: number;
  of: number;
  start: number;
  end: number | null;
}

interface CourseRow {
  id: string;
  title: string | null;
  course_number: string | null;
  status: string | null;
  course_type: string | null;
  client: string | null;
  location_base: string | null;
  max_participants: number | null;
  participants: number;
}

async function courseInfos(
  db: Kysely<Database>,
  ids: readonly string[] | null,
  trainerId: string | undefined,
): Promise<Map<string, CourseInfo>> {
  let query = db
    .selectFrom('courses as c')
    .leftJoin('course_types as t', 't.id', 'c.course_type_id')
    .leftJoin('clients as cl', 'cl.id', 'c.client_id')
    .leftJoin('addresses as a', 'a.id', 'c.location_id')
    .select([
      'c.id as id',
      'c.title as title',
      'c.course_number as course_number',
      'c.status as status',
      't.name as course_type',
      'cl.name as client',
      'a.base as location_base',
      'c.max_participants as max_participants',
      sql<number>`(SELECT count(*) FROM participations p WHERE p.course_id = c.id AND coalesce(p.status, '') <> 'cancelled' AND p.local_state IS NOT 'deleted')`.as(
        'participants',
      ),
    ])
    .where('c.local_state', 'is distinct from', 'deleted');
  if (ids) query = query.where('c.id', 'in', ids.length ? ids : ['']);
  if (trainerId)
    query = query.where('c.id', 'in', (eb) =>
      eb.selectFrom('course_trainers').select('course_id').where('user_id', '=', trainerId),
    );
  const rows = (await query.execute()) as CourseRow[];
  const trainers = await db
    .selectFrom('course_trainers as ct')
    .innerJoin('users as u', 'u.id', 'ct.user_id')
    .select(['ct.course_id as courseId', 'u.vorname as vorname', 'u.nachname as nachname'])
    .where('ct.course_id', 'in', rows.length ? rows.map((r) => r.id) : [''])
    .orderBy('u.nachname')
    .orderBy('u.vorname')
    .execute();
  const names = new Map<string, string[]>();
  for (const t of trainers) {
    const list = names.get(t.courseId) ?? [];
    list.push(`${t.vorname} ${t.nachname}`.trim());
    names.set(t.courseId, list);
  }
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        title: r.title,
        courseNumber: r.course_number,
        status: r.status,
        courseType: r.course_type,
        client: r.client,
        location: addressLine(r.location_base),
        participants: Number(r.participants),
        maxParticipants: r.max_participants,
        trainers: names.get(r.id) ?? [],
      },
    ]),
  );
}

/** One course, or not_found in words. */
export async function courseInfo(db: Kysely<Database>, courseId: string): Promise<CourseInfo> {
  const course = (await courseInfos(db, [courseId], undefined)).get(courseId);
  if (!course)
    throw notFound(
      `Den Kurs ${courseId} gibt es im Replikat nicht (gelöscht, außerhalb des synchronisierten Zeitraums, oder noch nie synchronisiert).`,
      `There is no course ${courseId} in the replica (deleted, outside the synced range, or never synced).`,
    );
  return course;
}

/** The dates of the courses that match, oldest first; a course without a start is left out. */
export async function readCourseDates(
  db: Kysely<Database>,
  filter: DayRange & { courseId?: string | undefined; trainerId?: string | undefined },
): Promise<CourseDateRecord[]> {
  const courses = await courseInfos(
    db,
    filter.courseId ? [filter.courseId] : null,
    filter.trainerId,
  );
  if (filter.courseId && !courses.has(filter.courseId)) await courseInfo(db, filter.courseId);
  const ids = [...courses.keys()];
  if (!ids.length) return [];
  // Every date of these courses: a date's place among its course's dates does not depend on the range.
  const rows = await db
    .selectFrom('course_dates')
    .select(['id', 'course_id', 'date_from', 'date_to'])
    .where('course_id', 'in', ids)
    .execute();
  const byCourse = new Map<string, { id: string; start: number; end: number | null }[]>();
  for (const row of rows) {
    const start = serviceInstant(row.date_from);
    if (start === null) continue;
    const list = byCourse.get(row.course_id) ?? [];
    list.push({ id: row.id, start, end: serviceInstant(row.date_to) });
    byCourse.set(row.course_id, list);
  }
  const result: CourseDateRecord[] = [];
  for (const [courseId, dates] of byCourse) {
    dates.sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    dates.forEach((date, index) => {
      if (!inRange(date.start, filter)) return;
      result.push({
        id: date.id,
        course: courses.get(courseId)!,
        position: index + 1,
        of: dates.length,
        start: date.start,
        end: date.end !== null && date.end > date.start ? date.end : null,
      });
    });
  }
  return result.sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export interface HourRecord {
  id: string;
  userId: string | null;
  /** "Nachname, Vorname", or null for a person not in the replica. */
  userName: string | null;
  start: number;
  end: number | null;
  stunden: number | null;
  approved: boolean | null;
  anlass: string | null;
  anlassTyp: string | null;
  typ: string | null;
}

/**
 * Hour entries as the hours screen filters them, oldest first: one statement, read row by row as
 * arrays (the fastest way out of better-sqlite3 for 100,000 entries).
 */
export function readHours(
  sqlite: Sqlite,
  filter: DayRange & {
    userId?: string | undefined;
    anlassId?: string | undefined;
    typId?: string | undefined;
    approved?: boolean | undefined;
  },
): HourRecord[] {
  const conditions = ["h.local_state IS NOT 'deleted'"];
  const params: (string | number)[] = [];
  const { low, high } = widened(filter);
  if (filter.userId) {
    // As the hours screen counts one's own (queries/hours.ts): an entry created here has no
    // person until the service takes it, and it is the signed-in user's.
    conditions.push(
      filter.userId === selfIdOf(sqlite)
        ? "(h.user_id = ? OR (h.user_id IS NULL AND h.local_state = 'created'))"
        : 'h.user_id = ?',
    );
    params.push(filter.userId);
  }
  if (low) {
    conditions.push('h.von >= ?');
    params.push(low);
  }
  if (high) {
    conditions.push('h.von < ?');
    params.push(high);
  }
  if (filter.anlassId) {
    conditions.push('h.anlass_id = ?');
    params.push(filter.anlassId);
  }
  if (filter.typId) {
    conditions.push('h.typ_id = ?');
    params.push(filter.typId);
  }
  if (filter.approved !== undefined) {
    conditions.push('h.freigegeben = ?');
    params.push(filter.approved ? 1 : 0);
  }
  const statement = sqlite
    .prepare(
      `SELECT h.id, h.user_id, CASE WHEN u.id IS NULL THEN NULL ELSE u.nachname || ', ' || u.vorname END,
         h.von, h.bis, h.stunden, h.freigegeben, a.beschreibung, a.typ, t.bezeichnung
       FROM helferstunden h
       LEFT JOIN users u ON u.id = h.user_id
       LEFT JOIN helferstunden_anlaesse a ON a.id = h.anlass_id
       LEFT JOIN helferstunden_typen t ON t.id = h.typ_id
       WHERE ${conditions.join(' AND ')}
       ORDER BY h.von, h.id`,
    )
    .raw(true);
  const result: HourRecord[] = [];
  for (const row of statement.iterate(...params) as Iterable<unknown[]>) {
    const start = serviceInstant(row[3] as string | null);
    if (start === null || !inRange(start, filter)) continue;
    const end = serviceInstant(row[4] as string | null);
    const stunden = row[5] as number | null;
    result.push({
      id: row[0] as string,
      userId: row[1] as string | null,
      userName: row[2] as string | null,
      start,
      end: end !== null && end > start ? end : null,
      stunden,
      approved: row[6] === null ? null : row[6] === 1,
      anlass: row[7] as string | null,
      anlassTyp: row[8] as string | null,
      typ: row[9] as string | null,
    });
  }
  return result;
}

export interface ParticipantRecord {
  id: string;
  firstName: string;
  lastName: string;
  company: string | null;
  /** YYYY-MM-DD, or '' when not known. */
  birthday: string;
  email: string;
  phone: string;
  status: string | null;
  attended: boolean | null;
  /** The certificate's number the service keeps for the participation, '' when none. */
  certificateNumber: string;
}

/** A course's participants by last and first name (German order), cancelled ones only when asked. */
export async function readParticipants(
  { db, sqlite }: Replica,
  courseId: string,
  includeCancelled: boolean,
): Promise<ParticipantRecord[]> {
  let query = db
    .selectFrom('participations as p')
    .leftJoin('companies as co', 'co.id', 'p.company_id')
    .select([
      'p.id as id',
      'p.first_name as firstName',
      'p.last_name as lastName',
      'p.status as status',
      'p.attended as attended',
      'co.name as company',
      'p.company_id as companyId',
      'p.base as base',
      'p.pending as pending',
    ])
    .where('p.course_id', '=', courseId)
    .where('p.local_state', 'is distinct from', 'deleted');
  if (!includeCancelled) query = query.where(sql<boolean>`coalesce(p.status, '') <> 'cancelled'`);
  const rows = await query.execute();
  const collator = new Intl.Collator('de', { sensitivity: 'base', numeric: true });
  return rows
    .map((row) => {
      const attributes = currentAttributes(row);
      const birthday = text(attributes.birthday).slice(0, 10);
      return {
        id: row.id,
        firstName: row.firstName ?? '',
        lastName: row.lastName ?? '',
        company: participantCompany(sqlite, row),
        birthday: /^\d{4}-\d{2}-\d{2}$/.test(birthday) ? birthday : '',
        email: text(attributes.email),
        phone: text(attributes.phone),
        status: row.status,
        attended: row.attended === null ? null : row.attended === 1,
        certificateNumber: text(attributes.certificate_number).trim(),
      };
    })
    .sort(
      (a, b) =>
        collator.compare(a.lastName, b.lastName) ||
        collator.compare(a.firstName, b.firstName) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}

export interface FeedEventRecord {
  uid: string;
  recurrenceId: string;
  summary: string | null;
  description: string | null;
  location: string | null;
  categories: string | null;
  status: string | null;
  allDay: boolean;
  /** Timed: UTC instants. All-day: the first day and the day after the last (YYYY-MM-DD). */
  start: number;
  end: number | null;
  startDay: string;
  endDay: string | null;
  rrule: string | null;
  sequence: number;
  /**
   * The series' stored text (feed_events.ical): a repeating event's own, and for a changed
   * occurrence its series' (whose zone its RECURRENCE-ID is written in); null for a single event.
   */
  seriesIcal: string | null;
}

/** The private feed's events as the last readable fetch left them, by start. */
export async function readFeedEvents(
  db: Kysely<Database>,
  range: DayRange,
): Promise<FeedEventRecord[]> {
  let query = db.selectFrom('feed_events').selectAll();
  if (range.from) query = query.where('start_day', '>=', range.from);
  if (range.until) query = query.where('start_day', '<=', range.until);
  const rows = await query.orderBy('start_day').orderBy('starts_at').orderBy('uid').execute();
  // The series of each changed occurrence, also where it began before the range.
  const changed = [...new Set(rows.filter((r) => r.recurrence_id !== '').map((r) => r.uid))];
  const series = new Map(
    (changed.length
      ? await db
          .selectFrom('feed_events')
          .select(['uid', 'ical'])
          .where('recurrence_id', '=', '')
          .where('uid', 'in', changed)
          .execute()
      : []
    ).map((row) => [row.uid, row]),
  );
  return rows.map((row) => {
    const own = row.recurrence_id === '' ? row : series.get(row.uid);
    const allDay = row.all_day === 1;
    const start = allDay ? Date.parse(`${row.starts_at}T00:00:00Z`) : Date.parse(row.starts_at);
    const end = row.ends_at
      ? allDay
        ? Date.parse(`${row.ends_at}T00:00:00Z`)
        : Date.parse(row.ends_at)
      : null;
    return {
      uid: row.uid,
      recurrenceId: row.recurrence_id,
      summary: row.summary,
      description: row.description,
      location: row.location,
      categories: row.categories,
      status: row.status,
      allDay,
      start,
      end: end !== null && Number.isFinite(end) ? end : null,
      startDay: allDay ? row.starts_at : row.start_day,
      endDay: allDay ? row.ends_at : null,
      rrule: row.rrule,
      sequence: row.sequence,
      seriesIcal: own?.ical ?? null,
    };
  });
}
