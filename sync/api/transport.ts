// One HTTP exchange with the service and all around it: the token and its refresh, N in flight,
// the client's pace, the service's limit (a 429's Retry-After holds every request of the client),
// time-outs, cancellation, retries with backoff for idempotent requests, failures as ApiError.
import pLimit from 'p-limit';
import { abandonOnAbort, CancelledSignal, createDeadline, sleep } from './abort';
import {
  LONGEST_HONOURED_RETRY_AFTER_SECONDS,
  parseRetryAfter,
  retryDelayMs,
  type BackoffOptions,
} from './backoff';
import { ApiError, isRetryable, statusToKind } from './errors';
import { createRateLimiter } from './rate-limiter';
import { parseServiceErrors } from './service-errors';
import { createServiceGate } from './service-gate';
import { TokenRefresher, type TokenSource } from './token-source';

export interface RequestEvent {
  method: string;
  url: string;
  /** HTTP status, or null when no answer arrived (network error, time-out, cancellation). */
  status: number | null;
  ms: number;
  /** Bytes of the response body as received. */
  bytes: number;
  /**
   * The service's clock (its `Date` header) when it answered, or null (no answer, no header):
   * with the local time of the event it gives the clock skew between this computer and the service.
   */
  serverDate: Date | null;
}

/** A wait the transport is about to begin, for telling people why nothing seems to happen. */
export interface WaitEvent {
  seconds: number;
  /**
   * service-limit: the service refused for its limit (429); every request of the client waits
   * for it, and it is reported once. own-pace: the client's pace. retry: backoff after a failure.
   */
  reason: 'service-limit' | 'own-pace' | 'retry';
  url: string;
}

export interface TransportOptions {
  tokens: TokenSource;
  maxInFlight?: number;
  /** The client's pace, already resolved (see ApiClientOptions.pace); undefined: none. */
  requestsPerMinute?: number;
  timeoutMs?: number;
  maxRetries?: number;
  backoff?: BackoffOptions;
  onRequest?: (event: RequestEvent) => void;
  /** Called before every wait of a second or more (see WaitEvent). */
  onWait?: (event: WaitEvent) => void;
  fetch?: typeof fetch;
  userAgent?: string;
}

export interface HttpRequest {
  method: string;
  url: URL;
  accept: string;
  /** A JSON body, sent as `application/vnd.api+json`. */
  body?: string;
  signal?: AbortSignal;
  /**
   * For a 2xx answer whose body should not be held whole (a large list): a sink that takes the
   * body chunk by chunk as it arrives, or null to read the body whole as usual. Called afresh for
   * every attempt, so a retried request never feeds a sink that saw part of another body. What
   * the sink's end() answers is HttpResponse.streamed; what it throws fails the attempt as it is.
   */
  consume?: (head: { status: number; headers: Headers }) => BodySink | null;
}

/** Takes an answer's body as it arrives (HttpRequest.consume). */
export interface BodySink {
  write(chunk: Uint8Array): void;
  /** The body is complete: answers what was read of it (throws if it is not a whole document). */
  end(): unknown;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  /** The service's clock (`Date` header), the source of sync watermarks (DESIGN rule 8). */
  serverDate: Date | null;
  /** What the request's sink made of the body (HttpRequest.consume); `body` is then ''. */
  streamed?: unknown;
}

/** Sends a request and answers its 2xx response; anything else is thrown as ApiError. */
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

const utf8 = new TextDecoder();

/**
 * One request that fails for good is not "the service is unreachable": that takes a refused
 * connection or a name that does not resolve, or as many failed attempts in a row as one request
 * may make, with no answer from the service in between. Otherwise the request's failure is
 * 'interrupted', and the sync goes on with the rest.
 */
const UNREACHABLE_CAUSES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Methods that may be sent again without changing the outcome; POST and PATCH never are (DESIGN rule 7). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export function createTransport(options: TransportOptions): Transport {
  const limit = pLimit(options.maxInFlight ?? 4);
  const rate = createRateLimiter(options.requestsPerMinute);
  const gate = createServiceGate();
  const tokens = new TokenRefresher(options.tokens);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 4;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const userAgent = options.userAgent ?? 'Vorort';
  /** Attempts in a row that got no answer at all, across every request. */
  let failuresInARow = 0;

  function reportWait(ms: number, reason: WaitEvent['reason'], request: HttpRequest): void {
    if (options.onWait && ms >= 1000)
      options.onWait({ seconds: Math.round(ms / 1000), reason, url: request.url.href });
  }

  /**
   * Waits until this request may leave: the service's gate open, its turn when the client is
   * careful after a 429, and its place in the pace. Answers the release of the careful turn.
   * A gate that stays closed longer than a request sits out fails it as throttled, unsent.
   */
  async function clearance(request: HttpRequest): Promise<() => void> {
    for (;;) {
      const closedMs = gate.closedForMs();
      if (closedMs > LONGEST_HONOURED_RETRY_AFTER_SECONDS * 1000) throw heldBack(request, closedMs);
      await gate.waitOpen(request.signal);
      const release = await gate.turn(request.signal);
      try {
        // Closed again while waiting for the turn: wait for the gate once more.
        if (gate.closedForMs() === 0) {
          await rate.take(request.signal, (ms) => reportWait(ms, 'own-pace', request));
          // A 429 may have come in while waiting for the pace.
          if (gate.closedForMs() === 0) return release;
        }
      } catch (error) {
        release();
        throw error;
      }
      release();
    }
  }

  /**
   * An answer that names the service's limit (429, or a Retry-After on a 5xx) closes the gate for
   * every request of the client, before the next one can leave; the wait is said once.
   */
  function holdForLimit(request: HttpRequest, response: HttpResponse, retries: number): void {
    const throttled = response.status === 429;
    const retryAfter =
      throttled || response.status >= 500
        ? parseRetryAfter(response.headers.get('retry-after'), response.serverDate)
        : undefined;
    if (!throttled && retryAfter === undefined) return;
    const delayMs = retryDelayMs(retries, retryAfter, options.backoff);
    const closedAnew = gate.close(Date.now() + delayMs, throttled);
    // A wait longer than a request sits out is not waited: the requests fail with it instead.
    if (closedAnew && (retryAfter ?? 0) <= LONGEST_HONOURED_RETRY_AFTER_SECONDS)
      reportWait(delayMs, throttled ? 'service-limit' : 'retry', request);
  }

  /** One attempt: waits for its clearance, then sends and reads the whole body under the time-out. */
  async function attempt(
    request: HttpRequest,
    token: string,
    retries: number,
  ): Promise<HttpResponse> {
    if (request.signal?.aborted) throw new CancelledSignal('cancelled');
    const release = await clearance(request);
    const deadline = createDeadline(request.signal, timeoutMs);
    const started = performance.now();
    let status: number | null = null;
    let bytes = 0;
    let serverDate: Date | null = null;
    try {
      const response = await fetchImpl(request.url, {
        method: request.method,
        headers: headersFor(request, token, userAgent),
        body: request.body,
        signal: deadline.signal,
        // A redirect could carry the token to another host; the service does not redirect.
        redirect: 'manual',
      });
      status = response.status;
      serverDate = parseHttpDate(response.headers.get('date'));
      const sink =
        status >= 200 && status < 300 && response.body !== null
          ? (request.consume?.({ status, headers: response.headers }) ?? null)
          : null;
      if (sink !== null && response.body !== null) {
        // The time-out is the service's: the time spent reading the chunks does not count.
        const streamed = await readInto(response.body, sink, (n) => (bytes += n), deadline.extend);
        return { status, headers: response.headers, body: '', serverDate, streamed };
      }
      const body = new Uint8Array(await response.arrayBuffer());
      bytes = body.byteLength;
      const answer = { status, headers: response.headers, body: utf8.decode(body), serverDate };
      holdForLimit(request, answer, retries);
      return answer;
    } catch (error) {
      // The sink found the body wanting (not JSON, cut off): the answer's fault, not the network's.
      if (error instanceof SinkError) throw error.cause;
      if (deadline.timedOut()) {
        throw failure(request, 'timeout', error, `no complete answer within ${timeoutMs / 1000} s`);
      }
      if (request.signal?.aborted) throw new CancelledSignal('cancelled');
      throw failure(request, 'network', error, describeCause(error));
    } finally {
      deadline.dispose();
      release();
      const ms = performance.now() - started;
      const url = request.url.href;
      options.onRequest?.({ method: request.method, url, status, ms, bytes, serverDate });
    }
  }

  /** An attempt in a free slot; its failure as ApiError. The slot is not held while backing off. */
  async function limitedAttempt(
    request: HttpRequest,
    token: string,
    retries: number,
  ): Promise<HttpResponse | ApiError> {
    try {
      const slotFree = limit.activeCount < limit.concurrency && limit.pendingCount === 0;
      // Waiting for a slot is what a cancelled caller must not be kept in; with a free slot the
      // attempt starts at once and its deadline notices the signal.
      const started = limit(() => attempt(request, token, retries));
      const response = await (slotFree ? started : abandonOnAbort(started, request.signal));
      failuresInARow = 0;
      return response;
    } catch (error) {
      // What a body sink threw: the answer arrived, so the service is reachable.
      if (error instanceof ApiError && error.kind === 'malformed') {
        failuresInARow = 0;
        return error;
      }
      if (error instanceof CancelledSignal) throw cancelled(request);
      if (error instanceof ApiError) {
        if (error.kind === 'network' || error.kind === 'timeout') failuresInARow += 1;
        return error;
      }
      throw error;
    }
  }

  /** A request's final failure: 'interrupted' unless the service looks unreachable as a whole. */
  function judged(error: ApiError): ApiError {
    if (error.kind !== 'network' && error.kind !== 'timeout') return error;
    const refused = UNREACHABLE_CAUSES.has(causeCode(error) ?? '');
    if (refused || failuresInARow > maxRetries) return error;
    return new ApiError({
      kind: 'interrupted',
      method: error.method,
      url: error.url,
      problem:
        error.kind === 'timeout'
          ? `no complete answer within ${timeoutMs / 1000} s`
          : (causeCode(error) ?? 'the connection was lost'),
      cause: error,
    });
  }

  return async function send(request) {
    let token = await currentToken(tokens, request);
    let refreshed = false;
    let retries = 0;
    for (;;) {
      const outcome = await limitedAttempt(request, token, retries);
      if (!(outcome instanceof ApiError) && outcome.status === 401 && !refreshed) {
        refreshed = true;
        const replacement = await replacementToken(tokens, token, request);
        if (replacement !== null) {
          token = replacement; // sending again with a fresh token is not a retry to back off from
          continue;
        }
      }
      if (!(outcome instanceof ApiError) && outcome.status >= 200 && outcome.status < 300) {
        return outcome;
      }
      const error = outcome instanceof ApiError ? outcome : errorFromResponse(request, outcome);
      if (!shouldRetry(request, error, retries, maxRetries)) throw judged(error);
      // The service's limit closed the gate for every request (holdForLimit): this one waits
      // for the gate, which another 429 meanwhile may have moved; other failures back off alone.
      const limited =
        !(outcome instanceof ApiError) &&
        (error.kind === 'throttled' || error.retryAfterSeconds !== undefined);
      const delayMs = retryDelayMs(retries, error.retryAfterSeconds, options.backoff);
      if (!limited) reportWait(delayMs, 'retry', request);
      try {
        await (limited ? gate.waitOpen(request.signal) : sleep(delayMs, request.signal));
      } catch {
        throw cancelled(request);
      }
      retries += 1;
    }
  };
}

/** What a body sink threw, told apart from a failure of the connection while reading. */
class SinkError extends Error {
  constructor(override readonly cause: unknown) {
    super('the body sink failed');
  }
}

/** Feeds `body` to `sink` chunk by chunk; a sink that throws stops the transfer. */
async function readInto(
  body: ReadableStream<Uint8Array>,
  sink: BodySink,
  counted: (bytes: number) => void,
  spent: (ms: number) => void,
): Promise<unknown> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      counted(value.byteLength);
      const started = performance.now();
      try {
        sink.write(value);
      } catch (error) {
        throw new SinkError(error);
      }
      spent(performance.now() - started);
    }
    try {
      return sink.end();
    } catch (error) {
      throw new SinkError(error);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}

function shouldRetry(request: HttpRequest, error: ApiError, retries: number, maxRetries: number) {
  if (retries >= maxRetries || !IDEMPOTENT_METHODS.has(request.method) || !isRetryable(error)) {
    return false;
  }
  const wait = error.retryAfterSeconds;
  return wait === undefined || wait <= LONGEST_HONOURED_RETRY_AFTER_SECONDS;
}

function headersFor(request: HttpRequest, token: string, userAgent: string) {
  const headers: Record<string, string> = {
    accept: request.accept,
    authorization: `Bearer ${token}`,
    'user-agent': userAgent,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/vnd.api+json';
  return headers;
}

function errorFromResponse(request: HttpRequest, response: HttpResponse): ApiError {
  const kind = statusToKind(response.status);
  const retryAfter = response.headers.get('retry-after');
  const isRedirect = response.status >= 300 && response.status < 400;
  return new ApiError({
    kind,
    method: request.method,
    url: request.url.href,
    status: response.status,
    errors: parseServiceErrors(response.body),
    retryAfterSeconds:
      kind === 'throttled' || kind === 'server'
        ? parseRetryAfter(retryAfter, response.serverDate)
        : undefined,
    problem: isRedirect
      ? `redirected to ${response.headers.get('location') ?? 'an unknown address'}`
      : undefined,
  });
}

async function currentToken(tokens: TokenRefresher, request: HttpRequest): Promise<string> {
  try {
    return await tokens.current();
  } catch (error) {
    throw failure(request, 'auth', error, `no access token: ${describeCause(error)}`);
  }
}

async function replacementToken(
  tokens: TokenRefresher,
  rejected: string,
  request: HttpRequest,
): Promise<string | null> {
  try {
    return await tokens.replacementFor(rejected);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw failure(
      request,
      'auth',
      error,
      `the token could not be refreshed: ${describeCause(error)}`,
    );
  }
}

function failure(
  request: HttpRequest,
  kind: 'auth' | 'network' | 'timeout',
  cause: unknown,
  problem: string,
): ApiError {
  return new ApiError({ kind, method: request.method, url: request.url.href, problem, cause });
}

/** A request not sent because the service's Retry-After (to another request) runs longer than one request waits. */
function heldBack(request: HttpRequest, closedMs: number): ApiError {
  return new ApiError({
    kind: 'throttled',
    method: request.method,
    url: request.url.href,
    retryAfterSeconds: Math.ceil(closedMs / 1000),
    problem: 'not sent: the service asked this client to wait (Retry-After)',
  });
}

function cancelled(request: HttpRequest): ApiError {
  return new ApiError({ kind: 'cancelled', method: request.method, url: request.url.href });
}

function parseHttpDate(value: string | null): Date | null {
  if (value === null) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The system's error code behind a failed attempt (undici nests it in `cause`). */
function causeCode(error: ApiError): string | undefined {
  const cause = error.cause;
  if (!(cause instanceof Error)) return undefined;
  const inner = cause.cause instanceof Error ? cause.cause : cause;
  return (inner as NodeJS.ErrnoException).code;
}

/** undici hides the reason (ECONNREFUSED, ...) in `cause`. */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) return (cause as NodeJS.ErrnoException).code ?? cause.message;
  return error.message;
}
