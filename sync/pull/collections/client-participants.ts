// Participants of the course clients (companies that book courses), replaced per client.
import { clientParticipantRow } from '../../db/rows';
import { forEachItem, isPeriodicFullRun, runCollection, type PullContext } from '../context';
import { replaceChildren } from './whole';

/** Participants of each client (they may belong to courses outside the window), replaced per client. */
export function pullClientParticipants(ctx: PullContext) {
  return runCollection(ctx, 'client_participants', async (state) => {
    const fullScan = isPeriodicFullRun(ctx, state);
    const clientIds = ctx.replica.sqlite
      .prepare('SELECT id FROM clients ORDER BY id')
      .pluck()
      .all() as string[];
    let records = 0;
    let deleted = 0;
    const client = (id: string) => ({ type: 'client', id });
    await forEachItem(ctx, 'client_participants', clientIds, client, async (clientId) => {
      const outcome = await replaceChildren(
        ctx,
        {
          collection: 'client_participants',
          table: 'client_participants',
          toRow: (r, syncedAt) => clientParticipantRow(r, clientId, syncedAt),
          parent: { column: 'client_id', id: clientId },
          useDigests: !fullScan,
        },
        (digest) => ctx.api.listClientParticipants(clientId, { signal: ctx.signal, ...digest }),
      );
      records += outcome.records;
      deleted += outcome.deleted;
    });
    const orphans = ctx.writer.transaction(
      () =>
        ctx.replica.sqlite
          .prepare(
            'DELETE FROM client_participants WHERE client_id NOT IN (SELECT id FROM clients)',
          )
          .run().changes,
    );
    return { records, deleted: deleted + orphans, fullScan };
  });
}
