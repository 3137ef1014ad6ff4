// Migration 5: export (.ics SEQUENCE) and the private calendar feed (issue 13).

export default `
  -- Every calendar entry an .ics export wrote: a digest of its content then, and its SEQUENCE. An
  -- entry whose content changed since is written with the next SEQUENCE, so a calendar that
  -- imports the file again updates the entry instead of keeping the old one.
  CREATE TABLE export_uids (uid TEXT PRIMARY KEY, digest TEXT NOT NULL, sequence INTEGER NOT NULL,
    exported_at TEXT NOT NULL) WITHOUT ROWID;
  -- The events of the private calendar feed (its address: replica_meta feed_url), replaced whole by
  -- every fetch that could be read. Times as UTC instants (ISO 8601); an all-day event keeps its
  -- dates (YYYY-MM-DD, end exclusive). start_day: the Berlin date of the start, for date filters.
  CREATE TABLE feed_events (uid TEXT NOT NULL, recurrence_id TEXT NOT NULL DEFAULT '',
    summary TEXT, description TEXT, location TEXT, categories TEXT, status TEXT,
    starts_at TEXT NOT NULL, ends_at TEXT, all_day INTEGER NOT NULL DEFAULT 0,
    start_day TEXT NOT NULL, rrule TEXT, sequence INTEGER NOT NULL DEFAULT 0, stamp TEXT,
    fetched_at TEXT NOT NULL, PRIMARY KEY (uid, recurrence_id)) WITHOUT ROWID;
  CREATE INDEX feed_events_day ON feed_events(start_day);
  `;
