// What a sync indicator shows besides the phase (DESIGN rule 12): local writes still to send, those
// the service refused, open conflicts and the last successful sync, read from the replica cheaply.
import type { Sqlite } from '../db/sqlite';
import { prepared } from '../db/statements';
import { openCountsByState } from '../outbox/operations';

export interface ReplicaCounts {
  pending: number;
  parked: number;
  conflicts: number;
  lastSuccessfulSyncAt: string | null;
}

export function replicaCounts(sqlite: Sqlite): ReplicaCounts {
  const byState = openCountsByState(sqlite);
  const parked = byState.parked ?? 0;
  const open = Object.values(byState).reduce((sum, n) => sum + n, 0);
  return {
    pending: open - parked,
    parked,
    conflicts: prepared(sqlite, 'SELECT count(*) FROM conflicts').pluck().get() as number,
    lastSuccessfulSyncAt:
      (prepared(sqlite, "SELECT value FROM sync_log WHERE key = 'last_successful_sync_at'")
        .pluck()
        .get() as string | undefined) ?? null,
  };
}
