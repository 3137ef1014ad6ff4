// Migration 1: the replica of every collection the service returns.
import { RECORD } from './record';

export default `
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
  `;
