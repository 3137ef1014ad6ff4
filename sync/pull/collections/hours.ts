// Volunteer hours: incremental with filter[changed_since]. The service's defaults hide data
// (own entries only, nothing older than 6 months), so every request names `eigene` and an early
// `von`. A full scan fetches date windows (bounding the size of one answer) and removes what the
// service no longer lists. Occasions, types and the occasions' events come in `included`.
import { addMonths, format, parseISO } from 'date-fns';
import { collectPages, type Page } from '../../api';
import { deferIndexesIfEmpty } from '../../db/deferred-indexes';
import {
  anlassReferenzRow,
  anlassRow,
  helferstundenRow,
  helferstundenTypRow,
  type ServiceResource,
} from '../../db/rows';
import {
  applyInChunks,
  endsTheItemLoop,
  guardMassDeletion,
  isFullScan,
  isGone,
  missingIds,
  prefetched,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';
import { forgetQuarantined, stillQuarantined, takeAnswer, tallyOf } from '../quarantine';

const INCLUDE = ['anlass', 'typ', 'anlass.referenz'] as const;
const WINDOWS_AHEAD = 6;

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
}

export function pullHours(ctx: PullContext) {
  return runCollection(ctx, 'helferstunden', async (state) => {
    const resumed = readScanProgress(state.progress);
    let fullScan = resumed !== null || isFullScan(ctx, state);
    // Assigned inside fetchAndApply; declared wide so TypeScript does not narrow it to null.
    let serverDate = null as Date | null;
    let records = await retryQuarantined(ctx);

    const apply = async (page: Page<ServiceResource>) => {
      serverDate ??= page.serverDate;
      takeAnswer(ctx, 'helferstunden', '', page, false);
      await applyPage(ctx, page, records);
      records += page.data.length;
    };

    if (!fullScan && state.watermark) {
      for await (const page of fetchHours(ctx, {
        von: ctx.options.hoursHistoryStart,
        changedSince: state.watermark,
      }))
        await apply(page);
      // The service's clock behind our watermark: a restored service. Start over with a full scan.
      if (serverDate && serverDate.getTime() < Date.parse(state.watermark)) {
        fullScan = true;
        serverDate = null;
      }
    }
    if (!fullScan)
      return { records, deleted: 0, fullScan, watermark: watermarkAt(ctx, serverDate) };

    const scan = resumed ?? startScan(ctx);
    const windows = historyWindows(ctx);
    const todo = windows.filter((window) => !scan.done.includes(window.von));
    // Windows are fetched a few ahead (answers whole, in order).
    const answers = prefetched(todo, WINDOWS_AHEAD, ctx.signal, (window, signal) =>
      collectPages(fetchHours(ctx, window, signal)).then((answer) => ({ window, answer })),
    );
    const buildIndexes = deferIndexesIfEmpty(ctx.replica.sqlite, 'helferstunden');
    const remember = ctx.writer.statement(
      'INSERT OR IGNORE INTO scan_seen (collection, id) VALUES (?, ?)',
    );
    try {
      for await (const { window, answer } of answers) {
        await apply({ ...answer, url: '' });
        scan.serverDate ??= answer.serverDate?.toISOString() ?? null;
        scan.done.push(window.von);
        ctx.writer.transaction(() => {
          if (!scan.startedEmpty)
            for (const entry of [...answer.data, ...answer.quarantined])
              remember.run('helferstunden', entry.id);
          saveScanProgress(ctx, scan);
        });
      }
    } finally {
      buildIndexes();
    }
    const deleted = scan.startedEmpty ? 0 : deleteUnseen(ctx);
    ctx.writer.transaction(() => {
      ctx.writer.statement("DELETE FROM scan_seen WHERE collection = 'helferstunden'").run();
      saveScanProgress(ctx, null);
    });
    // A record quarantined by the scan is asked for by its id next time: the scan need not repeat.
    tallyOf(ctx, 'helferstunden').holdWatermark = false;
    const scanDate = scan.serverDate === null ? null : new Date(scan.serverDate);
    return { records, deleted, fullScan, watermark: watermarkAt(ctx, scanDate) };
  });
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
      await applyPage(ctx, page, applied);
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
  return { done: [], serverDate: null, startedEmpty: existing === 0 };
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

function fetchHours(
  ctx: PullContext,
  query: HoursQuery,
  signal = ctx.signal,
): AsyncGenerator<Page<ServiceResource>> {
  return ctx.api.listHelferstunden({
    eigene: ctx.options.profile === 'trainer',
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
export function historyWindows(ctx: PullContext): HoursQuery[] {
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

async function applyPage(ctx: PullContext, page: Page<ServiceResource>, progressBase: number) {
  const { writer } = ctx;
  const ofType = (...types: string[]) => page.included.filter((r) => types.includes(r.type));
  writer.transaction(() => {
    writer.upsert(
      'helferstunden_typen',
      ofType('helferstunden_typ').map((r) => helferstundenTypRow(r, ctx.syncedAt)),
    );
    writer.upsert(
      'anlass_referenzen',
      ofType('dienst', 'termin').map((r) => anlassReferenzRow(r, ctx.syncedAt)),
    );
  });
  await applyInChunks(ctx, null, ofType('helferstunden_anlass'), (chunk) =>
    writer.upsert(
      'helferstunden_anlaesse',
      chunk.map((r) => anlassRow(r, ctx.syncedAt)),
    ),
  );
  await applyInChunks(
    ctx,
    'helferstunden',
    page.data,
    (chunk) =>
      writer.upsert(
        'helferstunden',
        chunk.map((r) => helferstundenRow(r, ctx.syncedAt)),
      ),
    progressBase,
  );
}
