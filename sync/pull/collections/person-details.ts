// Checks (ueberpruefungen) and honours (ehrungen) cost one request per person each: every sync
// refreshes the people its plan names (least recently confirmed first, see sync/pull/plan.ts), so
// a large organisation is covered over several syncs without hammering a rate-limited service.
// Each list is fetched whole and replaced, which also finds what was deleted on the service.
import { ehrungRow, ueberpruefungRow } from '../../db/rows';
import { forEachItem, isGone, runCollection, type PullContext } from '../context';
import { confirm } from '../freshness';
import { replaceChildren } from './whole';

export function pullPersonDetails(ctx: PullContext, people: readonly string[]) {
  return runCollection(ctx, 'person_details', async () => {
    let records = 0;
    let deleted = 0;
    const confirmed: string[] = [];
    try {
      await forEachItem(
        ctx,
        'person_details',
        people,
        (id) => ({ type: 'user', id }),
        async (id) => {
          const outcome = await refreshPersonDetails(ctx, id, !ctx.options.full);
          records += outcome.records;
          deleted += outcome.deleted;
          if (outcome.present) confirmed.push(id);
          ctx.progress({
            collection: 'person_details',
            done: confirmed.length,
            total: people.length,
          });
        },
      );
    } finally {
      confirm(ctx.replica.sqlite, 'person', confirmed, ctx.options.now().toISOString());
    }
    return { records, deleted, fullScan: false, remaining: remainingInRotation(ctx, 'person') };
  });
}

/** One person's checks and honours, replaced; a person gone from the service (404) is removed here. */
export async function refreshPersonDetails(ctx: PullContext, userId: string, useDigests: boolean) {
  try {
    const [checks, honours] = await Promise.all([
      replaceChildren(
        ctx,
        {
          collection: 'ueberpruefungen',
          table: 'ueberpruefungen',
          toRow: (c, syncedAt) => ueberpruefungRow(c, userId, syncedAt),
          parent: { column: 'user_id', id: userId },
          useDigests,
        },
        (digest) => ctx.api.listUeberpruefungen(userId, { signal: ctx.signal, ...digest }),
      ),
      replaceChildren(
        ctx,
        {
          collection: 'ehrungen',
          table: 'ehrungen',
          toRow: (h, syncedAt) => ehrungRow(h, userId, syncedAt),
          parent: { column: 'user_id', id: userId },
          useDigests,
        },
        (digest) => ctx.api.listEhrungen(userId, { signal: ctx.signal, ...digest }),
      ),
    ]);
    return {
      records: checks.records + honours.records,
      deleted: checks.deleted + honours.deleted,
      present: true,
    };
  } catch (error) {
    if (!isGone(error)) throw error;
    // The person was deleted on the service: so are they here (their details cascade).
    const deleted = ctx.writer.transaction(() => ctx.writer.deleteWhereIn('users', 'id', [userId]));
    return { records: 0, deleted, present: false };
  }
}

/** Items of a rotation never confirmed yet: "500 of 1,000 people so far". */
export function remainingInRotation(
  ctx: PullContext,
  scope: 'person' | 'trainings',
): { done: number; total: number; what: string } | undefined {
  const where =
    scope === 'trainings'
      ? 'u.trainings_from_endpoint = 1'
      : ctx.options.profile === 'trainer'
        ? 'u.id = @self'
        : '1 = 1';
  const { total, done } = ctx.replica.sqlite
    .prepare(
      `SELECT count(*) AS total, count(f.id) AS done FROM users u
       LEFT JOIN confirmations f ON f.scope = @scope AND f.id = u.id WHERE ${where}`,
    )
    .get({ scope, self: ctx.selfId }) as { total: number; done: number };
  return done < total ? { done, total, what: 'people' } : undefined;
}
