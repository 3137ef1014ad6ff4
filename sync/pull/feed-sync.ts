// The private calendar feed as part of a sync: fetched once per run when an address is set up,
// after every collection of the service (the lowest priority of the request budget), counted in
// the sync's requests and shown in its summary as the collection 'private_feed'. Its failure
// (kept events, said why) marks the sync incomplete like a failed collection; a cancelled sync
// stays cancelled.
//
// Also here: the service's host, remembered from the sync's requests (replica_meta service_host),
// for the UIDs of exported calendar entries (sync/export/uids.ts).
import type { ApiClient } from '../api';
import type { PullContext } from './context';
import { getFeedUrl, refreshFeed } from './feed';
import { setMeta } from './state';

export const FEED_COLLECTION = 'private_feed';

/**
 * Fetches the feed when one is set up and the budget has a request for it; answers whether a
 * request was sent. Throws only when the sync was cancelled meanwhile.
 */
export async function pullFeed(ctx: PullContext): Promise<boolean> {
  if (!getFeedUrl(ctx.replica.sqlite) || ctx.signal?.aborted) return false;
  if (!ctx.options.full && !ctx.budget.take(1, FEED_COLLECTION)) return false;
  const started = Date.now();
  ctx.budget.observe();
  const outcome = await refreshFeed(ctx.replica, ctx.signal ? { signal: ctx.signal } : {});
  if (ctx.signal?.aborted) throw ctx.signal.reason ?? new Error('cancelled');
  if (!outcome) return true;
  ctx.results.set(FEED_COLLECTION, {
    records: outcome.ok ? outcome.events : 0,
    deleted: 0,
    requests: 1,
    seconds: (Date.now() - started) / 1000,
    ...(outcome.ok ? {} : { error: outcome.error.en }),
  });
  return true;
}

/**
 * Watches the client's requests for the service's host until stop() (called in any case);
 * remember() writes it into the replica when it is new.
 */
export function serviceHostWatch(api: ApiClient) {
  let host: string | undefined;
  const stop = api.observeRequests((event) => {
    if (host) return;
    try {
      host = new URL(event.url).hostname;
    } catch {
      // Not a URL: the next request tells.
    }
  });
  return {
    stop,
    remember(ctx: Pick<PullContext, 'replica'>) {
      if (!host) return;
      const known = ctx.replica.sqlite
        .prepare("SELECT value FROM replica_meta WHERE key = 'service_host'")
        .pluck()
        .get();
      if (known !== host) setMeta(ctx.replica.sqlite, 'service_host', host);
    },
  };
}
