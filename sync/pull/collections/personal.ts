// Personnel: incremental with filter[updated_since] (office) or the own record (trainer). Each
// user row brings its qualifications and its trainings, which the user resource embeds; so no
// request per person is needed for trainings (important under the service's rate limit).
import type { Page } from '../../api';
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
  guardMassDeletion,
  isFullScan,
  missingIds,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';

export function pullPersonal(ctx: PullContext) {
  return runCollection(ctx, 'personal', async (state) => {
    if (ctx.options.profile === 'trainer') {
      const own = await ctx.api.getOwnUser({ signal: ctx.signal });
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
      for (const user of page.data) seen.add(user.id);
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
      writer.deleteWhereIn('ausbildungen', 'user_id', ids);
      writer.upsert(
        'ausbildungen',
        chunk.flatMap((u) =>
          embeddedAusbildungen(u).map((a) => ausbildungRow(a, u.id, ctx.syncedAt)),
        ),
      );
    },
    progressBase,
  );
}
