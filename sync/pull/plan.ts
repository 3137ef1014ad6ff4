// What one sync pulls beyond its incremental collections (DESIGN rule 15): the near window's
// courses every sync, then each rotation's share, least recently confirmed first, as far as the
// request budget goes. Rotations are asked in the order of how much they matter now.
import { addDays, format } from 'date-fns';
import { prepared } from '../db/statements';
import { WHOLE_COLLECTIONS } from '../resources';
import type { PullContext } from './context';
import type { SyncOptions } from './options';
import {
  ITEM_COST,
  LAST_TOUCHED,
  earnedShare,
  keepShare,
  plannedBoundHours,
  type RotationScope,
} from './freshness';
import { courseWindow } from './collections/courses';
import { formOwnerKey, type FormOwner } from './collections/forms';
import { historyWindows } from './collections/hours';
import { pendingResync } from './restore';
import { readState } from './state';

/** The course lane's per-parent work: participants and custom fields, forms, client participants. */
export interface CoursePlan {
  /** Courses of the near window whose participants and custom fields come in this sync. */
  nearCourses: string[];
  /** The course rotation's share of the rest of the course window. */
  courses: string[];
  forms: FormOwner[];
  clients: string[];
}

/** The people lane's: checks and honours, and trainings where the person record does not embed them. */
export interface PeoplePlan {
  people: string[];
  trainings: string[];
}

/** Near-window courses confirmed more recently than this are not asked for again (a sync right after a write). */
const NEAR_WINDOW_MIN_AGE_MS = 60_000;

/**
 * The reference collections, kept on a rotation of their own (the first sync takes them all):
 * the single documents, then the lists read whole, in the registry's order.
 */
const REFERENCE_COLLECTIONS: readonly string[] = [
  'userinfo',
  'orga',
  'helferstunden_einstellungen',
  ...WHOLE_COLLECTIONS.map((whole) => whole.collection),
];
const OFFICE_ONLY = new Set(
  WHOLE_COLLECTIONS.filter((whole) => whole.officeOnly).map((whole) => whole.collection),
);
const ON_REQUEST = WHOLE_COLLECTIONS.filter((whole) => whole.onRequest).map(
  (whole) => whole.collection,
);

/**
 * The reference collections this sync fetches: those never synced (or failed last time) at once,
 * the others on rotation, least recently synced first.
 */
export function planReference(ctx: PullContext): Set<string> {
  const wanted = REFERENCE_COLLECTIONS.filter(
    (name) => !OFFICE_ONLY.has(name) || ctx.options.profile === 'office',
  );
  const states = new Map(
    (
      ctx.replica.sqlite
        .prepare(
          `SELECT collection, last_success_at, last_error FROM sync_state
           WHERE collection IN (${wanted.map(() => '?').join(',')})`,
        )
        .all(...wanted) as {
        collection: string;
        last_success_at: string | null;
        last_error: string | null;
      }[]
    ).map((row) => [row.collection, row]),
  );
  const missing = (name: string) => {
    const state = states.get(name);
    return !state?.last_success_at || state.last_error !== null;
  };
  const due = new Set<string>();
  for (const name of wanted) {
    if ((ctx.options.full || missing(name)) && ctx.budget.take(1, 'reference')) due.add(name);
  }
  if (ctx.options.full) return due;
  if (ctx.options.asked) {
    for (const name of ON_REQUEST)
      if (wanted.includes(name) && !due.has(name) && ctx.budget.take(1, 'reference')) due.add(name);
  }
  const byAge = wanted
    .filter((name) => !missing(name))
    .sort((a, b) =>
      (states.get(a)?.last_success_at ?? '').localeCompare(states.get(b)?.last_success_at ?? ''),
    );
  for (const name of rotate(
    ctx,
    'reference',
    byAge.filter((name) => !due.has(name)),
  ))
    due.add(name);
  return due;
}

/**
 * Whether this sync's personnel pull is the id scan that finds people deleted on the service:
 * due once the last one is older than the deletions bound allows (the scan costs what the
 * incremental pull would: the service sends the list whole).
 */
export function planPersonalScan(ctx: PullContext, lastFullScanAt: string | null): boolean {
  if (ctx.options.full || lastFullScanAt === null) return true;
  const ageMs = ctx.options.now().getTime() - Date.parse(lastFullScanAt);
  return ageMs >= ctx.options.freshnessHours.deletions * 3_600_000 * 0.85;
}

/**
 * The near window: the days whose courses come every sync (first day in, `until` out), in the
 * days of the machine's clock as the course window's. The tests check against it.
 */
export function nearWindow(
  options: Pick<SyncOptions, 'today' | 'nearWindowDaysBack' | 'nearWindowDaysAhead'>,
): { from: string; until: string } {
  const today = options.today();
  return {
    from: format(addDays(today, -options.nearWindowDaysBack), 'yyyy-MM-dd'),
    until: format(addDays(today, options.nearWindowDaysAhead + 1), 'yyyy-MM-dd'),
  };
}

/**
 * The course lane's work, once the courses of the window are known: first the near window (tier
 * 3a, before any rotation takes budget), then the course, forms and client rotations.
 */
export function planCourses(ctx: PullContext, onNearPlanned: () => void): CoursePlan {
  const { sqlite } = ctx.replica;
  const now = ctx.options.now();
  const today = ctx.options.today();
  const near = nearWindow(ctx.options);
  // A full sync asks for every course of the window, however recently confirmed.
  const confirmedBefore = ctx.options.full
    ? []
    : [
        new Date(
          now.getTime() -
            Math.min(NEAR_WINDOW_MIN_AGE_MS, ctx.options.freshnessHours.courses * 3_600_000),
        ).toISOString(),
      ];
  const nearCourses = ids(
    ctx,
    `SELECT c.id FROM courses c ${touched('course')} c.id
     WHERE c.last_date >= ? AND c.first_date < ? AND c.id NOT LIKE 'local-%'
       ${confirmedBefore.length ? 'AND (f.confirmed_at IS NULL OR f.confirmed_at < ?)' : ''}
     ORDER BY c.first_date`,
    near.from,
    near.until,
    ...confirmedBefore,
  ).filter(() => ctx.options.full || ctx.budget.take(ITEM_COST.course, 'course'));
  onNearPlanned();

  // A course without dates is in no window but still on the rotation; one that slid out of the
  // course window is not.
  const day = format(today, 'yyyy-MM-dd');
  const window = courseWindow(ctx.options);
  const courses = rotate(
    ctx,
    'course',
    ids(
      ctx,
      `SELECT c.id FROM courses c ${touched('course')} c.id
       WHERE NOT coalesce(c.last_date >= ? AND c.first_date < ?, 0)
         AND coalesce(c.last_date >= ? AND c.first_date <= ?, 1) AND c.id NOT LIKE 'local-%'
       ORDER BY ${LAST_TOUCHED},
         abs(julianday(substr(coalesce(c.first_date, ?), 1, 10)) - julianday(?))`,
      near.from,
      near.until,
      window.from,
      `${window.until}T99`,
      day,
      day,
    ),
  );

  // The own form list never confirmed yet comes at once (tier 2).
  const ownForms = ownNeverConfirmed(ctx, 'forms', ctx.selfId && `u:${ctx.selfId}`);
  const owners: FormOwner[] = [
    ...(ctx.selfId ? [{ typ: 'u' as const, id: ctx.selfId }] : []),
    ...ids(
      ctx,
      `SELECT id FROM courses WHERE last_date >= ? AND id NOT LIKE 'local-%' ORDER BY first_date`,
      day,
    ).map((id) => ({ typ: 'k' as const, id })),
  ];
  const formsTouched = new Map(
    sqlite
      .prepare(`SELECT f.id, ${LAST_TOUCHED} FROM confirmations f WHERE f.scope = 'forms'`)
      .raw()
      .all() as [string, string][],
  );
  const formKeys = new Map(owners.map((owner) => [formOwnerKey(owner), owner]));
  const formsOrder = [...formKeys.keys()].sort((a, b) =>
    (formsTouched.get(a) ?? '').localeCompare(formsTouched.get(b) ?? ''),
  );
  const forms = rotate(ctx, 'forms', ownForms, formsOrder).map(
    (key) => formKeys.get(key) as FormOwner,
  );
  const clients =
    ctx.options.profile === 'office'
      ? rotate(
          ctx,
          'client',
          ids(
            ctx,
            `SELECT c.id FROM clients c ${touched('client')} c.id ORDER BY ${LAST_TOUCHED}, c.id`,
          ),
        )
      : [];

  return { nearCourses, courses, forms, clients };
}

/** The people lane's rotations (the own person never confirmed comes at once: tier 2). */
export function planPeople(ctx: PullContext): PeoplePlan {
  const office = ctx.options.profile === 'office';
  const people = rotate(
    ctx,
    'person',
    ownNeverConfirmed(ctx, 'person', ctx.selfId),
    ids(
      ctx,
      `SELECT u.id FROM users u ${touched('person')} u.id
       WHERE ${office ? '1 = 1' : 'u.id = ?'} AND u.id NOT LIKE 'local-%'
       ORDER BY ${LAST_TOUCHED}, u.id`,
      ...(office ? [] : [ctx.selfId]),
    ),
  );
  const trainings = rotate(
    ctx,
    'trainings',
    ids(
      ctx,
      `SELECT u.id FROM users u ${touched('trainings')} u.id
       WHERE u.trainings_from_endpoint = 1 AND u.id NOT LIKE 'local-%'
       ORDER BY ${LAST_TOUCHED}, u.id`,
    ),
  );
  return { people, trainings };
}

/**
 * Tier 4: how many history windows of the hours this sync fetches (the rotation that finds their
 * deletions); none in the sync whose first load completed a cycle (a trainer's hours are one window).
 */
export function planHoursWindows(ctx: PullContext): number {
  const cycleEnded = readState(ctx.replica.sqlite, 'helferstunden').last_full_scan_at;
  const justScanned = cycleEnded !== null && Date.parse(cycleEnded) >= ctx.startedAt.getTime();
  const windows = justScanned ? [] : historyWindows(ctx).map((window) => window.von);
  return rotate(ctx, 'hours_window', windows).length;
}

/** SQL: the confirmations of `scope` joined as `f` to the item named next. */
const touched = (scope: RotationScope) =>
  `LEFT JOIN confirmations f ON f.scope = '${scope}' AND f.id = `;

function ids(ctx: PullContext, sql: string, ...params: unknown[]): string[] {
  return ctx.replica.sqlite
    .prepare(sql)
    .pluck()
    .all(...params) as string[];
}

/** `id` when the own record `id` of `scope` was never confirmed (it is taken before the rotation). */
function ownNeverConfirmed(ctx: PullContext, scope: RotationScope, id: string | null) {
  if (id === null) return null;
  const known = prepared(
    ctx.replica.sqlite,
    'SELECT 1 FROM confirmations WHERE scope = ? AND id = ? AND confirmed_at IS NOT NULL',
  ).get(scope, id);
  return known ? null : id;
}

/** The rotations in the order a sync plans them (the course lane's, the people's, the hours'). */
const PLAN_ORDER: readonly RotationScope[] = [
  'course',
  'forms',
  'client',
  'person',
  'trainings',
  'hours_window',
];

/**
 * While a resync after the service's restore is under way, the items not read again yet (no
 * confirmation since it began) are all due, and come first in the candidates' order (least
 * recently confirmed first). How many this sync takes: as many as the budget allows, but at most
 * an even part of what is left for this rotation and those planned after it, so a large
 * rotation (everyone's checks) never starves a later one (the hours' windows, which find what
 * the service no longer has); what a rotation leaves goes to the later ones. The reference lists
 * are due at once by their own rule (never synced since).
 */
function catchingUp(ctx: PullContext, scope: RotationScope, candidates: readonly string[]): number {
  if (scope === 'reference' || ctx.options.full) return 0;
  const { sqlite } = ctx.replica;
  if (!pendingResync(sqlite)) return 0;
  const touched = new Set(
    prepared(sqlite, 'SELECT id FROM confirmations WHERE scope = ?').pluck().all(scope) as string[],
  );
  const untouched = candidates.filter((id) => !touched.has(id)).length;
  const rotations = PLAN_ORDER.slice(PLAN_ORDER.indexOf(scope)).filter(
    (s) => s !== 'client' || ctx.options.profile === 'office',
  ).length;
  const evenPart = Math.floor(ctx.budget.remaining() / rotations / ITEM_COST[scope]);
  return Math.min(untouched, evenPart);
}

/**
 * A rotation's items for this sync: its earned share of `candidates` (ordered least recently
 * confirmed first), as far as the budget goes; what the budget cannot carry stays earned for
 * the next sync. A full sync takes every item.
 */
function rotate<T extends string>(
  ctx: PullContext,
  scope: RotationScope,
  ...args: [first: T | null, candidates: readonly T[]] | [candidates: readonly T[]]
): T[] {
  const [first, candidates] = args.length === 2 ? args : [null, args[0]];
  if (ctx.options.full) return [...candidates];
  if (first !== null && ctx.budget.take(ITEM_COST[scope], scope)) {
    return [
      first,
      ...rotate(
        ctx,
        scope,
        candidates.filter((item) => item !== first),
      ),
    ];
  }
  const { sqlite } = ctx.replica;
  const now = ctx.options.now();
  const bound = plannedBoundHours(scope, ctx.options.freshnessHours);
  const share = earnedShare(
    sqlite,
    scope,
    candidates.length,
    bound,
    now,
    ctx.options.intervalSeconds,
  );
  const wanted = Math.min(
    Math.max(Math.floor(share + 1e-9), catchingUp(ctx, scope, candidates)),
    candidates.length,
  );
  const taken: T[] = [];
  for (const item of candidates.slice(0, wanted)) {
    if (!ctx.budget.take(ITEM_COST[scope], scope)) break;
    taken.push(item);
  }
  ctx.budget.defer(scope, wanted - taken.length - (taken.length < wanted ? 1 : 0));
  keepShare(sqlite, scope, share - taken.length, now);
  return taken;
}
