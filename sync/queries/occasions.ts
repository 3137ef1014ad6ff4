// The occasions of volunteer hours (Anlässe) with the course each is about, and the hours a
// trainer could enter for the course days taught (hours.suggestions), which offer such an occasion.
import { sql, type Kysely } from 'kysely';
import type { ParsedQueryArgs, QueryResults } from '../contract';
import type { Database } from '../db/schema';
import type { Sqlite } from '../db/sqlite';
import { addDays, serviceWallClock } from '../contract/service-time';
import { byKey, prefixPattern, type RowOf, type WrittenReaders } from './record';
import { hoursWhere } from './hours';

// The course an occasion is about: its `referenz` when that is a course, else, for an occasion
// of type `kurs`, the course whose number its description names in parentheses, as the service's
// own course occasions and the trainer's drafts write it: "Erste Hilfe (EH-2026-17)". The service
// links occasions only to services and appointments; a course reference is taken should it ever
// send one.
const COURSE_REFERENCE_TYPES = ['course'];

/** The course numbers an occasion's description names in parentheses. */
function courseNumbersIn(beschreibung: string | null): string[] {
  return [...(beschreibung ?? '').matchAll(/\(([^()]+)\)/g)].map((match) => match[1]!.trim());
}

/** An hours.occasions item's columns, of the occasions not deleted here (`helferstunden_anlaesse a`). */
function occasionRows(db: Kysely<Database>) {
  return db
    .selectFrom('helferstunden_anlaesse as a')
    .select([
      'a.id as id',
      'a.local_state as localState',
      'a.typ as typ',
      'a.beschreibung as beschreibung',
      'a.datum as datum',
      'a.referenz_type as referenzType',
      'a.referenz_id as referenzId',
    ])
    .where('a.local_state', 'is distinct from', 'deleted');
}

type OccasionRow = RowOf<typeof occasionRows>;

export async function listOccasions(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'hours.occasions'>,
): Promise<QueryResults['hours.occasions']> {
  let query = occasionRows(db);
  const search = args.search?.trim();
  if (search)
    query = query.where(
      sql<boolean>`a.beschreibung LIKE ${`%${prefixPattern(search)}`} ESCAPE '\\'`,
    );
  const rows = await query
    .orderBy('a.datum', 'desc')
    .orderBy('a.id', 'desc')
    .limit(args.limit)
    .execute();
  return occasionItems(db, rows);
}

/** The occasion `id` as hours.occasions gives it (what a write answers); undefined when it shows none. */
export async function occasionOf(
  db: Kysely<Database>,
  sqlite: Sqlite,
  id: string,
): Promise<QueryResults['hours.occasions'][number] | undefined> {
  const row = byKey(sqlite, 'hours.occasion', (key) =>
    occasionRows(db).where('a.id', '=', key),
  ).one(id);
  return row && (await occasionItems(db, [row]))[0];
}

/** The occasions with the course each is about (see courseNumbersIn). */
async function occasionItems(
  db: Kysely<Database>,
  rows: readonly OccasionRow[],
): Promise<QueryResults['hours.occasions']> {
  const numbers = [
    ...new Set(
      rows.filter((r) => r.typ === 'kurs').flatMap((r) => courseNumbersIn(r.beschreibung)),
    ),
  ];
  const courseByNumber = new Map<string, string>();
  if (numbers.length > 0) {
    const courses = await db
      .selectFrom('courses')
      .select(['id', 'course_number'])
      .where('course_number', 'in', numbers)
      .orderBy('first_date', 'desc')
      .execute();
    for (const course of courses)
      if (course.course_number && !courseByNumber.has(course.course_number))
        courseByNumber.set(course.course_number, course.id);
  }
  return rows.map(({ referenzType, referenzId, ...row }) => ({
    ...row,
    courseId:
      referenzType !== null && COURSE_REFERENCE_TYPES.includes(referenzType)
        ? referenzId
        : row.typ === 'kurs'
          ? (courseNumbersIn(row.beschreibung)
              .map((number) => courseByNumber.get(number))
              .find((id) => id !== undefined) ?? null)
          : null,
  }));
}

/** The days before today that hours.suggestions looks at by default. */
export const SUGGESTION_DAYS = 60;

/**
 * Course days the signed-in trainer taught (courses not cancelled, dates begun by now) in the
 * range, without an own hours entry on that day. `stunden` is the date's length rounded to a
 * quarter hour, at least 0.25; a date without an end (or one not after its start) gets 0.25, the
 * smallest entry, for the trainer to correct.
 */
export async function hourSuggestions(
  db: Kysely<Database>,
  args: ParsedQueryArgs<'hours.suggestions'>,
  selfId: string | null,
  now: Date,
): Promise<QueryResults['hours.suggestions']> {
  if (!selfId) return [];
  const wallClock = serviceWallClock(now);
  const today = wallClock.slice(0, 10);
  const from = args.from ?? addDays(today, -SUGGESTION_DAYS);
  const until = args.until ?? today;
  const rows = await db
    .selectFrom('course_dates as d')
    .innerJoin('courses as c', 'c.id', 'd.course_id')
    .select([
      'c.id as courseId',
      'c.title as title',
      'c.course_number as courseNumber',
      'd.id as dateId',
      'd.date_from as from',
      'd.date_to as to',
    ])
    .where('c.local_state', 'is distinct from', 'deleted')
    .where(sql<boolean>`coalesce(c.status, '') <> 'cancelled'`)
    .where(sql<boolean>`c.id IN (SELECT course_id FROM course_trainers WHERE user_id = ${selfId})`)
    .where('d.date_from', '>=', from)
    .where('d.date_from', '<', `${until}T99`)
    .where(sql<boolean>`substr(d.date_from, 1, 19) <= ${wallClock}`)
    .where(
      sql<boolean>`NOT EXISTS (SELECT 1 FROM helferstunden h WHERE ${hoursWhere({ userId: selfId, selfId })} AND h.von >= substr(d.date_from, 1, 10) AND h.von < substr(d.date_from, 1, 10) || 'T99')`,
    )
    .orderBy('d.date_from', 'desc')
    .orderBy('d.id', 'desc')
    .execute();
  const occasions = await courseOccasions(
    db,
    rows.map((r) => ({ id: r.courseId, number: r.courseNumber })),
  );
  return rows.flatMap((row) =>
    row.from === null
      ? []
      : [
          {
            ...row,
            from: row.from,
            stunden: quarterHours(row.from, row.to),
            occasionId: occasions.get(row.courseId) ?? null,
          },
        ],
  );
}

/** The length from `from` to `to` in hours, rounded to a quarter, at least 0.25. */
export function quarterHours(from: string, to: string | null): number {
  const length = to === null ? NaN : (Date.parse(to) - Date.parse(from)) / 3_600_000;
  if (!Number.isFinite(length)) return 0.25;
  return Math.max(0.25, Math.round(length * 4) / 4);
}

/** For each course, an occasion (not deleted) about it, the newest first (see courseNumbersIn). */
async function courseOccasions(
  db: Kysely<Database>,
  courses: { id: string; number: string | null }[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (courses.length === 0) return found;
  const ids = [...new Set(courses.map((c) => c.id))];
  const byNumber = new Map(
    courses.filter((c) => c.number).map((c) => [c.number as string, c.id] as const),
  );
  const rows = await db
    .selectFrom('helferstunden_anlaesse as a')
    .select(['a.id', 'a.typ', 'a.beschreibung', 'a.referenz_type', 'a.referenz_id'])
    .where('a.local_state', 'is distinct from', 'deleted')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('a.referenz_type', 'in', COURSE_REFERENCE_TYPES),
          eb('a.referenz_id', 'in', ids),
        ]),
        ...[...byNumber.keys()].map((number) =>
          eb.and([
            eb('a.typ', '=', 'kurs'),
            sql<boolean>`a.beschreibung LIKE ${`%(${prefixPattern(number).slice(0, -1)})%`} ESCAPE '\\'`,
          ]),
        ),
      ]),
    )
    .orderBy('a.datum', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  for (const row of rows) {
    const courseIds =
      row.referenz_type !== null && COURSE_REFERENCE_TYPES.includes(row.referenz_type)
        ? [row.referenz_id]
        : courseNumbersIn(row.beschreibung).map((number) => byNumber.get(number));
    for (const id of courseIds) if (id && !found.has(id)) found.set(id, row.id);
  }
  return found;
}

/** The records of this file's reads that a write answers (merged in written.ts). */
export const writtenInOccasions = {
  helferstunden_anlass: occasionOf,
} satisfies WrittenReaders;
