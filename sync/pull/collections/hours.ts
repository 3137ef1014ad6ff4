// Volunteer hours: incremental with filter[changed_since]. The service's defaults hide data
// (own entries only, nothing older than 6 months), so every request names `eigene` and an early
// `von`. A full scan fetches date windows (bounding the size of one answer) and removes what the
// service no longer lists. Occasions, types and the occasions' events come in `included`.
// Every page of a paged answer is applied and marked seen, those of its verification pass too
// (sync/api/core.ts): an entry a deletion between two pages hid comes from the second pass.
import { addMonths, format, parseISO } from 'date-fns';
import { collectPages, type Page } from '../../api';
import { deferIndexesIfEmpty } from '../../db/deferred-indexes';
import {
  anlassReferenz,
  helferstunden,
  helferstundenAnlass,
  helferstundenTyp,
  type ServiceResource,
} from '../../resources';
import {
  applyInChunks,
  endsTheItemLoop,
  guardMassDeletion,
  isGone,
  missingIds,
  prefetched,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';
import { confirm, plannedBoundHours } from '../freshness';
import { forgetQuarantined, stillQuarantined, takeAnswer, tallyOf } from '../quarantine';
import { readState } from '../state';
import type { Answer } from './whole';

const INCLUDE = ['anlass', 'typ', 'anlass.referenz'] as const;
const WINDOWS_AHEAD = 6;
/** A first sync fetches the windows of this many months back (and the future). */
const RECENT_MONTHS = 3;

interface HoursQuery {
  von: string;
  bis?: string;
  changedSince?: string;
}

/**
 * A full scan spans several syncs when it must: once a window is applied, its progress is saved,
 * so the next sync goes on with the next window instead of starting over (a crash in between
 * applies that window again, which upserts make harmless; no window is ever skipped).
 */
interface ScanProgress {
  /** `von` of the windows applied so far. */
  done: string[];
  /** The service's clock at the scan's first window: the watermark once the scan is complete. */
  serverDate: string | null;
  /** The table was empty when the scan began: nothing to find deleted, no ids to remember. */
  startedEmpty: boolean;
  /** The local clock when the scan last read a window (ISO); null for a scan saved before this was kept. */
  lastReadAt: string | null;
}

/**
 * The hours changed since the watermark, every sync. Without a watermark (the first sync, a
 * restored service, --full) a new scan cycle starts with the recent windows (and, for the office,
 * the own entries of every year), so a first sync is usable at once; the history windows follow
 * on rotation (pullHoursHistory), newest first.
 */
export function pullHours(ctx: PullContext) {
  return runCollection(ctx, 'helferstunden', async (state) => {
    // Assigned inside apply; declared wide so TypeScript does not narrow it to null.
    let serverDate = null as Date | null;
    let records = await retryQuarantined(ctx);
    const cycle = readScanProgress(state.progress);
    const seen = seenMarker(ctx);

    if (state.watermark && !ctx.options.full) {
      for await (const page of fetchHours(ctx, {
        von: ctx.options.hoursHistoryStart,
        changedSince: state.watermark,
      })) {
        serverDate ??= page.serverDate;
        await takeAndApply(ctx, page, records);
        records += page.data.length;
        // What a cycle's windows fetched earlier would not show (created since) is not a deletion.
        if (cycle && !cycle.startedEmpty) seen(page, inReadWindows(ctx, cycle));
      }
      // The service's clock behind our watermark: a restored service. Start over with a new cycle.
      const restored = serverDate !== null && serverDate.getTime() < Date.parse(state.watermark);
      if (!restored)
        return { records, deleted: 0, fullScan: false, watermark: watermarkAt(ctx, serverDate) };
    }

    const scan = startScan(ctx);
    const windows = ctx.options.full ? historyWindows(ctx) : recentWindows(ctx);
    let scanDate = null as Date | null;
    // The first load into an empty table builds the indexes once, at its end.
    const buildIndexes = deferIndexesIfEmpty(ctx.replica.sqlite, 'helferstunden');
    try {
      if (ctx.options.profile === 'office' && !ctx.options.full) {
        // The own entries of every year: a trainer's own hours are all there in the first sync.
        const own = await collectPages(
          fetchHours(ctx, { von: ctx.options.hoursHistoryStart }, true),
        );
        scanDate = own.serverDate;
        await takeAndApply(ctx, own, records);
        records += own.data.length;
        if (!scan.startedEmpty) seen(own, inReadWindows(ctx, scan));
      }
      const applied = await applyWindows(ctx, scan, windows, records);
      records += applied.records;
      scanDate ??= applied.serverDate;
    } finally {
      buildIndexes();
    }
    const ended = finishCycleIfComplete(ctx, scan);
    return {
      records,
      deleted: ended.deleted,
      fullScan: ended.complete,
      watermark: watermarkAt(ctx, scanDate),
    };
  });
}

/**
 * The rotation of the history windows: `count` windows of the current scan cycle, newest first.
 * Once a cycle has fetched every window, what it did not see is gone from the service (rule 9).
 */
export function pullHoursHistory(ctx: PullContext, count: number) {
  return runCollection(ctx, 'helferstunden_history', async () => {
    const saved = readScanProgress(readState(ctx.replica.sqlite, 'helferstunden').progress);
    const scan = saved && !isStale(ctx, saved) ? saved : startScan(ctx);
    const windows = historyWindows(ctx)
      .filter((window) => !scan.done.includes(window.von))
      .reverse()
      .slice(0, count);
    const { records } = await applyWindows(ctx, scan, windows, 0, 'helferstunden_history');
    // Only after this sync's incremental pull: what the outbox created since the cycle began
    // is not in a window fetched before it, and is marked as seen by that pull alone.
    const incremental = ctx.results.get('helferstunden');
    const cycle =
      incremental && !incremental.error
        ? finishCycleIfComplete(ctx, scan)
        : { complete: false, deleted: 0 };
    return {
      records,
      deleted: cycle.deleted,
      fullScan: cycle.complete,
      remaining: cycleRemaining(ctx, scan),
    };
  });
}

/** Windows of the scan cycle not fetched yet: "12 of 71 windows". */
function cycleRemaining(ctx: PullContext, scan: ScanProgress) {
  const total = historyWindows(ctx).length;
  return scan.done.length > 0 && scan.done.length < total
    ? { done: scan.done.length, total, what: 'windows' }
    : undefined;
}

/** The windows a first sync fetches: those of the last RECENT_MONTHS months and the future. */
function recentWindows(ctx: PullContext): HoursQuery[] {
  const since = format(addMonths(ctx.options.today(), -RECENT_MONTHS), 'yyyy-MM-dd');
  const windows = historyWindows(ctx);
  const recent = windows.filter((window) => window.bis === undefined || window.bis >= since);
  return recent.length ? recent : windows.slice(-1);
}

/** Fetches windows (a few ahead, answers whole, in order), applies them and notes each in the cycle. */
async function applyWindows(
  ctx: PullContext,
  scan: ScanProgress,
  windows: readonly HoursQuery[],
  progressBase: number,
  collection = 'helferstunden',
): Promise<{ records: number; serverDate: Date | null }> {
  // Each window is confirmed as of before any was asked for (they are read ahead, in parallel).
  const askedAt = ctx.options.now().toISOString();
  const answers = prefetched(windows, WINDOWS_AHEAD, ctx.signal, (window, signal) =>
    collectPages(fetchHours(ctx, window, false, signal)).then((answer) => ({ window, answer })),
  );
  const seen = seenMarker(ctx);
  let records = 0;
  let serverDate = null as Date | null;
  for await (const { window, answer } of answers) {
    serverDate ??= answer.serverDate;
    await takeAndApply(ctx, answer, progressBase + records, collection);
    records += answer.data.length;
    scan.serverDate ??= answer.serverDate?.toISOString() ?? null;
    scan.done.push(window.von);
    scan.lastReadAt = ctx.options.now().toISOString();
    ctx.writer.transaction(() => {
      if (!scan.startedEmpty) seen(answer);
      saveScanProgress(ctx, scan);
    });
    confirm(ctx.replica.sqlite, 'hours_window', [window.von], askedAt);
  }
  return { records, serverDate };
}

/**
 * Remembers the entries of an answer as seen by the scan cycle under way; with `only`, just
 * those it accepts (see inReadWindows).
 */
function seenMarker(ctx: PullContext) {
  const remember = ctx.writer.statement(
    'INSERT OR IGNORE INTO scan_seen (collection, id) VALUES (?, ?)',
  );
  return (
    answer: Pick<Page<ServiceResource>, 'data' | 'quarantined'>,
    only?: (entry: ServiceResource) => boolean,
  ) => {
    for (const entry of answer.data)
      if (!only || only(entry)) remember.run('helferstunden', entry.id);
    // An unreadable entry has no date to place: it is there, so not a deletion.
    for (const entry of answer.quarantined) remember.run('helferstunden', entry.id);
  };
}

/**
 * Whether an entry lies in a window the cycle has read already. Only those are marked as seen by
 * answers other than the windows' (the incremental pull, the own entries of every year): they
 * exist now, later than their window was read. An entry whose window is still to come is judged
 * by that window alone, so one deleted before it is read is found by this cycle.
 */
function inReadWindows(ctx: PullContext, scan: ScanProgress) {
  const read = historyWindows(ctx).filter((window) => scan.done.includes(window.von));
  return (entry: ServiceResource) => {
    const von = entry.attributes?.von;
    if (typeof von !== 'string') return true;
    const day = von.slice(0, 10);
    return read.some(
      (window) => window.von <= day && (window.bis === undefined || day <= window.bis),
    );
  };
}

/** After the cycle's last window: delete what it did not see, and end the cycle. */
function finishCycleIfComplete(ctx: PullContext, scan: ScanProgress) {
  const complete = historyWindows(ctx).every((window) => scan.done.includes(window.von));
  if (!complete) return { complete, deleted: 0 };
  const deleted = scan.startedEmpty ? 0 : deleteUnseen(ctx);
  ctx.writer.transaction(() => {
    ctx.writer.statement("DELETE FROM scan_seen WHERE collection = 'helferstunden'").run();
    saveScanProgress(ctx, null);
  });
  // A record quarantined by the scan is asked for by its id next time: the scan need not repeat.
  tallyOf(ctx, 'helferstunden').holdWatermark = false;
  return { complete, deleted };
}

/** At most this many quarantined entries are asked for again by id per sync. */
const RETRIES_PER_SYNC = 50;

/**
 * Entries quarantined by an earlier sync, fetched again one by one (GET /helferstunden/{id}):
 * readable now, they are applied and leave the quarantine; gone (404), they leave it too; still
 * unreadable (or the request failed), they stay for the next sync without failing this one.
 */
async function retryQuarantined(ctx: PullContext): Promise<number> {
  const ids = ctx.writer
    .statement(
      `SELECT id FROM quarantine WHERE collection = 'helferstunden' AND part = 'data' AND raw IS NOT NULL
       ORDER BY last_seen_at LIMIT ${RETRIES_PER_SYNC}`,
    )
    .pluck()
    .all() as string[];
  let applied = 0;
  for (const id of ids) {
    try {
      // The single GET takes no `include` (seed 4.4): its occasion and type are those already here.
      const answer = await ctx.api.getHelferstunden(id, { signal: ctx.signal });
      const page = { ...answer, data: [answer.data] };
      takeAnswer(ctx, 'helferstunden', '', page, false);
      await applyAnswer(ctx, page, applied);
      applied += 1;
    } catch (error) {
      if (isGone(error)) forgetQuarantined(ctx, 'helferstunden', id);
      else if (endsTheItemLoop(ctx, error)) throw error;
      // Still unreadable, or this one request failed: it stays, and the rest of the pull goes on.
      else stillQuarantined(ctx, 'helferstunden', id, error);
    }
  }
  return applied;
}

function startScan(ctx: PullContext): ScanProgress {
  const scope = ownScope(ctx);
  const existing = ctx.replica.sqlite
    .prepare(`SELECT count(*) FROM helferstunden${scope ? ` WHERE ${scope.where}` : ''}`)
    .pluck()
    .get(...(scope?.params ?? [])) as number;
  ctx.writer.transaction(() =>
    ctx.writer.statement("DELETE FROM scan_seen WHERE collection = 'helferstunden'").run(),
  );
  return {
    done: [],
    serverDate: null,
    startedEmpty: existing === 0,
    lastReadAt: ctx.options.now().toISOString(),
  };
}

/**
 * A cycle that read no window for as long as a whole cycle may take (the computer slept, a
 * holiday) saw its first windows before anything deleted meanwhile: it would end without finding
 * that, and only the next cycle would. It starts over instead; the share earned over the absence
 * is a whole cycle, so it ends at once. (Syncs hours apart go on with their cycle: restarting
 * each time, a cycle longer than their spacing would never end.)
 */
function isStale(ctx: PullContext, scan: ScanProgress): boolean {
  // At least a minute: a cycle this very sync began (its recent windows) goes on.
  const maxMs = Math.max(
    plannedBoundHours('hours_window', ctx.options.freshnessHours) * 3_600_000,
    60_000,
  );
  return (
    scan.lastReadAt === null || ctx.options.now().getTime() - Date.parse(scan.lastReadAt) >= maxMs
  );
}

/** After the last window: what the scan did not see is gone from the service (guarded, rule 9). */
function deleteUnseen(ctx: PullContext): number {
  const scope = ownScope(ctx);
  const seen = new Set(
    ctx.writer
      .statement("SELECT id FROM scan_seen WHERE collection = 'helferstunden'")
      .pluck()
      .all() as string[],
  );
  const gone = missingIds(ctx, 'helferstunden', seen, scope);
  const existing = ctx.replica.sqlite
    .prepare(`SELECT count(*) FROM helferstunden${scope ? ` WHERE ${scope.where}` : ''}`)
    .pluck()
    .get(...(scope?.params ?? [])) as number;
  guardMassDeletion('helferstunden', existing, gone.length);
  return ctx.writer.transaction(() => ctx.writer.deleteWhereIn('helferstunden', 'id', gone));
}

/** A trainer replicates only the own hours: deletions are found among those. */
function ownScope(ctx: PullContext) {
  return ctx.options.profile === 'trainer'
    ? { where: 'user_id = ?', params: [ctx.selfId] }
    : undefined;
}

function readScanProgress(progress: string | null): ScanProgress | null {
  if (progress === null) return null;
  try {
    const parsed = JSON.parse(progress) as Partial<ScanProgress>;
    if (!Array.isArray(parsed.done)) return null;
    return {
      done: parsed.done.filter((von): von is string => typeof von === 'string'),
      serverDate: typeof parsed.serverDate === 'string' ? parsed.serverDate : null,
      startedEmpty: parsed.startedEmpty === true,
      lastReadAt: typeof parsed.lastReadAt === 'string' ? parsed.lastReadAt : null,
    };
  } catch {
    return null; // unreadable progress: the scan starts over, which is always safe
  }
}

function saveScanProgress(ctx: PullContext, scan: ScanProgress | null): void {
  ctx.writer
    .statement('UPDATE sync_state SET progress = ? WHERE collection = ?')
    .run(scan === null ? null : JSON.stringify(scan), 'helferstunden');
  ctx.writer
    .statement(
      `INSERT INTO sync_state (collection, progress) SELECT ?, ?
       WHERE NOT EXISTS (SELECT 1 FROM sync_state WHERE collection = ?)`,
    )
    .run('helferstunden', scan === null ? null : JSON.stringify(scan), 'helferstunden');
}

/** `own`: only the signed-in user's entries (always so for a trainer). */
function fetchHours(
  ctx: PullContext,
  query: HoursQuery,
  own = false,
  signal = ctx.signal,
): AsyncGenerator<Page<ServiceResource>> {
  return ctx.api.listHelferstunden({
    eigene: own || ctx.options.profile === 'trainer',
    von: query.von,
    ...(query.bis ? { bis: query.bis } : {}),
    ...(query.changedSince ? { changedSince: query.changedSince } : {}),
    include: [...INCLUDE],
    signal,
  });
}

/**
 * Windows of options.hoursWindowMonths from the history start; the last one is open-ended (future
 * entries). Only everyone's hours need bounding: a trainer's own come in one answer.
 */
export function historyWindows(ctx: Pick<PullContext, 'options'>): HoursQuery[] {
  if (ctx.options.profile === 'trainer') return [{ von: ctx.options.hoursHistoryStart }];
  const windows: HoursQuery[] = [];
  const today = ctx.options.today();
  let start = parseISO(ctx.options.hoursHistoryStart);
  while (start < today) {
    const end = addMonths(start, ctx.options.hoursWindowMonths);
    // Windows share their boundary day: an entry on it may come twice, and upserts make that harmless.
    windows.push(
      end < today
        ? { von: format(start, 'yyyy-MM-dd'), bis: format(end, 'yyyy-MM-dd') }
        : { von: format(start, 'yyyy-MM-dd') },
    );
    start = end;
  }
  if (windows.length === 0) windows.push({ von: ctx.options.hoursHistoryStart });
  return windows;
}

/** An answer's unreadable records to the quarantine, the rest to the replica. */
function takeAndApply(
  ctx: PullContext,
  answer: Answer,
  progressBase: number,
  tallyAs = 'helferstunden',
) {
  takeAnswer(ctx, 'helferstunden', '', answer, false, tallyAs);
  return applyAnswer(ctx, answer, progressBase, tallyAs);
}

async function applyAnswer(
  ctx: PullContext,
  page: Pick<Answer, 'data' | 'included'>,
  progressBase: number,
  collection = 'helferstunden',
) {
  const { writer } = ctx;
  const ofType = (...types: string[]) => page.included.filter((r) => types.includes(r.type));
  writer.transaction(() => {
    writer.upsert(
      'helferstunden_typen',
      ofType('helferstunden_typ').map((r) => helferstundenTyp.row(r, ctx.syncedAt)),
    );
    writer.upsert(
      'anlass_referenzen',
      ofType(...anlassReferenz.serviceTypes).map((r) => anlassReferenz.row(r, ctx.syncedAt)),
    );
  });
  await applyInChunks(ctx, null, ofType('helferstunden_anlass'), (chunk) =>
    writer.upsert(
      'helferstunden_anlaesse',
      chunk.map((r) => helferstundenAnlass.row(r, ctx.syncedAt)),
    ),
  );
  await applyInChunks(
    ctx,
    collection,
    page.data,
    (chunk) =>
      writer.upsert(
        'helferstunden',
        chunk.map((r) => helferstunden.row(r, ctx.syncedAt)),
      ),
    progressBase,
  );
}
