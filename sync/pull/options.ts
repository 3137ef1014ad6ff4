// What one sync may be told, and what it tells while it runs.

/** trainer: own courses with their participants, own hours, own calendars, reference data. office: everything the token may read. */
export type SyncProfile = 'office' | 'trainer';

export interface SyncOptions {
  profile: SyncProfile;
  /** Force the full id scan of every collection (deletions) and a refresh of every person's details. */
  full: boolean;
  /** Courses are replaced inside this window around today. */
  courseMonthsBack: number;
  courseMonthsAhead: number;
  /** Every Nth sync is a full id scan that finds records deleted on the service. */
  fullScanEvery: number;
  /** Watermarks are the service's clock minus this overlap, so nothing slips between two syncs. */
  overlapSeconds: number;
  /** Hours before this date are not replicated (the service's default hides everything older than 6 months). */
  hoursHistoryStart: string;
  /** The first sync fetches hours in windows of this many months, bounding the size of one answer. */
  hoursWindowMonths: number;
  /** Checks and honours cost one request per person each: at most this many people per sync (least recently refreshed first). */
  personDetailsPerSync: number;
  /** Rows applied per transaction before yielding to the event loop. */
  chunkSize: number;
  /** The local calendar day, for date windows (never used for watermarks). */
  today: () => Date;
}

export interface SyncProgress {
  collection: string;
  done: number;
  /** Known when the whole answer is in hand. */
  total?: number;
}

export const DEFAULT_SYNC_OPTIONS: Omit<SyncOptions, 'profile'> = {
  full: false,
  courseMonthsBack: 3,
  courseMonthsAhead: 12,
  fullScanEvery: 10,
  overlapSeconds: 120,
  hoursHistoryStart: `${new Date().getFullYear() - 5}-01-01`,
  hoursWindowMonths: 1,
  personDetailsPerSync: 500,
  chunkSize: 2000,
  today: () => new Date(),
};
