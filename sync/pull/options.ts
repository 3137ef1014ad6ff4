// What one sync may be told, and what it tells while it runs.

/** trainer: own courses with their participants, own hours, own calendars, reference data. office: everything the token may read. */
export type SyncProfile = 'office' | 'trainer';

export interface SyncOptions {
  profile: SyncProfile;
  /** Everything at once, outside the budget: every collection whole, every item of every rotation. */
  full: boolean;
  /** Courses are replaced inside this window around today. */
  courseMonthsBack: number;
  courseMonthsAhead: number;
  /** Watermarks are the service's clock minus this overlap, so nothing slips between two syncs. */
  overlapSeconds: number;
  /** Hours before this date are not replicated (the service's default hides everything older than 6 months). */
  hoursHistoryStart: string;
  /** The first sync fetches hours in windows of this many months, bounding the size of one answer. */
  hoursWindowMonths: number;
  /** Rows applied per transaction before yielding to the event loop. */
  chunkSize: number;
  /** The local calendar day, for date windows (never used for watermarks). */
  today: () => Date;
  /** The local clock, for confirmation times and the rotation's shares (never used for watermarks). */
  now: () => Date;
  /**
   * Requests one scheduled sync may send, the outbox's included: 30 a minute (the pace of the
   * service's public clients) over a sync every 5 minutes. `full` syncs ignore it.
   */
  requestBudget: number;
  /** The time between scheduled syncs: each sync takes this share of every rotation. */
  intervalSeconds: number;
  /**
   * Participants and custom fields of courses from this many days back to this many ahead: every
   * sync. One day back: the day after a course its attendance is handed in; later a finished
   * course changes rarely, and the course rotation (24 h) and the refresh on opening it keep it.
   */
  nearWindowDaysBack: number;
  nearWindowDaysAhead: number;
  /** The longest a confirmation may age (hours), per rotation; see sync/pull/freshness.ts. */
  freshnessHours: FreshnessBounds;
  /**
   * The user asked for this sync ("sync now"): the lists that bring news (the notifications)
   * are read whatever their rotation says, as a mail client fetches on request.
   */
  asked: boolean;
}

/** How old, at most, what the service confirmed may grow under the default schedule. */
export interface FreshnessBounds {
  /** Participants and custom fields of any course in the window, and the forms of courses. */
  courses: number;
  /** A person's checks, honours and (where not embedded) trainings. */
  people: number;
  /** Records deleted on the service: found within this (id scans, history windows of hours). */
  deletions: number;
  /** The small reference collections (organisation, calendars, types, tax rates, ...). */
  reference: number;
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
  overlapSeconds: 120,
  hoursHistoryStart: `${new Date().getFullYear() - 5}-01-01`,
  hoursWindowMonths: 1,
  chunkSize: 2000,
  today: () => new Date(),
  now: () => new Date(),
  requestBudget: 150,
  intervalSeconds: 300,
  nearWindowDaysBack: 1,
  nearWindowDaysAhead: 14,
  freshnessHours: { courses: 24, people: 24 * 7, deletions: 24, reference: 1 },
  asked: false,
};

/**
 * Every item of every rotation in every sync, without a budget (bounds of 0 hours): for tests of
 * the pull's correctness and for a fast local service. `full` does the same and also re-applies
 * answers that did not change.
 */
export const EVERY_ITEM_EVERY_SYNC = {
  requestBudget: Infinity,
  freshnessHours: { courses: 0, people: 0, deletions: 0, reference: 0 },
} satisfies Partial<SyncOptions>;
