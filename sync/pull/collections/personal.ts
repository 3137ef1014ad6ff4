// Personnel: incremental with filter[updated_since] (office) or the own record (trainer). Each
// user row brings its qualifications and its trainings, which the user resource usually embeds;
// so no request per person is needed for trainings (important under the service's rate limit).
// A user resource without the embedded list keeps its trainings, and they come from the
// per-person endpoint instead (pullEndpointTrainings).
// On a paging service the id scan and the incremental pull read every page of both passes of
// the list (sync/api/core.ts): a person is listed when either pass names them, so a deletion
// between two pages neither removes an unrelated person nor loses an edit.
import { collectPages, type Page } from '../../api';
import {
  ausbildung,
  embeddedAusbildungen,
  organisation,
  qualifikationRows,
  type ServiceResource,
  user,
} from '../../resources';
import {
  applyInChunks,
  guardMassDeletion,
  missingIds,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';
import { confirm } from '../freshness';
import { pullParents } from '../parents';
import { releaseUnlisted, takeAnswer } from '../quarantine';
import { remainingInRotation } from './person-details';
import { replaceRows } from './whole';

/**
 * The office's people: changed since the watermark, or, when `scan` (the plan's id scan that finds
 * deletions; no watermark yet; --full), everyone, with those no longer listed removed.
 */
export function pullPersonal(ctx: PullContext, scan: boolean) {
  return runCollection(ctx, 'personal', async (state) => {
    if (ctx.options.profile === 'trainer') {
      const own = await ctx.api.getOwnUser({ signal: ctx.signal });
      takeAnswer(ctx, 'personal', '', { ...own, data: [own.data] }, false);
      await applyUsers(ctx, [personRows(ctx)(own.data)], 0);
      return {
        records: 1,
        deleted: 0,
        fullScan: true,
        watermark: watermarkAt(ctx, own.serverDate),
      };
    }

    let fullScan = scan || state.watermark === null;
    let pages = await fetchAll(ctx, fullScan ? undefined : (state.watermark ?? undefined));
    // The service's clock behind our watermark: it was set back, and what changes now carries
    // times before the watermark, so start over with a full scan. (A service restored from a
    // backup keeps its clock: that is noticed by content, see sync/pull/restore.ts.)
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
            organisations.map((o) => organisation.row(o, ctx.syncedAt)),
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

/**
 * Every page of the list, each person already turned into their rows: the list (21 MB at scale
 * `large`) is read as it arrives and only the rows are kept, not the resources. Nothing is written
 * before the last page was read whole (DESIGN rule 14): a cut-off answer changes nothing.
 */
async function fetchAll(ctx: PullContext, updatedSince?: string) {
  const list: Page<PersonRows>[] = [];
  let serverDate: Date | null = null;
  for await (const page of ctx.api.listPersonalAs(personRows(ctx), {
    ...(updatedSince ? { updatedSince } : {}),
    include: ['organisation'],
    signal: ctx.signal,
  })) {
    serverDate ??= page.serverDate;
    list.push(page);
  }
  return { list, serverDate };
}

/** A person as the pull writes them: their row, qualifications and embedded trainings. */
interface PersonRows {
  id: string;
  user: ReturnType<typeof user.row>;
  qualifikationen: ReturnType<typeof qualifikationRows>;
  /** null: the resource does not embed the trainings; they stay and come from their endpoint. */
  ausbildungen: ReturnType<typeof ausbildung.row>[] | null;
}

/** Turns a person's resource into their rows (see PersonRows). */
function personRows(ctx: PullContext) {
  return (resource: ServiceResource): PersonRows => ({
    id: resource.id,
    user: user.row(resource, ctx.syncedAt),
    qualifikationen: qualifikationRows(resource),
    ausbildungen: embedsTrainings(resource)
      ? embeddedAusbildungen(resource).map((a) => ausbildung.row(a, resource.id, ctx.syncedAt))
      : null,
  });
}

/** Users with their qualifications and embedded trainings, replaced per user, in chunks. */
async function applyUsers(ctx: PullContext, people: readonly PersonRows[], progressBase: number) {
  const { writer } = ctx;
  await applyInChunks(
    ctx,
    'personal',
    people,
    (chunk) => {
      writer.upsert(
        'users',
        chunk.map((p) => p.user),
      );
      const ids = chunk.map((p) => p.id);
      writer.deleteWhereIn('qualifikationen', 'user_id', ids);
      writer.upsert(
        'qualifikationen',
        chunk.flatMap((p) => p.qualifikationen),
      );
      // Without the embedded list the trainings stay as they are and come from their endpoint.
      const embedding = chunk.filter((p) => p.ausbildungen !== null);
      writer.deleteWhereIn(
        'ausbildungen',
        'user_id',
        embedding.map((p) => p.id),
      );
      writer.upsert(
        'ausbildungen',
        embedding.flatMap((p) => p.ausbildungen ?? []),
      );
      const markSource = writer.statement(
        'UPDATE users SET trainings_from_endpoint = ? WHERE id = ? AND trainings_from_endpoint <> ?',
      );
      for (const person of chunk) {
        const fromEndpoint = person.ausbildungen === null ? 1 : 0;
        markSource.run(fromEndpoint, person.id, fromEndpoint);
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
 * GET /personal/{id}/ausbildungen, for the people the sync's plan names: each list fetched whole
 * and replaced (which finds deleted trainings), and the person confirmed.
 */
export async function pullEndpointTrainings(ctx: PullContext, people: readonly string[]) {
  // Confirmed as of before the first request: a change made while they were read may be missing.
  const askedAt = ctx.options.now().toISOString();
  const { done: refreshed } = await pullParents(
    ctx,
    {
      scope: 'trainings',
      collection: 'ausbildungen',
      type: 'user',
      table: 'users',
      refresh: (id) => refreshEndpointTrainings(ctx, id),
    },
    people,
  );
  confirm(ctx.replica.sqlite, 'trainings', [...refreshed], askedAt);
  const result = ctx.results.get('ausbildungen');
  const remaining = remainingInRotation(ctx, 'trainings');
  if (result && remaining) result.remaining = remaining;
}

/** One person's trainings from their endpoint, replaced; a person gone (404) is removed here. */
export async function refreshEndpointTrainings(ctx: PullContext, userId: string) {
  const answer = await collectPages(ctx.api.listAusbildungen(userId, { signal: ctx.signal }));
  takeAnswer(ctx, 'ausbildungen', userId, answer, true);
  const deleted = await replaceRows(
    ctx,
    {
      collection: 'ausbildungen',
      table: 'ausbildungen',
      toRow: (a: ServiceResource, syncedAt: string) => ausbildung.row(a, userId, syncedAt),
      scope: { where: 'user_id = ?', params: [userId] },
    },
    answer,
  );
  return { records: answer.data.length, deleted };
}
