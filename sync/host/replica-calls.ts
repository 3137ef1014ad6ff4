// The host calls that need the replica alone, no window, account or running sync: `vorort call`
// serves them beside the data's queries and commands, with the session's own handlers. An export
// answers its file's bytes (base64: there is no save dialog; `vorort export` writes files); the
// feed's address is stored and fetched by the next `vorort sync` (no connection here).
// The others are the app's: app.state, account.* (configure, login, cancelLogin, demo, logout),
// demo.service, sync.now, app.visible, settings.get/update concern its user data folder, its
// sign-in, its scheduler and its window; on the command line `vorort sync` and `vorort status`
// do their part. sync.status is a query and served anyway.
import type { HostCallName } from '../contract';
import type { Replica } from '../db/open';
import type { HostHandlers } from '../dispatch';
import { replicaCounts } from '../scheduler/counts';

/** The host calls `vorort call` serves (what its help lists). */
export const REPLICA_HOST_CALLS = [
  'export.create',
  'feed.get',
  'feed.set',
  'account.pendingLoss',
] as const satisfies readonly HostCallName[];

/** What sign-out with deleteLocalData would lose: changes not yet sent, and those refused. */
export function pendingLossOf(replica: Replica): { pending: number; parked: number } {
  const counts = replicaCounts(replica.sqlite);
  return { pending: counts.pending, parked: counts.parked };
}

/** The handlers; the export's engine is loaded only here (every other command starts without it). */
export async function replicaHostCalls(
  replica: Replica,
  now: () => Date = () => new Date(),
): Promise<Required<Pick<HostHandlers, (typeof REPLICA_HOST_CALLS)[number]>>> {
  const { createExportCalls } = await import('./export-calls');
  const exports = createExportCalls(
    { options: {}, now, replica: () => replica, track: () => {}, tellChanges: () => {} },
    { online: () => false },
  );
  return {
    ...exports.calls,
    'account.pendingLoss': async () => pendingLossOf(replica),
  };
}
