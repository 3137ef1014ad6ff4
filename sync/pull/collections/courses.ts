// Courses come by date window (the service has no change filter for them): the window is
// replaced on every sync. Participations and custom fields are replaced per course, for the
// courses the sync's plan names (the near window every sync, the rest on rotation).
import { addDays, addMonths, format } from 'date-fns';
import type { Page } from '../../api';
import {
  addressRow,
  clientRow,
  companyRow,
  courseDateRow,
  courseRow,
  courseTypeRow,
  customfieldRow,
  participationRow,
  relatedIds,
  uvtRow,
  type ServiceResource,
} from '../../db/rows';
import {
  applyInChunks,
  forEachItem,
  guardMassDeletion,
  isGone,
  missingIds,
  runCollection,
  type PullContext,
} from '../context';
import { confirm } from '../freshness';
import { takeAnswer } from '../quarantine';
import type { SyncOptions } from '../options';
import { replaceChildren } from './whole';

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

export function pullCourses(ctx: PullContext) {
  return runCollection(ctx, 'courses', async () => {
    const window = courseWindow(ctx.options);
    const trainerUserId = ctx.options.profile === 'trainer' ? (ctx.selfId ?? undefined) : undefined;
    const pages: Page<ServiceResource>[] = [];
    for await (const page of ctx.api.listCourses({
      from: window.from,
      until: window.until,
      ...(trainerUserId ? { trainerUserId } : {}),
      include: ['course_type', 'client'],
      signal: ctx.signal,
    })) {
      pages.push(page);
    }
    const courses = pages.flatMap((p) => p.data);
    const included = pages.flatMap((p) => p.included);
    const unreadable = pages.flatMap((p) => p.quarantined);
    takeAnswer(
      ctx,
      'courses',
      '',
      {
        data: courses,
        included,
        quarantined: unreadable,
        conversions: pages.reduce((sum, p) => sum + p.conversions, 0),
      },
      true,
    );
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
        ofType('course_type').map((r) => courseTypeRow(r, ctx.syncedAt)),
      );
      writer.upsert(
        'clients',
        ofType('client').map((r) => clientRow(r, ctx.syncedAt)),
      );
      writer.upsert(
        'addresses',
        ofType('address').map((r) => addressRow(r, ctx.syncedAt)),
      );
    });
    await applyInChunks(ctx, 'courses', courses, (chunk) => {
      writer.upsert(
        'courses',
        chunk.map((c) => courseRow(c, datesOf(c), ctx.syncedAt)),
      );
      const ids = chunk.map((c) => c.id);
      writer.deleteWhereIn('course_dates', 'course_id', ids);
      writer.upsert(
        'course_dates',
        chunk.flatMap((c) => datesOf(c).map((d) => courseDateRow(d, c.id, ctx.syncedAt))),
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
    const deleted = writer.transaction(() => writer.deleteWhereIn('courses', 'id', gone));
    return { records: courses.length, deleted, fullScan: true };
  });
}

/**
 * Runs `work` for each of the planned courses with bounded concurrency, as one collection, and
 * answers the courses whose work succeeded (a course deleted on the service is deleted here).
 */
async function perCourse(
  ctx: PullContext,
  collection: string,
  courseIds: readonly string[],
  work: (courseId: string, useDigests: boolean) => Promise<{ records: number; deleted: number }>,
): Promise<Set<string>> {
  const done = new Set<string>();
  await runCollection(ctx, collection, async () => {
    let records = 0;
    let deleted = 0;
    await forEachItem(
      ctx,
      collection,
      courseIds,
      (id) => ({ type: 'course', id }),
      async (courseId) => {
        try {
          const outcome = await work(courseId, !ctx.options.full);
          records += outcome.records;
          deleted += outcome.deleted;
          done.add(courseId);
        } catch (error) {
          if (!isGone(error)) throw error;
          // The course was deleted on the service: so is it here, with its participants and fields.
          deleted += ctx.writer.transaction(() =>
            ctx.writer.deleteWhereIn('courses', 'id', [courseId]),
          );
        }
        ctx.progress({ collection, done: done.size, total: courseIds.length });
      },
    );
    return { records, deleted, fullScan: false };
  });
  return done;
}

/**
 * Participants and custom fields of the planned courses, each replaced per course; a course whose
 * two lists both came is confirmed (its "as of").
 */
export async function pullCourseChildren(
  ctx: PullContext,
  courseIds: readonly string[],
): Promise<void> {
  const participants = await perCourse(ctx, 'participations', courseIds, (courseId, useDigests) =>
    refreshParticipations(ctx, courseId, useDigests),
  );
  const fields = await perCourse(ctx, 'customfields', courseIds, (courseId, useDigests) =>
    refreshCustomfields(ctx, courseId, useDigests),
  );
  confirm(
    ctx.replica.sqlite,
    'course',
    courseIds.filter((id) => participants.has(id) && fields.has(id)),
    ctx.options.now().toISOString(),
  );
}

/** One course's participations, with their companies and UVTs, replaced. */
export function refreshParticipations(ctx: PullContext, courseId: string, useDigests: boolean) {
  return replaceChildren(
    ctx,
    {
      collection: 'participations',
      table: 'participations',
      toRow: (r, syncedAt) => participationRow(r, courseId, syncedAt),
      included: {
        company: { table: 'companies', toRow: companyRow },
        uvt: { table: 'uvts', toRow: uvtRow },
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
      toRow: (r, syncedAt) => customfieldRow(r, courseId, syncedAt),
      parent: { column: 'course_id', id: courseId },
      useDigests,
    },
    (digest) => ctx.api.listCustomFields(courseId, { signal: ctx.signal, ...digest }),
  );
}
