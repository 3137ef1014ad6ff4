// Migration 6: the sync's own log apart from replica_meta (issue 20).

export default `
  -- When the last sync ran and the last one succeeded: rewritten by every sync, so kept out of
  -- replica_meta (the signed-in user's id, the profile), which many screens' queries read: a sync
  -- that changed nothing else makes no screen read again (data.changed names tables).
  CREATE TABLE sync_log (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  INSERT INTO sync_log (key, value)
    SELECT key, value FROM replica_meta WHERE key IN ('last_sync', 'last_successful_sync_at');
  DELETE FROM replica_meta WHERE key IN ('last_sync', 'last_successful_sync_at');
  `;
