// Checks (ueberpruefungen) and honours (ehrungen) cost one request per person each. Every sync
// refreshes at most options.personDetailsPerSync people, least recently refreshed first, each with
// its own watermark, so a large organisation is covered over several syncs without hammering a
// rate-limited service. Honours have no change filter: fetched whole and replaced per person.
import { ehrungRow, ueberpruefungRow, type ServiceResource } from '../../db/rows';
import { collectPages } from '../../api';
import {
  forEachLimited,
  isGone,
  PER_ITEM_CONCURRENCY,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';
import { replaceRows } from './whole';

interface PersonDetails {
  userId: string;
  checks: ServiceResource[];
  checksComplete: boolean;
  honours: ServiceResource[];
  watermark: string | undefined;
}

export function pullPersonDetails(ctx: PullContext) {
  return runCollection(ctx, 'person_details', async (state) => {
    // People are refreshed in batches with their own watermarks; this collection has none of its own,
    // so only the rhythm (or --full) makes a full scan, and only --full takes everyone at once.
    const fullScan =
      ctx.options.full || state.syncs_since_full_scan + 1 >= ctx.options.fullScanEvery;
    const people = peopleToRefresh(ctx, ctx.options.full);
    let done = 0;
    let records = 0;
    let deleted = 0;
    const watermarks: [string, string][] = [];
    await forEachLimited(people, PER_ITEM_CONCURRENCY, async (person) => {
      try {
        const details = await fetchDetails(
          ctx,
          person.id,
          fullScan ? null : person.details_watermark,
        );
        deleted += await applyDetails(ctx, details);
        records += details.checks.length + details.honours.length;
        if (details.watermark) watermarks.push([details.watermark, person.id]);
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

async function fetchDetails(
  ctx: PullContext,
  userId: string,
  watermark: string | null,
): Promise<PersonDetails> {
  const signal = ctx.signal;
  const [checks, honours] = await Promise.all([
    collectPages(
      ctx.api.listUeberpruefungen(userId, {
        ...(watermark ? { updatedSince: watermark } : {}),
        signal,
      }),
    ),
    collectPages(ctx.api.listEhrungen(userId, { signal })),
  ]);
  return {
    userId,
    checks: checks.data,
    checksComplete: !watermark,
    honours: honours.data,
    watermark: watermarkAt(ctx, checks.serverDate),
  };
}

/** One person's details, written only where they differ; returns how many records were removed. */
async function applyDetails(ctx: PullContext, details: PersonDetails): Promise<number> {
  const ofPerson = { where: 'user_id = ?', params: [details.userId] };
  const honours = replaceRows(
    ctx,
    {
      collection: 'person_details',
      table: 'ehrungen',
      toRow: (h, syncedAt) => ehrungRow(h, details.userId, syncedAt),
      scope: ofPerson,
    },
    details.honours,
    [],
  );
  if (details.checksComplete) {
    const checks = replaceRows(
      ctx,
      {
        collection: 'person_details',
        table: 'ueberpruefungen',
        toRow: (c, syncedAt) => ueberpruefungRow(c, details.userId, syncedAt),
        scope: ofPerson,
      },
      details.checks,
      [],
    );
    return (await honours) + (await checks);
  }
  // Only the checks changed since the watermark came: nothing to remove.
  ctx.writer.transaction(() =>
    ctx.writer.upsert(
      'ueberpruefungen',
      details.checks.map((c) => ueberpruefungRow(c, details.userId, ctx.syncedAt)),
    ),
  );
  return honours;
}
