// Per-collection sync bookkeeping: watermarks from the service's clock, full-scan rhythm, why a collection is skipped.
import type { Sqlite } from '../db/sqlite';
import type { SyncStateTable } from '../db/schema';
import { prepared } from '../db/statements';
import { upsertRow } from '../db/upsert';

export type CollectionState = SyncStateTable;

export function readState(sqlite: Sqlite, collection: string): CollectionState {
  const row = prepared(sqlite, 'SELECT * FROM sync_state WHERE collection = ?').get(collection) as
    CollectionState | undefined;
  return (
    row ?? {
      collection,
      watermark: null,
      last_success_at: null,
      last_full_scan_at: null,
      syncs_since_full_scan: 0,
      unavailable: null,
      last_error: null,
      progress: null,
    }
  );
}

export function writeState(sqlite: Sqlite, state: CollectionState): void {
  upsertRow(sqlite, 'sync_state', ['collection'], state);
}

export function setMeta(sqlite: Sqlite, key: string, value: string): void {
  // An unchanged value is no change (data.changed: no screen reads again for it).
  prepared(
    sqlite,
    'INSERT INTO replica_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value',
  ).run(key, value);
}

/** The sync's own log (when the last sync ran, the last one that succeeded): sync_log. */
export function setSyncLog(
  sqlite: Sqlite,
  key: 'last_sync' | 'last_successful_sync_at',
  value: string,
): void {
  upsertRow(sqlite, 'sync_log', ['key'], { key, value });
}
