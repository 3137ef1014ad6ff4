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
  guardMassDeletion,
  isFullScan,
  missingIds,
  prefetched,
  runCollection,
  watermarkAt,
  type PullContext,
} from '../context';

const INCLUDE = ['anlass', 'typ', 'anlass.referenz'] as const;
const WINDOWS_AHEAD = 6;

interface HoursQuery {
  von: string;
  bis?: string;
  changedSince?: string;
}

export function pullHours(ctx: PullContext) {
  return runCollection(ctx, 'helferstunden', async (state) => {
    let fullScan = isFullScan(ctx, state);
    // Assigned inside fetchAndApply; declared wide so TypeScript does not narrow it to null.
    let serverDate = null as Date | null;
    const seen = new Set<string>();
    let records = 0;

    const apply = async (page: Page<ServiceResource>) => {
      serverDate ??= page.serverDate;
      await applyPage(ctx, page, records);
      for (const entry of page.data) seen.add(entry.id);
      records += page.data.length;
    };
    const fetchAndApply = async (query: HoursQuery) => {
      for await (const page of fetchHours(ctx, query)) await apply(page);
    };

    if (!fullScan && state.watermark) {
      await fetchAndApply({ von: ctx.options.hoursHistoryStart, changedSince: state.watermark });
      // The service's clock behind our watermark: a restored service. Start over with a full scan.
      if (serverDate && serverDate.getTime() < Date.parse(state.watermark)) {
        fullScan = true;
        serverDate = null;
      }
    }
    let deleted = 0;
    if (fullScan) {
      // Windows are fetched a few ahead (answers whole, in order: the first one's clock is the watermark).
      const windows = prefetched(historyWindows(ctx), WINDOWS_AHEAD, ctx.signal, (window, signal) =>
        collectPages(fetchHours(ctx, window, signal)),
      );
      const buildIndexes = deferIndexesIfEmpty(ctx.replica.sqlite, 'helferstunden');
      try {
        for await (const answer of windows) {
          await apply({
            data: answer.data,
            included: answer.included,
            serverDate: answer.serverDate,
            url: '',
          });
        }
      } finally {
        buildIndexes();
      }
      const scope =
        ctx.options.profile === 'trainer'
          ? { where: 'user_id = ?', params: [ctx.selfId] }
          : undefined;
      const gone = missingIds(ctx, 'helferstunden', seen, scope);
      const existing = ctx.replica.sqlite
        .prepare(`SELECT count(*) FROM helferstunden${scope ? ` WHERE ${scope.where}` : ''}`)
        .pluck()
        .get(...(scope?.params ?? [])) as number;
      guardMassDeletion('helferstunden', existing, gone.length);
      deleted = ctx.writer.transaction(() => ctx.writer.deleteWhereIn('helferstunden', 'id', gone));
    }
    return { records, deleted, fullScan, watermark: watermarkAt(ctx, serverDate) };
  });
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
