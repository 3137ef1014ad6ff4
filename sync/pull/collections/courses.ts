// Courses come by date window (the service has no change filter for them): the window is read on
// every sync and replaced, unless its answer is byte for byte the one applied last (see
// knownWindowDigest); the first sync of a day applies it whole. Participations and custom fields are replaced per course, for the
// courses the sync's plan names (the near window every sync, the rest on rotation).
// The window's list is every page of both passes of a paged answer (sync/api/core.ts): a course
// that a deletion between two pages hid is still listed, not removed.
import { addDays, addMonths, format } from 'date-fns';
import { collectPages } from '../../api';
import {
  address,
  client,
  company,
  course,
  courseDate,
  courseType,
  customfield,
  participation,
  relatedIds,
  type ServiceResource,
  uvt,
} from '../../resources';
import {
  applyInChunks,
  guardMassDeletion,
  missingIds,
  runCollection,
  type PullContext,
} from '../context';
import { confirm } from '../freshness';
import { pullParents } from '../parents';
import { takeAnswer } from '../quarantine';
import type { SyncOptions } from '../options';
import { recordDigest, replaceChildren } from './whole';

export interface CourseWindow {
  from: string;
  until: string;
}

export function courseWindow(
  options: Pick<SyncOptions, 'today' | 'courseMonthsBack' | 'courseMonthsAhead'>,
): CourseWindow {
  const today = options.today();
  return {
    from: format(addMonths(today, -options.courseMonthsBack), 'yyyy-MM-dd'),
    until: format(addMonths(today, options.courseMonthsAhead), 'yyyy-MM-dd'),
  };
}

/**
 * Where the digest of the last window answer applied is kept: under the window's dates, so that
 * the first sync of a day applies the answer whole whatever it says (anything amiss heals daily).
 */
const WINDOW_DIGESTS = { from: 'courses:', to: 'courses;' };
const windowDigestKey = (window: CourseWindow) => `courses:${window.from}..${window.until}`;

/**
 * The digest of the window's last answer, while the replica holds as many courses as it listed
 * (a course created here or a row gone otherwise makes the answer apply whole again).
 */
function knownWindowDigest(ctx: PullContext, window: CourseWindow): string | undefined {
  if (ctx.options.full) return undefined;
  return ctx.writer
    .statement(
      'SELECT digest FROM answer_digests WHERE key = ? AND records = (SELECT count(*) FROM courses)',
    )
    .pluck()
    .get(windowDigestKey(window)) as string | undefined;
}

export function pullCourses(ctx: PullContext) {
  return runCollection(ctx, 'courses', async () => {
    const window = courseWindow(ctx.options);
    const trainerUserId = ctx.options.profile === 'trainer' ? (ctx.selfId ?? undefined) : undefined;
    const known = knownWindowDigest(ctx, window);
    const answer = await collectPages(
      ctx.api.listCourses({
        from: window.from,
        until: window.until,
        ...(trainerUserId ? { trainerUserId } : {}),
        include: ['course_type', 'client'],
        signal: ctx.signal,
        withDigest: true,
        ...(known === undefined ? {} : { knownDigest: known }),
      }),
    );
    // The very bytes applied last time: the replica holds them already (no course left the
    // window, none came, none changed), so nothing is written and no screen reads again.
    if (answer.unchanged) return { records: 0, deleted: 0, fullScan: true };
    const { data: courses, included, quarantined: unreadable } = answer;
    takeAnswer(ctx, 'courses', '', answer, true);
    const byKey = new Map(included.map((r) => [`${r.type}:${r.id}`, r]));
    const datesOf = (course: ServiceResource) =>
      relatedIds(course, 'dates')
        .map((id) => byKey.get(`course_date:${id}`))
        .filter((d): d is ServiceResource => d !== undefined);

    const { writer } = ctx;
    const ofType = (type: string) => included.filter((r) => r.type === type);
    writer.transaction(() => {
      writer.upsert(
        'course_types',
        ofType('course_type').map((r) => courseType.row(r, ctx.syncedAt)),
      );
      writer.upsert(
        'clients',
        ofType('client').map((r) => client.row(r, ctx.syncedAt)),
      );
      writer.upsert(
        'addresses',
        ofType('address').map((r) => address.row(r, ctx.syncedAt)),
      );
    });
    await applyInChunks(ctx, 'courses', courses, (chunk) => {
      writer.upsert(
        'courses',
        chunk.map((c) => course.row(c, datesOf(c), ctx.syncedAt)),
      );
      const ids = chunk.map((c) => c.id);
      writer.deleteWhereIn('course_dates', 'course_id', ids);
      writer.upsert(
        'course_dates',
        chunk.flatMap((c) => datesOf(c).map((d) => courseDate.row(d, c.id, ctx.syncedAt))),
      );
      writer.deleteWhereIn('course_trainers', 'course_id', ids);
      writer.upsert(
        'course_trainers',
        chunk.flatMap((c) =>
          relatedIds(c, 'trainers').map((userId) => ({ course_id: c.id, user_id: userId })),
        ),
      );
    });

    // Replace inside the window: a course of the window that the service no longer lists is gone.
    const inWindow = {
      where: 'first_date < ? AND last_date >= ?',
      params: [
        format(addDays(new Date(`${window.until}T00:00:00Z`), 1), 'yyyy-MM-dd'),
        window.from,
      ],
    };
    // An unreadable course is still listed: it keeps its row (and its participants).
    const listed = new Set([...courses, ...unreadable].map((c) => c.id));
    const gone = missingIds(ctx, 'courses', listed, inWindow);
    const inWindowCount = ctx.replica.sqlite
      .prepare(`SELECT count(*) FROM courses WHERE ${inWindow.where}`)
      .pluck()
      .get(...inWindow.params) as number;
    guardMassDeletion('courses', inWindowCount, gone.length);
    // A course that slid out of the window is dropped deliberately, with its participants: the
    // sync no longer follows it, and a frozen copy would show counts and states that are wrong
    // (and keep people's data the account may no longer see). Dates unknown: it stays.
    const outside = ctx.writer
      .statement('SELECT id FROM courses WHERE last_date < ? OR first_date >= ?')
      .pluck()
      .all(window.from, inWindow.params[0]) as string[];
    const deleted = writer.transaction(() => {
      const removed = writer.deleteWhereIn('courses', 'id', [...gone, ...outside]);
      // An answer with an unreadable course is never skipped as known: the course is tried again.
      writer
        .statement('DELETE FROM answer_digests WHERE key > ? AND key < ?')
        .run(WINDOW_DIGESTS.from, WINDOW_DIGESTS.to);
      if (answer.digest !== undefined && unreadable.length === 0)
        recordDigest(ctx, windowDigestKey(window), answer.digest, courses.length);
      return removed;
    });
    return { records: courses.length, deleted, fullScan: true };
  });
}

/**
 * Participants and custom fields of the planned courses, each replaced per course; a course whose
 * lists came is confirmed (its "as of"). The near window's courses come every sync and skip an
 * answer identical to the last one applied; the rotation's apply theirs whole, so anything amiss
 * in the replica heals within the rotation's bound.
 */
export async function pullCourseChildren(
  ctx: PullContext,
  near: readonly string[],
  rotation: readonly string[],
): Promise<void> {
  const ids = [...near, ...rotation];
  const withDigests = new Set(ctx.options.full ? [] : near);
  const children = (collection: string, refresh: typeof refreshParticipations) =>
    pullParents(
      ctx,
      {
        collection,
        scope: 'course',
        type: 'course',
        table: 'courses',
        refresh: (id) => refresh(ctx, id, withDigests.has(id)),
      },
      ids,
    );
  // What came is the service as of before it was asked: a change made while the lists were read
  // may be missing, so the confirmation must not claim the time after them.
  const askedAt = ctx.options.now().toISOString();
  const participants = await children('participations', refreshParticipations);
  const fields = await children('customfields', refreshCustomfields);
  // A list the account may not read has nothing to wait for; with neither read, nothing came.
  const came = (list: typeof participants, id: string) => list.refused || list.done.has(id);
  if (!(participants.refused && fields.refused))
    confirm(
      ctx.replica.sqlite,
      'course',
      ids.filter((id) => came(participants, id) && came(fields, id)),
      askedAt,
    );
}

/** One course's participations, with their companies and UVTs, replaced. */
export function refreshParticipations(ctx: PullContext, courseId: string, useDigests: boolean) {
  return replaceChildren(
    ctx,
    {
      collection: 'participations',
      table: 'participations',
      toRow: (r, syncedAt) => participation.row(r, courseId, syncedAt),
      included: {
        company: { table: 'companies', toRow: company.row },
        uvt: { table: 'uvts', toRow: uvt.row },
      },
      parent: { column: 'course_id', id: courseId },
      useDigests,
    },
    (digest) =>
      ctx.api.listParticipations(courseId, {
        include: ['company', 'uvt'],
        signal: ctx.signal,
        ...digest,
      }),
  );
}

/** One course's custom fields, replaced. */
export function refreshCustomfields(ctx: PullContext, courseId: string, useDigests: boolean) {
  return replaceChildren(
    ctx,
    {
      collection: 'customfields',
      table: 'customfields',
      toRow: (r, syncedAt) => customfield.row(r, courseId, syncedAt),
      parent: { column: 'course_id', id: courseId },
      useDigests,
    },
    (digest) => ctx.api.listCustomFields(courseId, { signal: ctx.signal, ...digest }),
  );
}
