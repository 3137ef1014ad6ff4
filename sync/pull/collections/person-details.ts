// Checks (ueberpruefungen) and honours (ehrungen) cost one request per person each. Every sync
// refreshes at most options.personDetailsPerSync people, least recently refreshed first, each with
// its own watermark, so a large organisation is covered over several syncs without hammering a
// rate-limited service. Honours have no change filter: fetched whole and replaced per person.
import { ehrungRow, ueberpruefungRow, type ServiceResource } from '../../db/rows';
import { collectPages } from '../../api';
import {
  forEachItem,
  isGone,
  progressBatches,
  isPeriodicFullRun,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';
import { takeAnswer } from '../quarantine';
import { remainingPeople } from './personal';
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
    const watermarks = progressBatches(ctx, 'UPDATE users SET details_watermark = ? WHERE id = ?');
    try {
      await forEachItem(
        ctx,
        'person_details',
        people,
        (person) => ({ type: 'user', id: person.id }),
        async (person) => {
          try {
            const [checks, honours] = await Promise.all([
              refreshChecks(ctx, person.id, fullScan ? null : person.details_watermark),
              refreshHonours(ctx, person.id, !fullScan),
            ]);
            deleted += checks.deleted + honours.deleted;
            records += checks.records + honours.records;
            // Progress per person: a later failure does not send this person's requests again.
            if (checks.watermark) watermarks.add(checks.watermark, person.id);
          } catch (error) {
            if (!isGone(error)) throw error;
            // The person was deleted on the service: so are they here (their details cascade).
            deleted += ctx.writer.transaction(() =>
              ctx.writer.deleteWhereIn('users', 'id', [person.id]),
            );
          }
          done += 1;
          ctx.progress({ collection: 'person_details', done, total: people.length });
        },
      );
    } finally {
      watermarks.flush();
    }
    const remaining =
      ctx.options.profile === 'office' ? remainingPeople(ctx, 'details_watermark') : undefined;
    return { records, deleted, fullScan, remaining };
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
  takeAnswer(ctx, 'ueberpruefungen', userId, checks, watermark === null);
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
      checks,
    );
  }
  // An unreadable check keeps the person's watermark, so the next sync asks for it again.
  const held = checks.quarantined.length > 0;
  return {
    records: checks.data.length,
    deleted,
    watermark: held ? undefined : watermarkAt(ctx, checks.serverDate),
  };
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
