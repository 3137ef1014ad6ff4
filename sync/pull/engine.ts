// One sync: every collection of the profile, in an order where parents come before children.
import { setMaxListeners } from 'node:events';
import { watchClockSkew, type ApiClient } from '../api';
import { AREAS } from '../contract';
import type { Replica } from '../db/open';
import { tableChangesOf } from '../db/table-changes';
import { baseOf, WHOLE_COLLECTIONS } from '../resources';
import type { CollectionResult, PullContext } from './context';
import { countCollectionRequest, countingOwnRequests, createPullContext } from './context';
import { RequestBudget, type BudgetReport } from './budget';
import { pullCourseChildren, pullCourses } from './collections/courses';
import { pullClientParticipants } from './collections/client-participants';
import { pullForms } from './collections/forms';
import { pullHourSettings } from './collections/hour-settings';
import { pullHours, pullHoursHistory } from './collections/hours';
import { pullPersonDetails } from './collections/person-details';
import { pullEndpointTrainings, pullPersonal } from './collections/personal';
import { pullSingleton, pullWhole } from './collections/whole';
import { DEFAULT_SYNC_OPTIONS, type SyncOptions, type SyncProgress } from './options';
import { pullFeed, serviceHostWatch } from './feed-sync';
import { forgetGoneItems } from './freshness';
import { planCourses, planHoursWindows, planPeople, planPersonalScan, planReference } from './plan';
import { pruneOrphans } from './quarantine';
import { RestoreWatch, type RestoreNotice } from './restore';
import { readState, setMeta, setSyncLog, writeState } from './state';

export interface SyncSummary {
  ok: boolean;
  profile: SyncOptions['profile'];
  collections: Record<string, CollectionResult>;
  /** Records set aside as unreadable and items whose request failed, in this sync (see `vorort status --json`). */
  quarantined: number;
  /** Areas the account may not read (403) or the organisation has not licensed (423): skipped, not failed. */
  unavailable: { collection: string; reason: 'forbidden' | 'unlicensed'; message: string }[];
  records: number;
  requests: number;
  seconds: number;
  startedAt: string;
  finishedAt: string;
  /** What this sync could spend, what it spent, and the work it left for later syncs. */
  budget: BudgetReport;
  /**
   * The service was restored from a backup: noticed by this sync, or being read again since an
   * earlier one noticed it (until the sync that completes that). Absent otherwise.
   */
  restore?: RestoreNotice;
  /** The replica's tables this sync changed (sorted): what the screens read again. */
  tables?: string[];
  /**
   * This computer's clock less the service's, in seconds, from the Date of the pull's answers;
   * absent when no answer had one or the difference is within the HTTP date's rounding.
   */
  clockSkewSeconds?: number;
}

export interface RunSyncInput {
  api: ApiClient;
  replica: Replica;
  options: Partial<SyncOptions> & Pick<SyncOptions, 'profile'>;
  onProgress?: (event: SyncProgress) => void;
  signal?: AbortSignal;
  /**
   * Requests this pull may send: the sync's budget less what the push of the outbox spent
   * (see pullBudget). Default options.requestBudget; a `full` sync has none.
   */
  budget?: number;
  /** The client's pace (requests a minute), when it has one: the pull stops before it would run past its slot. */
  paceRequestsPerMinute?: number;
}

/** What a pull is told besides its client and replica (the place it runs in holds those). */
export type PullRun = Omit<RunSyncInput, 'api' | 'replica'>;

/** Where a pull runs: runSync in this thread, or a worker thread (see pullInWorker). */
export type PullRunner = (run: PullRun) => Promise<SyncSummary>;

/**
 * The collections of the course module (an unlicensed module, 423, skips them all): the courses
 * area, course_types first, and the forms, which are pulled with the courses.
 */
export const COURSE_MODULE: readonly string[] = [...AREAS.courses, 'formulare'];

/** The order of a summary's collections (they are pulled side by side, so they finish in any order). */
const SUMMARY_ORDER = [
  'userinfo',
  'orga',
  ...AREAS.personnel,
  ...referenceLists().map((whole) => whole.collection),
  'helferstunden_einstellungen',
  ...COURSE_MODULE,
  'helferstunden',
  'helferstunden_history',
];

export async function runSync(input: RunSyncInput): Promise<SyncSummary> {
  const started = Date.now();
  const options: SyncOptions = { ...DEFAULT_SYNC_OPTIONS, ...input.options };
  // The lanes share one signal: the caller's cancellation, or a lane that failed for good.
  const stop = new AbortController();
  // Every request in flight or waiting for a slot listens to it: hundreds at once, not a leak.
  setMaxListeners(0, stop.signal);
  const forwardAbort = () => stop.abort(input.signal?.reason);
  if (input.signal?.aborted) forwardAbort();
  else input.signal?.addEventListener('abort', forwardAbort, { once: true });
  let requests = 0;
  const budget = new RequestBudget({
    limit: options.full ? null : (input.budget ?? options.requestBudget),
    ...(input.paceRequestsPerMinute ? { paceRequestsPerMinute: input.paceRequestsPerMinute } : {}),
    ...(options.full ? {} : { slotMs: options.intervalSeconds * 1000 }),
  });
  const restoreWatch = new RestoreWatch(input.replica.sqlite, options.overlapSeconds);
  const ctx = createPullContext({
    api: restoreWatch.api(input.api),
    replica: input.replica,
    options,
    signal: stop.signal,
    syncedAt: new Date(started).toISOString(),
    progress: input.onProgress,
    budget,
  });
  restoreWatch.listen(ctx.writer);
  // Many short transactions would each trigger a WAL checkpoint that rewrites the same hot index
  // pages. With the limit back at the end, the sync's closing bookkeeping commits and checkpoints
  // once if the log is over it, as SQLite does: a small sync (a trainer's) costs no checkpoint.
  const checkpointEvery = input.replica.sqlite.pragma('wal_autocheckpoint', {
    simple: true,
  }) as number;
  input.replica.sqlite.pragma('wal_autocheckpoint = 0');
  const serviceHost = serviceHostWatch(input.api);
  const clock = watchClockSkew(input.api);
  let clockSkewSeconds: number | undefined;
  try {
    // Only this sync's requests count (an on-demand refresh may share the client meanwhile).
    await countingOwnRequests(
      input.api,
      () => {
        requests += 1;
        budget.observe();
        countCollectionRequest();
      },
      async () => {
        await pullEverything(ctx, stop, restoreWatch);
        // The private calendar feed: one plain request outside the client, counted here.
        if (await pullFeed(ctx)) requests += 1;
      },
    );
    serviceHost.remember(ctx);
  } catch (error) {
    // A restore this sync noticed is kept even so: the older version is written now.
    restoreWatch.conclude(ctx);
    throw error;
  } finally {
    serviceHost.stop();
    clockSkewSeconds = clock.stop();
    input.signal?.removeEventListener('abort', forwardAbort);
    input.replica.sqlite.pragma(`wal_autocheckpoint = ${checkpointEvery}`);
  }
  const summary = finish(ctx, input.replica, started, requests, restoreWatch);
  return clockSkewSeconds === undefined ? summary : { ...summary, clockSkewSeconds };
}

/**
 * The collections in independent lanes that run side by side, each in parent-before-child order:
 * while one lane parses and writes, the service already answers another lane's requests (the
 * client's request slots are shared, so the service sees no more at once than one lane would).
 * First the incremental collections, the own records and the reference data due (tier 2); then,
 * planned with what is left of the budget, the per-parent collections and the rotations.
 */
async function pullEverything(
  ctx: PullContext,
  stop: AbortController,
  restoreWatch: RestoreWatch,
): Promise<void> {
  const reference = planReference(ctx);
  const personalScan = planPersonalScan(
    ctx,
    readState(ctx.replica.sqlite, 'personal').last_full_scan_at,
  );
  // The own id comes first: the trainer profile, the own hours and the own forms need it.
  ctx.selfId = selfIdOf(ctx.replica);
  if (reference.has('userinfo') || ctx.selfId === null)
    await pullSingleton(ctx, 'userinfo', async (signal) => {
      const info = await ctx.api.getUserInfo({ signal });
      ctx.selfId = info.sub;
      return { type: 'userinfo', id: info.sub, base: JSON.stringify(info) };
    });
  // Each lane goes on into its per-parent work as soon as its own tier-2 part is in. The near
  // window is planned (tier 3a) before any rotation; the hours' windows (tier 4) after them all.
  const nearPlanned = settledSignal();
  const peoplePlanned = settledSignal();
  await runLanes(stop, [
    async () => {
      try {
        await withinBudget(ctx, 'personal', () => pullPersonal(ctx, personalScan));
        await nearPlanned.settled;
        if (stop.signal.aborted) return;
        const plan = planPeople(ctx);
        peoplePlanned.settle();
        await pullEndpointTrainings(ctx, plan.trainings);
        await pullPersonDetails(ctx, plan.people);
      } finally {
        peoplePlanned.settle();
      }
    },
    () => pullReferenceData(ctx, reference),
    async () => {
      try {
        await pullCourseList(ctx, reference);
        if (courseModuleSkipped(ctx)) return;
        const plan = planCourses(ctx, nearPlanned.settle);
        if (!ctx.results.get('courses')?.skipped)
          await pullCourseChildren(ctx, plan.nearCourses, plan.courses);
        await pullForms(ctx, plan.forms);
        if (
          ctx.options.profile === 'office' &&
          !skipDependents(ctx, 'clients', ['client_participants'])
        )
          await pullClientParticipants(ctx, plan.clients);
      } finally {
        nearPlanned.settle();
      }
    },
    async () => {
      await withinBudget(ctx, 'helferstunden', () => pullHours(ctx));
      await restoreWatch.probeHours(ctx);
      await Promise.all([nearPlanned.settled, peoplePlanned.settled]);
      // Nothing is planned (nor its share spent) once another lane has failed for good.
      if (stop.signal.aborted) return;
      await pullHoursHistory(ctx, planHoursWindows(ctx));
    },
  ]);
}

/**
 * Waits for every pull, then throws the first failure: none may still write into the replica
 * once the sync has returned.
 */
async function allOrFirstFailure(pulls: readonly (Promise<unknown> | false)[]): Promise<void> {
  const outcomes = await Promise.allSettled(pulls);
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure) throw failure.reason;
}

/** A one-time signal between lanes: settle() may be called any number of times. */
function settledSignal(): { settled: Promise<void>; settle: () => void } {
  let settle = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { settled, settle };
}

/** Runs a tier-2 collection when the budget has a request for it; otherwise it waits for the next sync. */
async function withinBudget(ctx: PullContext, collection: string, pull: () => Promise<unknown>) {
  if (ctx.options.full || ctx.budget.take(1, collection)) await pull();
}

/** The signed-in user's id as the last sync learnt it (userinfo is on the reference rotation). */
function selfIdOf(replica: Replica): string | null {
  return (
    (replica.sqlite
      .prepare("SELECT value FROM replica_meta WHERE key = 'self_id'")
      .pluck()
      .get() as string | undefined) ?? null
  );
}

/**
 * Waits for every lane. The first lane to fail for good (auth, network, cancellation) stops the
 * others through the shared signal; its failure is thrown once nothing runs any more.
 */
async function runLanes(stop: AbortController, lanes: (() => Promise<void>)[]): Promise<void> {
  let firstFailure: { error: unknown } | undefined;
  await Promise.allSettled(
    lanes.map(async (lane) => {
      try {
        await lane();
      } catch (error) {
        firstFailure ??= { error };
        stop.abort(error);
      }
    }),
  );
  if (firstFailure) throw firstFailure.error;
}

/** The own organisation and the small collections that everything else refers to, those due. */
async function pullReferenceData(ctx: PullContext, due: ReadonlySet<string>) {
  const pulls: Promise<unknown>[] = [];
  if (due.has('orga'))
    pulls.push(
      pullSingleton(ctx, 'orga', async (signal) => {
        const { data } = await ctx.api.getOrganisation({ signal });
        return { type: data.type, id: data.id, base: baseOf(data) };
      }),
    );
  for (const whole of referenceLists())
    if (due.has(whole.collection)) pulls.push(pullWhole(ctx, wholeSpec(ctx, whole)));
  if (due.has('helferstunden_einstellungen')) pulls.push(pullHourSettings(ctx));
  // Small and independent of each other: side by side (the client bounds what is in flight).
  await allOrFirstFailure(pulls);
}

/** The course module's reference data due, then the courses of the window (every sync). */
async function pullCourseList(ctx: PullContext, due: ReadonlySet<string>) {
  const office = ctx.options.profile === 'office';
  if (due.has('course_types')) await pullWhole(ctx, wholeSpec(ctx, courseList('course_types')));
  if (courseModuleSkipped(ctx)) {
    // The organisation has no course module (423): skip it, without failing the sync.
    skipDependents(ctx, 'course_types', COURSE_MODULE.slice(1));
    return;
  }
  // The UVTs beside the clients and courses (the courses name clients, so those come first).
  await allOrFirstFailure([
    due.has('uvts') && pullWhole(ctx, wholeSpec(ctx, courseList('uvts'))),
    (async () => {
      if (office && due.has('clients')) await pullWhole(ctx, wholeSpec(ctx, courseList('clients')));
      await withinBudget(ctx, 'courses', () => pullCourses(ctx));
    })(),
  ]);
  // Without the courses, their participants and fields cannot be asked for: the same reason holds.
  skipDependents(ctx, 'courses', ['participations', 'customfields']);
}

/** The lists read whole on the reference rotation, beside the other small collections. */
function referenceLists() {
  return WHOLE_COLLECTIONS.filter((whole) => whole.lane === 'reference');
}

/** One of the course module's lists read whole, which the courses' lane fetches in its order. */
function courseList(collection: string) {
  const whole = WHOLE_COLLECTIONS.find(
    (candidate) => candidate.lane === 'courses' && candidate.collection === collection,
  );
  if (!whole) throw new Error(`No course list ${collection} in the resource registry`);
  return whole;
}

/** What pullWhole needs of a list read whole, with this sync's client. */
function wholeSpec(ctx: PullContext, whole: (typeof WHOLE_COLLECTIONS)[number]) {
  return {
    collection: whole.collection,
    table: whole.table,
    fetch: (signal?: AbortSignal) => whole.fetch(ctx.api, signal),
    toRow: whole.toRow,
  };
}

/** The organisation has not licensed the course module (423), as this sync or the last one heard. */
function courseModuleSkipped(ctx: PullContext): boolean {
  const result = ctx.results.get('course_types');
  if (result) return result.skipped === 'unlicensed';
  return readState(ctx.replica.sqlite, 'course_types').unavailable === 'unlicensed';
}

/**
 * When `parent` was skipped (403 or 423), records the same for the collections that depend on it,
 * in the summary and in their sync state (so the areas say why), and answers true.
 */
function skipDependents(ctx: PullContext, parent: string, dependents: readonly string[]): boolean {
  const result = ctx.results.get(parent);
  if (!result?.skipped) return false;
  for (const collection of dependents) {
    ctx.results.set(collection, {
      records: 0,
      deleted: 0,
      requests: 0,
      seconds: 0,
      skipped: result.skipped,
      ...(result.skippedBecause ? { skippedBecause: result.skippedBecause } : {}),
    });
    const state = readState(ctx.replica.sqlite, collection);
    writeState(ctx.replica.sqlite, { ...state, unavailable: result.skipped, last_error: null });
  }
  return true;
}

function finish(
  ctx: PullContext,
  replica: Replica,
  started: number,
  requests: number,
  restoreWatch: RestoreWatch,
): SyncSummary {
  const finished = Date.now();
  const rank = (name: string) => {
    const index = SUMMARY_ORDER.indexOf(name);
    return index === -1 ? SUMMARY_ORDER.length : index;
  };
  pruneOrphans(ctx);
  forgetGoneItems(replica.sqlite);
  const restore = restoreWatch.conclude(ctx);
  const collections = Object.fromEntries([...ctx.results].sort(([a], [b]) => rank(a) - rank(b)));
  const results = Object.values(collections);
  const summary: SyncSummary = {
    // Items that failed leave the sync incomplete (exit 1), like a failed collection.
    ok: results.every((r) => !r.error && !r.failedItems),
    profile: ctx.options.profile,
    collections,
    quarantined: results.reduce((sum, r) => sum + (r.quarantined ?? 0) + (r.failedItems ?? 0), 0),
    unavailable: Object.entries(collections).flatMap(([collection, r]) =>
      r.skipped ? [{ collection, reason: r.skipped, message: r.skippedBecause ?? '' }] : [],
    ),
    records: Object.values(collections).reduce((sum, r) => sum + r.records, 0),
    requests,
    seconds: (finished - started) / 1000,
    startedAt: ctx.syncedAt,
    finishedAt: new Date(finished).toISOString(),
    budget: ctx.budget.report(),
    ...(restore ? { restore } : {}),
  };
  setMeta(replica.sqlite, 'profile', ctx.options.profile);
  if (ctx.selfId) setMeta(replica.sqlite, 'self_id', ctx.selfId);
  setSyncLog(
    replica.sqlite,
    'last_sync',
    JSON.stringify({ at: summary.finishedAt, ok: summary.ok, seconds: summary.seconds }),
  );
  if (summary.ok) setSyncLog(replica.sqlite, 'last_successful_sync_at', summary.finishedAt);
  refreshQueryPlannerStatistics(replica);
  // Taken last: the sync's own bookkeeping (sync.status reads it) is a change too.
  summary.tables = tableChangesOf(replica.sqlite)?.take() ?? [];
  return summary;
}

/**
 * Lets SQLite's planner see the data's shape (e.g. that most people are 'aktiv', so a name range
 * beats the status index). A bounded ANALYZE: milliseconds even on a large replica.
 */
function refreshQueryPlannerStatistics(replica: Replica): void {
  replica.sqlite.pragma('analysis_limit = 1000');
  replica.sqlite.pragma('optimize = 0x10002');
}
