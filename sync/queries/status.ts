import type { Sqlite } from '../db/sqlite';
import { openCountsByState } from '../outbox/operations';
import { rotationFreshness } from './freshness';
import { pendingResync, pulledFor, resyncOutstanding, statusOf } from '../pull/restore';
import {
  AREAS,
  type AreaName,
  type AreaStatus,
  type ParsedQueryArgs,
  type QuarantineItem,
  type QueryResults,
  type SyncStatus,
} from '../contract';
import type { QuarantineTable } from '../db/schema';
import { RESOURCES } from '../resources';
import type { SyncStateTable } from '../db/schema';

/** The records of each of the service's resource types: where its module says it lives. */
function countQueries(): Record<string, string> {
  const counts: Record<string, string> = {};
  for (const module of RESOURCES) {
    // A table of several service types (an occasion's services and appointments) counts each.
    if (module.keys.includes('type'))
      for (const type of module.serviceTypes ?? [])
        counts[type] = `SELECT count(*) FROM ${module.table} WHERE type = '${type}'`;
    else counts[module.type] = `SELECT count(*) FROM ${module.table}`;
  }
  return { ...counts, ...NOT_MODULES };
}

/** The types the replica keeps outside the resource modules: single documents, forms, cancellations. */
const NOT_MODULES: Record<string, string> = {
  orga: "SELECT count(*) FROM singletons WHERE key = 'orga'",
  userinfo: "SELECT count(*) FROM singletons WHERE key = 'userinfo'",
  helferstunden_einstellungen:
    "SELECT count(*) FROM singletons WHERE key = 'helferstunden_einstellungen'",
  formular: 'SELECT count(*) FROM formulare',
  cancellation: 'SELECT count(*) FROM cancellations',
};

const COUNTS = countQueries();

export function syncStatus(sqlite: Sqlite, withFreshness = false): SyncStatus {
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
  const log = new Map(
    (
      sqlite.prepare('SELECT key, value FROM sync_log').all() as { key: string; value: string }[]
    ).map((r) => [r.key, r.value]),
  );
  const lastSync = log.get('last_sync');
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
    lastSuccessfulSyncAt: log.get('last_successful_sync_at') ?? null,
    profile: meta.get('profile') ?? null,
    selfId: meta.get('self_id') ?? null,
    quarantine: quarantineCounts(sqlite),
    outbox: outboxCounts(sqlite, meta.get('outbox_paused') === 'login'),
    unavailableAreas: areaStatus(states, profileOf(meta.get('profile'))).filter(
      (area) => area.state !== 'available' && area.state !== 'never synced',
    ),
    freshness: withFreshness ? rotationFreshness(sqlite, profileOf(meta.get('profile'))) : null,
    restore: restoreStatus(sqlite, profileOf(meta.get('profile'))),
  };
}

/** A resync under way after the service's restore: what showed it, and what is left to read. */
function restoreStatus(
  sqlite: Sqlite,
  profile: 'office' | 'trainer' | null,
): SyncStatus['restore'] {
  const pending = pendingResync(sqlite);
  if (!pending || profile === null) return null;
  return statusOf(pending, resyncOutstanding(sqlite, profile));
}

/** What the outbox still holds (rule 12: the pending count, and why it waits). */
function outboxCounts(sqlite: Sqlite, pausedForLogin: boolean): SyncStatus['outbox'] {
  const byState = openCountsByState(sqlite);
  return {
    open: Object.values(byState).reduce((sum, n) => sum + n, 0),
    byState,
    conflicts: sqlite.prepare('SELECT count(*) FROM conflicts').pluck().get() as number,
    pausedForLogin,
  };
}

function quarantineCounts(sqlite: Sqlite): SyncStatus['quarantine'] {
  const rows = sqlite
    .prepare('SELECT collection, count(*) AS n FROM quarantine GROUP BY collection')
    .all() as { collection: string; n: number }[];
  return {
    total: rows.reduce((sum, r) => sum + r.n, 0),
    byCollection: Object.fromEntries(rows.map((r) => [r.collection, r.n])),
  };
}

export function listQuarantine(
  sqlite: Sqlite,
  args: ParsedQueryArgs<'sync.quarantine'>,
): QueryResults['sync.quarantine'] {
  const where = args.collection === undefined ? '' : 'WHERE collection = ?';
  const params = args.collection === undefined ? [] : [args.collection];
  const total = sqlite
    .prepare(`SELECT count(*) FROM quarantine ${where}`)
    .pluck()
    .get(...params) as number;
  const rows = sqlite
    .prepare(
      `SELECT * FROM quarantine ${where} ORDER BY last_seen_at DESC, collection, id LIMIT ? OFFSET ?`,
    )
    .all(...params, args.limit, args.offset) as QuarantineTable[];
  return { total, items: rows.map(quarantineItem) };
}

function quarantineItem(row: QuarantineTable): QuarantineItem {
  return {
    collection: row.collection,
    type: row.type,
    id: row.id,
    parent: row.parent,
    kind: row.raw === null ? 'failed' : 'unreadable',
    reason: row.reason,
    raw: row.raw === null ? null : parseRaw(row.raw),
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    attempts: row.attempts,
  };
}

function parseRaw(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

const AREA_WORDS: Record<AreaName, { de: string; en: string }> = {
  personnel: { de: 'Personal', en: 'personnel' },
  organisation: { de: 'Organisation', en: 'the organisation' },
  calendars: { de: 'Kalender', en: 'calendars' },
  notifications: { de: 'Benachrichtigungen', en: 'notifications' },
  hours: { de: 'Helferstunden', en: 'volunteer hours' },
  taxRates: { de: 'Steuersätze', en: 'tax rates' },
  courses: { de: 'Kurse', en: 'courses' },
  forms: { de: 'Formulare', en: 'forms' },
};

/** The areas as the replica's sync profile reads them (sync.areas). */
export function currentAreaStatus(sqlite: Sqlite): AreaStatus[] {
  const profile = sqlite
    .prepare("SELECT value FROM replica_meta WHERE key = 'profile'")
    .pluck()
    .get() as string | undefined;
  return areaStatus(
    sqlite.prepare('SELECT * FROM sync_state').all() as SyncStateTable[],
    profileOf(profile),
  );
}

/**
 * Each area's state from its collections' last sync: forbidden (403) and unlicensed (423) are
 * remembered per collection. Collections the profile does not read (any more) do not count: a
 * trainer's replica keeps the office profile's 403 for the clients from its first sync.
 */
export function areaStatus(
  states: readonly SyncStateTable[],
  profile: 'office' | 'trainer' | null,
): AreaStatus[] {
  const byCollection = new Map(
    states.filter((s) => pulledFor(profile, s.collection)).map((s) => [s.collection, s]),
  );
  return (Object.keys(AREAS) as AreaName[]).map((area) => {
    const synced: AreaStatus['collections'] = AREAS[area].flatMap((collection) => {
      const state = byCollection.get(collection);
      if (!state) return [];
      const unavailable =
        state.unavailable === 'forbidden' || state.unavailable === 'unlicensed'
          ? state.unavailable
          : ('available' as const);
      return [{ collection, state: unavailable }];
    });
    const kinds = [...new Set(synced.map((c) => c.state))];
    const [first] = kinds;
    const state: AreaStatus['state'] =
      first === undefined
        ? 'never synced'
        : kinds.length === 1 || !kinds.includes('available')
          ? first
          : 'partial';
    return { area, state, collections: synced, message: areaMessage(area, state) };
  });
}

function areaMessage(area: AreaName, state: AreaStatus['state']): { de: string; en: string } {
  const words = AREA_WORDS[area];
  switch (state) {
    case 'forbidden':
      return { de: `Keine Berechtigung für ${words.de}`, en: `no right to read ${words.en}` };
    case 'unlicensed':
      return area === 'courses'
        ? { de: 'Kursmodul nicht lizenziert', en: 'course module not licensed' }
        : { de: `${words.de}: Modul nicht lizenziert`, en: `${words.en}: module not licensed` };
    case 'partial':
      return {
        de: `${words.de}: nur teilweise lesbar`,
        en: `${words.en}: only partly readable`,
      };
    case 'never synced':
      return { de: `${words.de}: noch nie synchronisiert`, en: `${words.en}: never synced` };
    default:
      return { de: `${words.de}: verfügbar`, en: `${words.en}: available` };
  }
}

function profileOf(value: string | undefined): 'office' | 'trainer' | null {
  return value === 'office' || value === 'trainer' ? value : null;
}
