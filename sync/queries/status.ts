import type BetterSqlite3 from 'better-sqlite3';
import type { SyncStatus } from '../contract';
import type { SyncStateTable } from '../db/schema';

/** Where each of the service's resource types lives in the replica. */
const COUNTS: Record<string, string> = {
  user: 'SELECT count(*) FROM users',
  organisation: 'SELECT count(*) FROM organisations',
  orga: "SELECT count(*) FROM singletons WHERE key = 'orga'",
  userinfo: "SELECT count(*) FROM singletons WHERE key = 'userinfo'",
  ausbildung: 'SELECT count(*) FROM ausbildungen',
  ueberpruefung: 'SELECT count(*) FROM ueberpruefungen',
  ehrung: 'SELECT count(*) FROM ehrungen',
  kalender: 'SELECT count(*) FROM kalender',
  helferstunden: 'SELECT count(*) FROM helferstunden',
  helferstunden_anlass: 'SELECT count(*) FROM helferstunden_anlaesse',
  helferstunden_typ: 'SELECT count(*) FROM helferstunden_typen',
  helferstunden_einstellungen:
    "SELECT count(*) FROM singletons WHERE key = 'helferstunden_einstellungen'",
  dienst: "SELECT count(*) FROM anlass_referenzen WHERE type = 'dienst'",
  termin: "SELECT count(*) FROM anlass_referenzen WHERE type = 'termin'",
  benachrichtigung: 'SELECT count(*) FROM benachrichtigungen',
  formular: 'SELECT count(*) FROM formulare',
  steuersatz: 'SELECT count(*) FROM steuersaetze',
  course: 'SELECT count(*) FROM courses',
  course_type: 'SELECT count(*) FROM course_types',
  course_date: 'SELECT count(*) FROM course_dates',
  address: 'SELECT count(*) FROM addresses',
  participation: 'SELECT count(*) FROM participations',
  cancellation: 'SELECT count(*) FROM cancellations',
  company: 'SELECT count(*) FROM companies',
  uvt: 'SELECT count(*) FROM uvts',
  client: 'SELECT count(*) FROM clients',
  client_participant: 'SELECT count(*) FROM client_participants',
  customfield: 'SELECT count(*) FROM customfields',
};

export function syncStatus(sqlite: BetterSqlite3.Database): SyncStatus {
  const counts = Object.fromEntries(
    Object.entries(COUNTS).map(([type, query]) => [
      type,
      sqlite.prepare(query).pluck().get() as number,
    ]),
  );
  const states = sqlite
    .prepare('SELECT * FROM sync_state ORDER BY collection')
    .all() as SyncStateTable[];
  const meta = new Map(
    (
      sqlite.prepare('SELECT key, value FROM replica_meta').all() as {
        key: string;
        value: string;
      }[]
    ).map((r) => [r.key, r.value]),
  );
  const lastSync = meta.get('last_sync');
  return {
    counts,
    collections: states.map((s) => ({
      collection: s.collection,
      watermark: s.watermark,
      lastSuccessAt: s.last_success_at,
      lastFullScanAt: s.last_full_scan_at,
      unavailable: s.unavailable,
      lastError: s.last_error,
    })),
    lastSync: lastSync ? (JSON.parse(lastSync) as SyncStatus['lastSync']) : null,
    lastSuccessfulSyncAt: meta.get('last_successful_sync_at') ?? null,
    profile: meta.get('profile') ?? null,
    selfId: meta.get('self_id') ?? null,
  };
}
