// The app session's export calls: a file from the replica (through the desktop app's save dialog,
// or as bytes for browser mode's download) and the private calendar feed's address and state.
import type { ExportCreated, FeedState } from '../contract';
import { CoreFailure } from '../core-error';
import { exportData } from '../export';
import { feedStatus, refreshFeed, setFeedUrl } from '../pull/feed';
import type { HostCallHandlers, HostSessionOptions, SessionContext } from './session-context';

/** An export larger than this is not sent as bytes over a transport (see exportDataMaxBytes). */
export const EXPORT_DATA_MAX_BYTES = 50 * 1024 * 1024;

/** What the export calls need of a session (`vorort call` gives them a replica alone). */
export type ExportContext = Pick<SessionContext, 'now' | 'replica' | 'track' | 'tellChanges'> & {
  options: Pick<HostSessionOptions, 'saveFile' | 'exportDataMaxBytes'>;
};

export function createExportCalls(
  ctx: ExportContext,
  deps: {
    /** Whether the service can be reached now (the feed is fetched at once only then). */
    online(): boolean;
  },
) {
  const { options } = ctx;
  /** The private feed's fetch that feed.set started (cancelled by a newer one and by close). */
  let feedFetch: AbortController | null = null;

  const createExport: HostCallHandlers['export.create'] = async (args) => {
    // Checked again by exportData (any caller): a course not in the replica is not_found, a
    // combination no file holds invalid_arguments, both in words.
    const result = await exportData(ctx.replica(), args.request, { now: ctx.now() });
    const answer: ExportCreated = {
      fileName: result.fileName,
      mimeType: result.mimeType,
      size: result.bytes.byteLength,
      count: result.count,
      empty: result.empty,
      counted: result.counted,
      ...(result.note ? { note: result.note } : {}),
    };
    // 'save' where there is no dialog (browser mode) is answered with the bytes all the same.
    const deliver = args.deliver ?? (options.saveFile ? 'save' : 'data');
    if (deliver === 'save' && options.saveFile) {
      let savedTo: string | null;
      try {
        savedTo = await options.saveFile(result.fileName, result.bytes, result.mimeType);
      } catch (error) {
        if (error instanceof CoreFailure) throw error;
        const text = error instanceof Error ? error.message : String(error);
        throw new CoreFailure('internal', {
          de: `Die Datei konnte nicht gespeichert werden: ${text}`,
          en: `The file could not be saved: ${text}`,
        });
      }
      return savedTo === null
        ? { ...answer, savedTo: null, cancelled: true }
        : { ...answer, savedTo };
    }
    const limit = options.exportDataMaxBytes ?? EXPORT_DATA_MAX_BYTES;
    if (result.bytes.byteLength > limit) {
      const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
      throw new CoreFailure('not_allowed', {
        de: `Die Datei ist mit ${megabytes(result.bytes.byteLength).replace('.', ',')} MB zu groß für einen Download (höchstens ${megabytes(limit).replace('.', ',')} MB): bitte einen kürzeren Zeitraum wählen, oder auf der Kommandozeile \`vorort export\` verwenden.`,
        en: `The file is too large to download (${megabytes(result.bytes.byteLength)} MB, at most ${megabytes(limit)} MB): please choose a shorter range, or use \`vorort export\` on the command line.`,
      });
    }
    const { buffer, byteOffset, byteLength } = result.bytes;
    return { ...answer, base64: Buffer.from(buffer, byteOffset, byteLength).toString('base64') };
  };

  /** The feed's state without its secret path (feedStatus's address is scheme and host only). */
  function feedState(): FeedState {
    const status = feedStatus(ctx.replica());
    if (!status)
      return {
        configured: false,
        address: null,
        lastFetchedAt: null,
        lastAttemptAt: null,
        events: 0,
        problem: null,
      };
    return {
      configured: true,
      address: status.address,
      lastFetchedAt: status.lastSuccessAt,
      lastAttemptAt: status.lastAttemptAt,
      events: status.events,
      problem: status.ok === false ? status.error : null,
    };
  }

  /**
   * Sets (or removes) the feed's address, checked in words (setFeedUrl); when online, fetches it
   * once now (a plain GET: the secret is the path), so its events show without waiting for the
   * next sync, which fetches it from then on. Every window reads the feed again.
   */
  async function setFeed(url: string | null): Promise<FeedState> {
    const replica = ctx.replica();
    setFeedUrl(replica, url);
    // An empty address removes the feed as null does.
    if (feedStatus(replica) !== null && deps.online()) {
      feedFetch?.abort();
      const controller = new AbortController();
      feedFetch = controller;
      const work = refreshFeed(replica, { now: ctx.now, signal: controller.signal });
      ctx.track(work);
      try {
        // A failure is kept in the feed's status and answered as its problem, in words.
        await work;
      } finally {
        if (feedFetch === controller) feedFetch = null;
      }
    }
    ctx.tellChanges();
    return feedState();
  }

  const calls: Pick<HostCallHandlers, 'export.create' | 'feed.get' | 'feed.set'> = {
    'export.create': createExport,
    'feed.get': async () => feedState(),
    'feed.set': async (args) => setFeed(args.url),
  };
  return {
    calls,
    /** Stops the feed's fetch that feed.set started. */
    close: () => feedFetch?.abort(),
  };
}
