// createApiClient: every read operation of the interface plus a generic `send` for writes, over
// one transport, so concurrency, the pace, the service's limit, retries and token refresh hold
// across all of them.
import type { BackoffOptions } from './backoff';
import { createCore, type SendOptions, type SentDocument, type WriteMethod } from './core';
import { serviceApi, type ServiceApi } from './endpoints';
import { effectivePace, type Pace } from './pace';
import type { TokenSource } from './token-source';
import { createTransport, type RequestEvent, type WaitEvent } from './transport';
import { normalizeBase } from './urls';

export interface ApiClientOptions {
  /** The API base, possibly with a path (`https://api.hiorg-server.de/core/v1`); every request stays below it. */
  baseUrl: string;
  /** The OAuth base for user-info (`https://api.hiorg-server.de/oauth/v1`). Default: `<origin of baseUrl>/oauth/v1`. */
  oauthUrl?: string;
  /**
   * Where the interface's own versioned paths live (`/formulare/v1/liste`; the feed's
   * `/ical/v1/...`): 'base' below the API base like every operation, as the seed writes them
   * (the default, and where the sandbox serves them), or 'origin' at the host's root.
   */
  versionedPathsAt?: 'base' | 'origin';
  tokens: TokenSource;
  /** Requests in flight at once. Default 4. */
  maxInFlight?: number;
  /**
   * The client's pace in requests a minute: requests are spaced evenly to stay at or below it
   * (delayed, never dropped); 'none' for no pace. Default: defaultPace(baseUrl), i.e. 30 a
   * minute for a service that is not on loopback and none for one on this computer.
   */
  pace?: Pace;
  /** @deprecated The same as `pace` (a number); `pace` wins when both are given. */
  requestsPerMinute?: number;
  /** Per attempt, including reading the body. Default 30 s. */
  timeoutMs?: number;
  /** Retries of idempotent requests after 429, 5xx, network errors and time-outs. Default 4. */
  maxRetries?: number;
  /** Delays between those retries when the service sends no Retry-After. */
  backoff?: BackoffOptions;
  /**
   * List answers of at least this many bytes are read as they arrive, entry by entry, instead of
   * parsed whole (default STREAM_ANSWERS_FROM_BYTES, sync/api/core.ts); Infinity: never.
   */
  streamAnswersFromBytes?: number;
  /** Called once per attempt sent, for counting requests and bytes. */
  onRequest?: (event: RequestEvent) => void;
  /**
   * Called before every wait of a second or more: own pace, a retry's backoff, and a 429's
   * Retry-After (which holds every request of the client: said once, not once per request).
   */
  onWait?: (event: WaitEvent) => void;
  fetch?: typeof fetch;
  userAgent?: string;
}

export interface ApiClient extends ServiceApi {
  /** The pace this client keeps, in requests a minute (see ApiClientOptions.pace); undefined: none. */
  readonly pace: number | undefined;
  /** The service's base URL (ending in /), for words about the service as a whole. */
  readonly baseUrl: string;
  /**
   * A write (or any request) below the base URL, with a JSON:API body. Answers the parsed
   * document, or null for 204 or an empty body. POST and PATCH are never sent twice by the
   * client (DESIGN rule 7); PUT and DELETE are retried like reads.
   */
  send(method: WriteMethod, path: string, options?: SendOptions): Promise<SentDocument | null>;
  /**
   * Calls `listener` once per attempt sent from now on (like the `onRequest` option) until the
   * returned function is called. The listener runs in the async context of the request's caller,
   * so an AsyncLocalStorage can tell whose request it was.
   */
  observeRequests(listener: (event: RequestEvent) => void): () => void;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = normalizeBase(options.baseUrl);
  const authBase = normalizeBase(options.oauthUrl ?? new URL('/oauth/v1', base.origin).href);
  const listeners = new Set<(event: RequestEvent) => void>();
  const onRequest = (event: RequestEvent) => {
    options.onRequest?.(event);
    for (const listener of listeners) listener(event);
  };
  const pace = effectivePace(options.pace ?? options.requestsPerMinute, base);
  const transport = createTransport({ ...options, requestsPerMinute: pace, onRequest });
  const core = createCore(base, transport, {
    backoff: options.backoff,
    streamAnswersFromBytes: options.streamAnswersFromBytes,
  });
  return {
    pace,
    baseUrl: base.href,
    ...serviceApi(core, authBase, versionedBase(base, options.versionedPathsAt)),
    send: (method, path, sendOptions) => core.send(method, path, sendOptions),
    observeRequests(listener) {
      // Wrapped, so that the same function observed twice is two observers.
      const observer = (event: RequestEvent) => listener(event);
      listeners.add(observer);
      return () => listeners.delete(observer);
    },
  };
}

/** The base of the versioned paths (see ApiClientOptions.versionedPathsAt). */
export function versionedBase(base: URL, at: 'base' | 'origin' = 'base'): URL {
  return at === 'origin' ? new URL('/', base.origin) : base;
}
