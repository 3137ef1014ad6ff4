// Participants of the course clients (companies that book courses), replaced per client, for the
// clients the sync's plan names (a rotation), each confirmed once its list is in; the rotation
// applies each list whole (no digest), so anything amiss heals within its bound.
import { clientParticipant } from '../../resources';
import type { PullContext } from '../context';
import { confirm } from '../freshness';
import { pullParents } from '../parents';
import { replaceChildren } from './whole';

/** Participants of the planned clients (they may belong to courses outside the window). */
export async function pullClientParticipants(ctx: PullContext, clientIds: readonly string[]) {
  // Confirmed as of before the first request: a change made while they were read may be missing.
  const askedAt = ctx.options.now().toISOString();
  const { done: refreshed } = await pullParents(
    ctx,
    {
      scope: 'client',
      collection: 'client_participants',
      type: 'client',
      table: 'clients',
      refresh: (id) => refreshClientParticipants(ctx, id, false),
    },
    clientIds,
  );
  confirm(ctx.replica.sqlite, 'client', [...refreshed], askedAt);
  ctx.writer.transaction(() =>
    ctx.replica.sqlite
      .prepare('DELETE FROM client_participants WHERE client_id NOT IN (SELECT id FROM clients)')
      .run(),
  );
}

/** One client's participants, replaced. */
export function refreshClientParticipants(ctx: PullContext, clientId: string, useDigests: boolean) {
  return replaceChildren(
    ctx,
    {
      collection: 'client_participants',
      table: 'client_participants',
      toRow: (r, syncedAt) => clientParticipant.row(r, clientId, syncedAt),
      parent: { column: 'client_id', id: clientId },
      useDigests,
    },
    (digest) => ctx.api.listClientParticipants(clientId, { signal: ctx.signal, ...digest }),
  );
}
