// Per-collection sync bookkeeping: watermarks from the service's clock, full-scan rhythm, why a collection is skipped.
import type { Sqlite } from '../db/sqlite';
import type { SyncStateTable } from '../db/schema';

export type CollectionState = SyncStateTable;

export function readState(sqlite: Sqlite, collection: string): CollectionState {
  const row = sqlite.prepare('SELECT * FROM sync_state WHERE collection = ?').get(collection) as
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
  sqlite
    .prepare(
      `INSERT INTO sync_state (collection, watermark, last_success_at, last_full_scan_at, syncs_since_full_scan, unavailable, last_error, progress)
       VALUES (@collection, @watermark, @last_success_at, @last_full_scan_at, @syncs_since_full_scan, @unavailable, @last_error, @progress)
       ON CONFLICT (collection) DO UPDATE SET watermark = excluded.watermark, last_success_at = excluded.last_success_at,
         last_full_scan_at = excluded.last_full_scan_at, syncs_since_full_scan = excluded.syncs_since_full_scan,
         unavailable = excluded.unavailable, last_error = excluded.last_error, progress = excluded.progress`,
    )
    .run(state);
}

export function setMeta(sqlite: Sqlite, key: string, value: string): void {
  // An unchanged value is no change (data.changed: no screen reads again for it).
  sqlite
    .prepare(
      'INSERT INTO replica_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value',
    )
    .run(key, value);
}

/** The sync's own log (when the last sync ran, the last one that succeeded): sync_log. */
export function setSyncLog(
  sqlite: Sqlite,
  key: 'last_sync' | 'last_successful_sync_at',
  value: string,
): void {
  sqlite
    .prepare(
      'INSERT INTO sync_log (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    )
    .run(key, value);
}
