// Personnel: incremental with filter[updated_since] (office) or the own record (trainer). Each
// user row brings its qualifications and its trainings, which the user resource usually embeds;
// so no request per person is needed for trainings (important under the service's rate limit).
// A user resource without the embedded list keeps its trainings, and they come from the
// per-person endpoint instead (pullEndpointTrainings).
import { collectPages, type Page } from '../../api';
import {
  ausbildungRow,
  embeddedAusbildungen,
  organisationRow,
  qualifikationRows,
  userRow,
  type ServiceResource,
} from '../../db/rows';
import {
  applyInChunks,
  forEachItem,
  guardMassDeletion,
  isFullScan,
  isGone,
  isPeriodicFullRun,
  missingIds,
  progressBatches,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';
import { releaseUnlisted, takeAnswer } from '../quarantine';
import { replaceRows } from './whole';

export function pullPersonal(ctx: PullContext) {
  return runCollection(ctx, 'personal', async (state) => {
    if (ctx.options.profile === 'trainer') {
      const own = await ctx.api.getOwnUser({ signal: ctx.signal });
      takeAnswer(ctx, 'personal', '', { ...own, data: [own.data] }, false);
      await applyUsers(ctx, [own.data], 0);
      return {
        records: 1,
        deleted: 0,
        fullScan: true,
        watermark: watermarkAt(ctx, own.serverDate),
      };
    }

    let fullScan = isFullScan(ctx, state);
    let pages = await fetchAll(ctx, fullScan ? undefined : (state.watermark ?? undefined));
    // A service clock behind our watermark means a restored service: start over with a full scan.
    if (
      !fullScan &&
      state.watermark &&
      pages.serverDate &&
      pages.serverDate.getTime() < Date.parse(state.watermark)
    ) {
      fullScan = true;
      pages = await fetchAll(ctx);
    }
    const seen = new Set<string>();
    let done = 0;
    for (const page of pages.list) {
      takeAnswer(ctx, 'personal', '', page, false);
      // An unreadable person is still listed: not a deletion.
      for (const user of [...page.data, ...page.quarantined]) seen.add(user.id);
      const organisations = page.included.filter((r) => r.type === 'organisation');
      if (organisations.length) {
        ctx.writer.transaction(() =>
          ctx.writer.upsert(
            'organisations',
            organisations.map((o) => organisationRow(o, ctx.syncedAt)),
          ),
        );
      }
      await applyUsers(ctx, page.data, done);
      done += page.data.length;
    }
    let deleted = 0;
    if (fullScan) {
      releaseUnlisted(ctx, 'personal', '', seen);
      const gone = missingIds(ctx, 'users', seen);
      guardMassDeletion(
        'personal',
        ctx.replica.sqlite.prepare('SELECT count(*) FROM users').pluck().get() as number,
        gone.length,
      );
      ctx.writer.transaction(() => {
        deleted = ctx.writer.deleteWhereIn('users', 'id', gone);
      });
    }
    return { records: done, deleted, fullScan, watermark: watermarkAt(ctx, pages.serverDate) };
  });
}

async function fetchAll(ctx: PullContext, updatedSince?: string) {
  const list: Page<ServiceResource>[] = [];
  let serverDate: Date | null = null;
  for await (const page of ctx.api.listPersonal({
    ...(updatedSince ? { updatedSince } : {}),
    include: ['organisation'],
    signal: ctx.signal,
  })) {
    serverDate ??= page.serverDate;
    list.push(page);
  }
  return { list, serverDate };
}

/** Users with their qualifications and embedded trainings, replaced per user, in chunks. */
async function applyUsers(
  ctx: PullContext,
  users: readonly ServiceResource[],
  progressBase: number,
) {
  const { writer } = ctx;
  await applyInChunks(
    ctx,
    'personal',
    users,
    (chunk) => {
      writer.upsert(
        'users',
        chunk.map((u) => userRow(u, ctx.syncedAt)),
      );
      const ids = chunk.map((u) => u.id);
      writer.deleteWhereIn('qualifikationen', 'user_id', ids);
      writer.upsert('qualifikationen', chunk.flatMap(qualifikationRows));
      // Without the embedded list the trainings stay as they are and come from their endpoint.
      const embedding = chunk.filter(embedsTrainings);
      writer.deleteWhereIn(
        'ausbildungen',
        'user_id',
        embedding.map((u) => u.id),
      );
      writer.upsert(
        'ausbildungen',
        embedding.flatMap((u) =>
          embeddedAusbildungen(u).map((a) => ausbildungRow(a, u.id, ctx.syncedAt)),
        ),
      );
      const markSource = writer.statement(
        'UPDATE users SET trainings_from_endpoint = ? WHERE id = ? AND trainings_from_endpoint <> ?',
      );
      for (const user of chunk) {
        const fromEndpoint = embedsTrainings(user) ? 0 : 1;
        markSource.run(fromEndpoint, user.id, fromEndpoint);
      }
    },
    progressBase,
  );
}

/** null, "" and an absent member all say "not embedded" (an empty list says "no trainings"). */
function embedsTrainings(user: ServiceResource): boolean {
  return Array.isArray(user.attributes?.ausbildungen);
}

/**
 * Trainings of the people whose user resource does not embed them, from
 * GET /personal/{id}/ausbildungen: at most options.personDetailsPerSync people per sync, those
 * never fetched first, each with its own watermark (filter[updated_since]); a periodic full run
 * replaces a person's list whole, which finds deleted trainings.
 */
export function pullEndpointTrainings(ctx: PullContext) {
  return runCollection(ctx, 'ausbildungen', async (state) => {
    const fullRun = isPeriodicFullRun(ctx, state);
    const people = ctx.replica.sqlite
      .prepare(
        `SELECT id, trainings_watermark FROM users WHERE trainings_from_endpoint = 1
         ORDER BY trainings_watermark IS NOT NULL, trainings_watermark, id LIMIT ?`,
      )
      .all(ctx.options.full ? -1 : ctx.options.personDetailsPerSync) as {
      id: string;
      trainings_watermark: string | null;
    }[];
    let records = 0;
    let deleted = 0;
    let done = 0;
    const watermarks = progressBatches(
      ctx,
      'UPDATE users SET trainings_watermark = ? WHERE id = ?',
    );
    try {
      await forEachItem(
        ctx,
        'ausbildungen',
        people,
        (person) => ({ type: 'user', id: person.id }),
        async (person) => {
          const since = fullRun ? null : person.trainings_watermark;
          try {
            const answer = await collectPages(
              ctx.api.listAusbildungen(person.id, {
                ...(since ? { updatedSince: since } : {}),
                signal: ctx.signal,
              }),
            );
            takeAnswer(ctx, 'ausbildungen', person.id, answer, since === null);
            const toRow = (a: ServiceResource, syncedAt: string) =>
              ausbildungRow(a, person.id, syncedAt);
            if (since) {
              ctx.writer.transaction(() =>
                ctx.writer.upsert(
                  'ausbildungen',
                  answer.data.map((a) => toRow(a, ctx.syncedAt)),
                ),
              );
            } else {
              deleted += await replaceRows(
                ctx,
                {
                  collection: 'ausbildungen',
                  table: 'ausbildungen',
                  toRow,
                  scope: { where: 'user_id = ?', params: [person.id] },
                },
                answer,
              );
            }
            records += answer.data.length;
            // Progress per person: the next sync goes on from here, whatever happens later.
            const watermark = answer.quarantined.length
              ? undefined
              : watermarkAt(ctx, answer.serverDate);
            if (watermark) watermarks.add(watermark, person.id);
          } catch (error) {
            if (!isGone(error)) throw error;
            deleted += ctx.writer.transaction(() =>
              ctx.writer.deleteWhereIn('users', 'id', [person.id]),
            );
          }
          done += 1;
          ctx.progress({ collection: 'ausbildungen', done, total: people.length });
        },
      );
    } finally {
      watermarks.flush();
    }
    return {
      records,
      deleted,
      fullScan: fullRun,
      remaining: remainingPeople(ctx, 'trainings_watermark', 'trainings_from_endpoint = 1'),
    };
  });
}

/** People whose per-person lists have never been fetched: "500 of 1,000 people so far". */
export function remainingPeople(ctx: PullContext, watermarkColumn: string, where = '1 = 1') {
  const { total, done } = ctx.replica.sqlite
    .prepare(
      `SELECT count(*) AS total, count(${watermarkColumn}) AS done FROM users WHERE ${where}`,
    )
    .get() as { total: number; done: number };
  return done < total ? { done, total, what: 'people' } : undefined;
}
