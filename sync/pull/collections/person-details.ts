// Checks (ueberpruefungen) and honours (ehrungen) cost one request per person each. Every sync
// refreshes at most options.personDetailsPerSync people, least recently refreshed first, each with
// its own watermark, so a large organisation is covered over several syncs without hammering a
// rate-limited service. Honours have no change filter: fetched whole and replaced per person.
import { ehrungRow, ueberpruefungRow, type ServiceResource } from '../../db/rows';
import { collectPages } from '../../api';
import {
  forEachLimited,
  isGone,
  isPeriodicFullRun,
  PER_ITEM_CONCURRENCY,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';
import { replaceChildren, replaceRows } from './whole';

export function pullPersonDetails(ctx: PullContext) {
  return runCollection(ctx, 'person_details', async (state) => {
    // People are refreshed in batches with their own watermarks; this collection has none of its own,
    // so only the rhythm (or --full) makes a full scan, and only --full takes everyone at once.
    const fullScan = isPeriodicFullRun(ctx, state);
    const people = peopleToRefresh(ctx, ctx.options.full);
    let done = 0;
    let records = 0;
    let deleted = 0;
    const watermarks: [string, string][] = [];
    await forEachLimited(people, PER_ITEM_CONCURRENCY, async (person) => {
      try {
        const [checks, honours] = await Promise.all([
          refreshChecks(ctx, person.id, fullScan ? null : person.details_watermark),
          refreshHonours(ctx, person.id, !fullScan),
        ]);
        deleted += checks.deleted + honours.deleted;
        records += checks.records + honours.records;
        if (checks.watermark) watermarks.push([checks.watermark, person.id]);
      } catch (error) {
        if (!isGone(error)) throw error;
        // The person was deleted on the service: so are they here (their details cascade).
        deleted += ctx.writer.transaction(() =>
          ctx.writer.deleteWhereIn('users', 'id', [person.id]),
        );
      }
      done += 1;
      ctx.progress({ collection: 'person_details', done, total: people.length });
    });
    // All watermarks in one transaction; after a failure the people fetched before it are simply fetched again.
    const setWatermark = ctx.replica.sqlite.prepare(
      'UPDATE users SET details_watermark = ? WHERE id = ?',
    );
    ctx.writer.transaction(() => watermarks.forEach((entry) => setWatermark.run(...entry)));
    return { records, deleted, fullScan };
  });
}

function peopleToRefresh(ctx: PullContext, everyone: boolean) {
  const { sqlite } = ctx.replica;
  if (ctx.options.profile === 'trainer') {
    return sqlite
      .prepare('SELECT id, details_watermark FROM users WHERE id = ?')
      .all(ctx.selfId) as Person[];
  }
  const order = 'ORDER BY details_watermark IS NOT NULL, details_watermark, id';
  return (
    everyone
      ? sqlite.prepare(`SELECT id, details_watermark FROM users ${order}`).all()
      : sqlite
          .prepare(`SELECT id, details_watermark FROM users ${order} LIMIT ?`)
          .all(ctx.options.personDetailsPerSync)
  ) as Person[];
}

interface Person {
  id: string;
  details_watermark: string | null;
}

/** Checks changed since the person's watermark (all of them, replaced, without one). */
async function refreshChecks(ctx: PullContext, userId: string, watermark: string | null) {
  const checks = await collectPages(
    ctx.api.listUeberpruefungen(userId, {
      ...(watermark ? { updatedSince: watermark } : {}),
      signal: ctx.signal,
    }),
  );
  const toRow = (c: ServiceResource, syncedAt: string) => ueberpruefungRow(c, userId, syncedAt);
  let deleted = 0;
  if (watermark) {
    // Only what changed came: nothing to remove.
    if (checks.data.length > 0) {
      ctx.writer.transaction(() =>
        ctx.writer.upsert(
          'ueberpruefungen',
          checks.data.map((c) => toRow(c, ctx.syncedAt)),
        ),
      );
    }
  } else {
    deleted = await replaceRows(
      ctx,
      {
        collection: 'person_details',
        table: 'ueberpruefungen',
        toRow,
        scope: { where: 'user_id = ?', params: [userId] },
      },
      checks.data,
      [],
    );
  }
  return { records: checks.data.length, deleted, watermark: watermarkAt(ctx, checks.serverDate) };
}

/** Honours have no change filter: the whole list, skipped when the answer is the one applied last time. */
function refreshHonours(ctx: PullContext, userId: string, useDigests: boolean) {
  return replaceChildren(
    ctx,
    {
      collection: 'ehrungen',
      table: 'ehrungen',
      toRow: (h, syncedAt) => ehrungRow(h, userId, syncedAt),
      parent: { column: 'user_id', id: userId },
      useDigests,
    },
    (digest) => ctx.api.listEhrungen(userId, { signal: ctx.signal, ...digest }),
  );
}
