// Migration 2: what a sync could not apply, and the progress of work that spans several syncs.

export default `
  -- A record the service sent that could not be read (raw JSON kept), or a per-item request that
  -- failed (raw NULL): skipped, reported, and tried again on the next sync (DESIGN rule 14).
  -- parent: the scope the record came in ('' for a whole collection, else e.g. a course id).
  -- part: 'data' or 'included', where in its answer the record was.
  CREATE TABLE quarantine (collection TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL,
    parent TEXT NOT NULL DEFAULT '', part TEXT NOT NULL DEFAULT 'data', reason TEXT NOT NULL, raw TEXT, url TEXT,
    first_seen_at TEXT NOT NULL, last_seen_at TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (collection, type, id));
  -- A scan that spans several syncs (the windows of everyone's hours): where it stands (JSON),
  -- and the ids it has seen so far, so deletions are found once the last window is in.
  ALTER TABLE sync_state ADD COLUMN progress TEXT;
  CREATE TABLE scan_seen (collection TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (collection, id))
    WITHOUT ROWID;
  -- A user resource that does not embed its trainings: they come from /personal/{id}/ausbildungen,
  -- per person, with the person's own watermark for that list.
  ALTER TABLE users ADD COLUMN trainings_from_endpoint INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE users ADD COLUMN trainings_watermark TEXT;
  `;
