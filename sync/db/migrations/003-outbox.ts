// Migration 3: the outbox of local writes (DESIGN rules 1-7).

export default `
  -- Every local write, queued until the service has it. args: the command's arguments (JSON) with
  -- the ids they name now (a temporary id is replaced in place once its record has its own).
  -- state: pending, in_flight (marked before the request leaves), retrying (next_attempt_at),
  -- parked (error), unknown (sent, no answer), done. fingerprint: what a POST sent, to find it.
  CREATE TABLE outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, command TEXT NOT NULL,
    record_type TEXT NOT NULL, record_id TEXT NOT NULL, args TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT, error TEXT, waiting_for TEXT, fingerprint TEXT, client_id TEXT,
    sent_at TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, done_at TEXT);
  CREATE INDEX outbox_record ON outbox(record_type, record_id, id);
  CREATE INDEX outbox_open ON outbox(state, id) WHERE state <> 'done';
  -- A field changed locally and on the service since the base, or a record deleted on the
  -- service while it had local changes: shown until the user takes one side.
  CREATE TABLE conflicts (id INTEGER PRIMARY KEY AUTOINCREMENT, record_type TEXT NOT NULL,
    record_id TEXT NOT NULL, field TEXT NOT NULL, kind TEXT NOT NULL, base TEXT, mine TEXT,
    theirs TEXT, detected_at TEXT NOT NULL, UNIQUE (record_type, record_id, field));
  -- Temporary ids of records created offline and the ids the service gave them.
  CREATE TABLE id_map (local_id TEXT PRIMARY KEY, record_type TEXT NOT NULL,
    service_id TEXT NOT NULL, mapped_at TEXT NOT NULL);
  -- Whether the service takes client-generated ids on creation, per resource type (probed once).
  CREATE TABLE client_ids (record_type TEXT PRIMARY KEY, accepted INTEGER NOT NULL,
    probed_at TEXT NOT NULL);
  -- local_state of a writable record: created, changed or deleted locally and not yet accepted
  -- by the service (NULL when the row is the service's version).
  ALTER TABLE users ADD COLUMN local_state TEXT;
  CREATE INDEX users_local ON users(local_state) WHERE local_state IS NOT NULL;
  ALTER TABLE ausbildungen ADD COLUMN local_state TEXT;
  CREATE INDEX ausbildungen_local ON ausbildungen(local_state) WHERE local_state IS NOT NULL;
  ALTER TABLE kalender ADD COLUMN local_state TEXT;
  CREATE INDEX kalender_local ON kalender(local_state) WHERE local_state IS NOT NULL;
  ALTER TABLE helferstunden ADD COLUMN local_state TEXT;
  CREATE INDEX helferstunden_local ON helferstunden(local_state) WHERE local_state IS NOT NULL;
  ALTER TABLE helferstunden_anlaesse ADD COLUMN local_state TEXT;
  CREATE INDEX helferstunden_anlaesse_local ON helferstunden_anlaesse(local_state) WHERE local_state IS NOT NULL;
  ALTER TABLE benachrichtigungen ADD COLUMN local_state TEXT;
  CREATE INDEX benachrichtigungen_local ON benachrichtigungen(local_state) WHERE local_state IS NOT NULL;
  ALTER TABLE courses ADD COLUMN local_state TEXT;
  CREATE INDEX courses_local ON courses(local_state) WHERE local_state IS NOT NULL;
  ALTER TABLE participations ADD COLUMN local_state TEXT;
  CREATE INDEX participations_local ON participations(local_state) WHERE local_state IS NOT NULL;
  ALTER TABLE customfields ADD COLUMN local_state TEXT;
  CREATE INDEX customfields_local ON customfields(local_state) WHERE local_state IS NOT NULL;
  `;
