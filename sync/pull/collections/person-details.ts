// Checks (ueberpruefungen) and honours (ehrungen) cost one request per person each: every sync
// refreshes the people its plan names (least recently confirmed first, see sync/pull/plan.ts), so
// a large organisation is covered over several syncs without hammering a rate-limited service.
// Each list is fetched whole and replaced, which also finds what was deleted on the service.
import { ehrung, ueberpruefung } from '../../resources';
import type { PullContext } from '../context';
import { confirm } from '../freshness';
import { pullParents } from '../parents';
import { replaceChildren } from './whole';

export async function pullPersonDetails(ctx: PullContext, people: readonly string[]) {
  // Confirmed as of before the first request: a change made while they were read may be missing.
  const askedAt = ctx.options.now().toISOString();
  const { done: refreshed } = await pullParents(
    ctx,
    {
      scope: 'person',
      collection: 'person_details',
      type: 'user',
      table: 'users',
      refresh: (id) => refreshPersonDetails(ctx, id, false),
    },
    people,
  );
  confirm(ctx.replica.sqlite, 'person', [...refreshed], askedAt);
  const result = ctx.results.get('person_details');
  const remaining = remainingInRotation(ctx, 'person');
  if (result && remaining) result.remaining = remaining;
}

/**
 * One person's checks and honours, each list whole and replaced. `useDigests`: skip an answer
 * identical to the one applied last time (an on-demand refresh; the rotation applies whole).
 */
export async function refreshPersonDetails(ctx: PullContext, userId: string, useDigests: boolean) {
  const [checks, honours] = await Promise.all([
    replaceChildren(
      ctx,
      {
        collection: 'ueberpruefungen',
        table: 'ueberpruefungen',
        toRow: (c, syncedAt) => ueberpruefung.row(c, userId, syncedAt),
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
        toRow: (h, syncedAt) => ehrung.row(h, userId, syncedAt),
        parent: { column: 'user_id', id: userId },
        useDigests,
      },
      (digest) => ctx.api.listEhrungen(userId, { signal: ctx.signal, ...digest }),
    ),
  ]);
  return { records: checks.records + honours.records, deleted: checks.deleted + honours.deleted };
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
      `SELECT count(*) AS total, count(f.confirmed_at) AS done FROM users u
       LEFT JOIN confirmations f ON f.scope = @scope AND f.id = u.id WHERE ${where}`,
    )
    .get({ scope, self: ctx.selfId }) as { total: number; done: number };
  return done < total ? { done, total, what: 'people' } : undefined;
}
