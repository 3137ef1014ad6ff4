// Participants of the course clients (companies that book courses), replaced per client, for the
// clients the sync's plan names (a rotation), each confirmed once its list is in.
import { clientParticipantRow } from '../../db/rows';
import { forEachItem, runCollection, type PullContext } from '../context';
import { confirm } from '../freshness';
import { replaceChildren } from './whole';

/** Participants of the planned clients (they may belong to courses outside the window). */
export function pullClientParticipants(ctx: PullContext, clientIds: readonly string[]) {
  return runCollection(ctx, 'client_participants', async () => {
    let records = 0;
    let deleted = 0;
    const confirmed: string[] = [];
    const client = (id: string) => ({ type: 'client', id });
    try {
      await forEachItem(ctx, 'client_participants', clientIds, client, async (clientId) => {
        const outcome = await refreshClientParticipants(ctx, clientId, !ctx.options.full);
        records += outcome.records;
        deleted += outcome.deleted;
        confirmed.push(clientId);
      });
    } finally {
      confirm(ctx.replica.sqlite, 'client', confirmed, ctx.options.now().toISOString());
    }
    const orphans = ctx.writer.transaction(
      () =>
        ctx.replica.sqlite
          .prepare(
            'DELETE FROM client_participants WHERE client_id NOT IN (SELECT id FROM clients)',
          )
          .run().changes,
    );
    return { records, deleted: deleted + orphans, fullScan: false };
  });
}

/** One client's participants, replaced. */
export function refreshClientParticipants(ctx: PullContext, clientId: string, useDigests: boolean) {
  return replaceChildren(
    ctx,
    {
      collection: 'client_participants',
      table: 'client_participants',
      toRow: (r, syncedAt) => clientParticipantRow(r, clientId, syncedAt),
      parent: { column: 'client_id', id: clientId },
      useDigests,
    },
    (digest) => ctx.api.listClientParticipants(clientId, { signal: ctx.signal, ...digest }),
  );
}
