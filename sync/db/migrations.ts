// Numbered migrations of the replica, applied on open (PRAGMA user_version counts them).
// Append only: a released migration never changes, a new one follows it.
//
// Every table of service data keeps: query columns (what screens sort and filter by), `base`
// (the server's last version as JSON: { attributes, relationships }) and `pending` (JSON of
// locally changed fields, NULL when none; the outbox of a later issue rebases them on `base`) and
// `synced_at` (when the base was last written: an unchanged record is not rewritten).

const RECORD = `base TEXT NOT NULL, pending TEXT, synced_at TEXT NOT NULL`;

export const MIGRATIONS: readonly string[] = [
  /* 1: the replica of every collection the service returns */ `
  CREATE TABLE users (
    id TEXT PRIMARY KEY, vorname TEXT NOT NULL, nachname TEXT NOT NULL,
    -- lower-cased "nachname vorname" and "vorname nachname": name-prefix search as index range scans
    sort_name TEXT NOT NULL, first_name_key TEXT NOT NULL,
    status TEXT, email TEXT, mitgliednr TEXT, ort TEXT, organisation_id TEXT,
    -- the service's time of the last refresh of this person's checks and honours (their watermark)
    details_watermark TEXT, ${RECORD});
  CREATE INDEX users_status_sort ON users(status, sort_name);
  CREATE INDEX users_sort ON users(sort_name);
  CREATE INDEX users_first_name_key ON users(first_name_key);

  CREATE TABLE qualifikationen (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
    position TEXT, liste TEXT, name TEXT, name_kurz TEXT, rang INTEGER, erwerb_datum TEXT,
    PRIMARY KEY (user_id, idx));
  CREATE INDEX qualifikationen_name_kurz ON qualifikationen(name_kurz);

  CREATE TABLE organisations (id TEXT PRIMARY KEY, name TEXT, ${RECORD});

  CREATE TABLE ausbildungen (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    bezeichnung TEXT, datum TEXT, gueltig_bis TEXT, updated_at TEXT, ${RECORD});
  CREATE INDEX ausbildungen_user ON ausbildungen(user_id);
  CREATE TABLE ueberpruefungen (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    bezeichnung TEXT, bestanden INTEGER, letzte_pruefung TEXT, naechste_pruefung TEXT, ${RECORD});
  CREATE INDEX ueberpruefungen_user ON ueberpruefungen(user_id);
  CREATE TABLE ehrungen (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    bezeichnung TEXT, datum TEXT, ${RECORD});
  CREATE INDEX ehrungen_user ON ehrungen(user_id);

  -- Single documents: the own organisation (orga), the user-info, the own hour settings.
  CREATE TABLE singletons (key TEXT PRIMARY KEY, type TEXT NOT NULL, id TEXT NOT NULL,
    included TEXT, ${RECORD});

  CREATE TABLE kalender (id TEXT PRIMARY KEY, name TEXT, farbe TEXT, typ TEXT, user_id TEXT, ${RECORD});

  CREATE TABLE helferstunden_typen (id TEXT PRIMARY KEY, bezeichnung TEXT, aktiv INTEGER, ${RECORD});
  CREATE TABLE anlass_referenzen (type TEXT NOT NULL, id TEXT NOT NULL, titel TEXT, beginn TEXT,
    ende TEXT, ort TEXT, ${RECORD}, PRIMARY KEY (type, id));
  CREATE TABLE helferstunden_anlaesse (id TEXT PRIMARY KEY, typ TEXT, beschreibung TEXT, datum TEXT,
    referenz_type TEXT, referenz_id TEXT, ${RECORD});
  CREATE TABLE helferstunden (
    id TEXT PRIMARY KEY, user_id TEXT, anlass_id TEXT, typ_id TEXT, von TEXT, bis TEXT,
    stunden REAL, freigegeben INTEGER, ${RECORD});
  CREATE INDEX helferstunden_user_von ON helferstunden(user_id, von);
  CREATE INDEX helferstunden_von ON helferstunden(von);
  CREATE INDEX helferstunden_anlass ON helferstunden(anlass_id);

  CREATE TABLE benachrichtigungen (id TEXT PRIMARY KEY, titel TEXT, kategorie TEXT, gelesen INTEGER,
    erstellt_am TEXT, ${RECORD});
  CREATE INDEX benachrichtigungen_erstellt ON benachrichtigungen(erstellt_am);

  CREATE TABLE formulare (objekt_typ TEXT NOT NULL, objekt_id TEXT NOT NULL, position INTEGER NOT NULL,
    titel TEXT, aktion TEXT, synced_at TEXT NOT NULL, PRIMARY KEY (objekt_typ, objekt_id, position));

  CREATE TABLE steuersaetze (id TEXT PRIMARY KEY, bezeichnung TEXT, satz REAL, gueltig_ab TEXT, ${RECORD});

  CREATE TABLE course_types (id TEXT PRIMARY KEY, name TEXT, short_name TEXT, ${RECORD});
  CREATE TABLE uvts (id TEXT PRIMARY KEY, name TEXT, short_name TEXT, favorite INTEGER, ${RECORD});
  CREATE TABLE clients (id TEXT PRIMARY KEY, name TEXT, city TEXT, ${RECORD});
  CREATE TABLE companies (id TEXT PRIMARY KEY, name TEXT, uvt_id TEXT, ${RECORD});
  CREATE TABLE addresses (id TEXT PRIMARY KEY, description TEXT, city TEXT, postal_code TEXT, ${RECORD});

  CREATE TABLE courses (
    id TEXT PRIMARY KEY, title TEXT, course_number TEXT, status TEXT, course_type_id TEXT,
    client_id TEXT, location_id TEXT, first_date TEXT, last_date TEXT, max_participants INTEGER,
    number_of_participants INTEGER, ${RECORD});
  CREATE INDEX courses_first_date ON courses(first_date);
  CREATE TABLE course_trainers (course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL, PRIMARY KEY (course_id, user_id));
  CREATE INDEX course_trainers_user ON course_trainers(user_id);
  CREATE TABLE course_dates (id TEXT PRIMARY KEY,
    course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    date_from TEXT, date_to TEXT, ${RECORD});
  CREATE INDEX course_dates_course ON course_dates(course_id);

  CREATE TABLE participations (
    id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    first_name TEXT, last_name TEXT, status TEXT, attended INTEGER, company_id TEXT, uvt_id TEXT,
    client_id TEXT, user_id TEXT, ${RECORD});
  CREATE INDEX participations_course ON participations(course_id, last_name);
  CREATE INDEX participations_course_status ON participations(course_id, status);
  CREATE TABLE cancellations (id TEXT PRIMARY KEY, participation_id TEXT, ${RECORD});

  -- Participants of a client may belong to courses outside the synced window: kept apart.
  CREATE TABLE client_participants (client_id TEXT NOT NULL, id TEXT NOT NULL, course_id TEXT,
    first_name TEXT, last_name TEXT, status TEXT, ${RECORD}, PRIMARY KEY (client_id, id));

  CREATE TABLE customfields (id TEXT PRIMARY KEY,
    course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    name TEXT, field_type TEXT, position INTEGER, ${RECORD});
  CREATE INDEX customfields_course ON customfields(course_id);

  -- The digest of the last applied answer per parent (e.g. one course's participations) and how
  -- many rows it gave: an identical answer is not applied again while those rows are all there.
  CREATE TABLE answer_digests (key TEXT PRIMARY KEY, digest TEXT NOT NULL, records INTEGER NOT NULL);

  -- Sync bookkeeping: one row per collection, plus key/value facts of the replica.
  CREATE TABLE sync_state (collection TEXT PRIMARY KEY, watermark TEXT, last_success_at TEXT,
    last_full_scan_at TEXT, syncs_since_full_scan INTEGER NOT NULL DEFAULT 0,
    unavailable TEXT, last_error TEXT);
  CREATE TABLE replica_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  /* 2: what a sync could not apply, and the progress of work that spans several syncs */ `
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
  `,
  /* 3: the outbox of local writes (DESIGN rules 1-7) */ `
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
  `,
  /* 4: freshness (DESIGN rule 15) */ `
  -- When the service last confirmed one parent's collections (scope course: its participants and
  -- custom fields; person: checks and honours; ...), and when a sync last asked for them (an item
  -- that keeps failing goes to the back of its rotation), in the local clock.
  CREATE TABLE confirmations (scope TEXT NOT NULL, id TEXT NOT NULL, confirmed_at TEXT,
    tried_at TEXT, PRIMARY KEY (scope, id)) WITHOUT ROWID;
  -- Each rotation's share of work not yet done (items, fractional) and when it was last planned.
  CREATE TABLE rotations (scope TEXT PRIMARY KEY, credit REAL NOT NULL, planned_at TEXT NOT NULL);
  `,
  /* 5: export (.ics SEQUENCE) and the private calendar feed (issue 13) */ `
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
  `,
  /* 6: the sync's own log apart from replica_meta (issue 20) */ `
  -- When the last sync ran and the last one succeeded: rewritten by every sync, so kept out of
  -- replica_meta (the signed-in user's id, the profile), which many screens' queries read: a sync
  -- that changed nothing else makes no screen read again (data.changed names tables).
  CREATE TABLE sync_log (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  INSERT INTO sync_log (key, value)
    SELECT key, value FROM replica_meta WHERE key IN ('last_sync', 'last_successful_sync_at');
  DELETE FROM replica_meta WHERE key IN ('last_sync', 'last_successful_sync_at');
  `,
];
