// The sync's side of the contract: the service's areas (declared in ./collections.ts), what
// sync.status, sync.areas and sync.quarantine answer, and the background scheduler's state
// that every sync indicator shows. Imports the contract only: the renderer imports it.

export { AREAS, COLLECTIONS, type AreaName } from './collections';
import type { AreaName } from './collections';

export interface SyncStatus {
  /** Records in the replica, keyed by the service's resource type. */
  counts: Record<string, number>;
  collections: {
    collection: string;
    watermark: string | null;
    lastSuccessAt: string | null;
    lastFullScanAt: string | null;
    unavailable: string | null;
    lastError: string | null;
  }[];
  lastSync: { at: string; ok: boolean; seconds: number } | null;
  lastSuccessfulSyncAt: string | null;
  profile: string | null;
  selfId: string | null;
  /** Records and items set aside by the syncs, per collection (details: the sync.quarantine query). */
  quarantine: { total: number; byCollection: Record<string, number> };
  /** Local writes not yet accepted by the service, by state; open conflicts; a queue waiting for login. */
  outbox: {
    open: number;
    byState: Partial<Record<'pending' | 'in_flight' | 'retrying' | 'parked' | 'unknown', number>>;
    conflicts: number;
    pausedForLogin: boolean;
  };
  /** Areas the account cannot use (403) or the organisation has not licensed (423). */
  unavailableAreas: AreaStatus[];
  /**
   * Per rotation of per-parent collections: how much the service has confirmed, and how long ago;
   * null unless asked for (`freshness: true`: it reads every person and course, about 16 ms on
   * the `large` replica, and no screen shows it; `vorort status` does).
   */
  freshness: RotationFreshness[] | null;
  /**
   * The service was restored from a backup and the replica is being read again, as on a first
   * sync: shown until that is complete; null otherwise.
   */
  restore: RestoreStatus | null;
}

/**
 * What showed that the service was restored from a backup: a record the replica had seen with a
 * change time (`updated_at`) that the service now shows older. A restore rolls back the data,
 * not the clock, so no watermark can tell.
 */
export interface RestoreEvidence {
  kind: 'older-version';
  /** The replica's table of the record (`helferstunden`, `participations`, ...) and its id. */
  table: string;
  id: string;
  /** The record's change time as the replica had it, and as the service shows it now. */
  seenUpdatedAt: string;
  shownUpdatedAt: string;
}

/** A restore of the service noticed by a sync, and how far reading everything again has come. */
export interface RestoreStatus {
  /** When it was noticed (local time). */
  detectedAt: string;
  evidence: RestoreEvidence;
  /**
   * What is still to be read again: collections (their lists, id scans and hour windows) and
   * items of the rotations (courses' participants, people's checks, ...).
   */
  outstanding: { collections: string[]; items: number };
}

/**
 * One rotation (e.g. `course`: the participants and custom fields of every course) as the
 * service last confirmed it. `confirmed < items`: the rotation has not yet reached every item.
 */
export interface RotationFreshness {
  rotation: 'course' | 'forms' | 'person' | 'trainings' | 'client' | 'hours_window';
  collections: string[];
  items: number;
  confirmed: number;
  /** The oldest confirmation among the confirmed items (local time). */
  oldestConfirmedAt: string | null;
  /** The default bound: every item confirmed at most this many hours ago. */
  boundHours: number;
}

export interface AreaStatus {
  area: AreaName;
  /** forbidden / unlicensed: the whole area; partial: some of its collections (see `collections`). */
  state: 'available' | 'forbidden' | 'unlicensed' | 'partial' | 'never synced';
  collections: { collection: string; state: 'available' | 'forbidden' | 'unlicensed' }[];
  /** The state in words, German first. */
  message: { de: string; en: string };
}

export interface QuarantineItem {
  collection: string;
  type: string;
  id: string;
  /** The scope it came in: '' for a whole collection, else the parent's id (a course, a person). */
  parent: string;
  /** unreadable: the service sent a record the client could not read; failed: its request failed. */
  kind: 'unreadable' | 'failed';
  reason: string;
  /** The record as the service sent it (unreadable only). */
  raw: unknown;
  firstSeenAt: string;
  lastSeenAt: string;
  attempts: number;
}

/** Why the background scheduler is not syncing as planned, in words (DESIGN rule 12). */
export interface SchedulerProblem {
  /** network: the service is unreachable; login: it refused the token; service: it answered an error; clock: this computer's clock is far off the service's. */
  kind: 'network' | 'login' | 'service' | 'clock';
  message: { de: string; en: string };
}

/** The background scheduler's state: what a sync indicator shows (the event `sync.state`). */
export interface SchedulerState {
  phase: 'idle' | 'syncing' | 'offline' | 'login-needed' | 'error';
  /** While syncing: the collection being pulled (or 'outbox'), with counts where known. */
  progress: { collection: string; done: number; total?: number } | null;
  problem: SchedulerProblem | null;
  lastSuccessfulSyncAt: string | null;
  /** When the next sync (or, offline, the next reachability probe) is planned. */
  nextAttemptAt: string | null;
  /** Local writes waiting to be sent, and those the service refused (need the user). */
  pending: number;
  parked: number;
  conflicts: number;
}
