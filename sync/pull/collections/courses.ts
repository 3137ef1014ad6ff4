// Courses come by date window (the service has no change filter for them): the window is
// replaced on every sync. Participations and custom fields are replaced per course.
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
  isPeriodicFullRun,
  missingIds,
  runCollection,
  type PullContext,
} from '../context';
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
 * Runs `work` for every course in the replica with bounded concurrency, as one collection. Every
 * fullScanEvery-th run (and with --full) answers are applied even when unchanged: `useDigests` false.
 */
function perCourse(
  ctx: PullContext,
  collection: string,
  work: (courseId: string, useDigests: boolean) => Promise<{ records: number; deleted: number }>,
) {
  return runCollection(ctx, collection, async (state) => {
    const fullScan = isPeriodicFullRun(ctx, state);
    const courseIds = ctx.replica.sqlite
      .prepare('SELECT id FROM courses ORDER BY id')
      .pluck()
      .all() as string[];
    let records = 0;
    let deleted = 0;
    let done = 0;
    await forEachItem(
      ctx,
      collection,
      courseIds,
      (id) => ({ type: 'course', id }),
      async (courseId) => {
        try {
          const outcome = await work(courseId, !fullScan);
          records += outcome.records;
          deleted += outcome.deleted;
        } catch (error) {
          if (!isGone(error)) throw error;
          // The course was deleted on the service: so is it here, with its participants and fields.
          deleted += ctx.writer.transaction(() =>
            ctx.writer.deleteWhereIn('courses', 'id', [courseId]),
          );
        }
        done += 1;
        ctx.progress({ collection, done, total: courseIds.length });
      },
    );
    return {
      records,
      deleted,
      fullScan,
      watermark: fullScan ? new Date().toISOString() : undefined,
    };
  });
}

/** Participations of every course in the replica, with their companies and UVTs, replaced per course. */
export function pullParticipations(ctx: PullContext) {
  return perCourse(ctx, 'participations', (courseId, useDigests) =>
    replaceChildren(
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
    ),
  );
}

/** Custom fields of every course in the replica, replaced per course. */
export function pullCustomfields(ctx: PullContext) {
  return perCourse(ctx, 'customfields', (courseId, useDigests) =>
    replaceChildren(
      ctx,
      {
        collection: 'customfields',
        table: 'customfields',
        toRow: (r, syncedAt) => customfieldRow(r, courseId, syncedAt),
        parent: { column: 'course_id', id: courseId },
        useDigests,
      },
      (digest) => ctx.api.listCustomFields(courseId, { signal: ctx.signal, ...digest }),
    ),
  );
}
