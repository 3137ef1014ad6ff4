// One error type for everything that can go wrong between the client and the service, so the
// sync engine decides on `kind` (retry, refresh, park, skip a module) and shows `message` to people.

export type ApiErrorKind =
  | 'auth' // 401 after one token refresh
  | 'forbidden' // 403
  | 'not_found' // 404, 410
  | 'conflict' // 409
  | 'unlicensed' // 423: the module is not in the organisation's licence
  | 'throttled' // 429
  | 'invalid' // 400, 415, 422 and other 4xx
  | 'server' // 5xx
  | 'network' // the service is unreachable: connection refused, DNS, or every request failing in a row
  | 'timeout' // no complete answer within the time-out, while the service answers nothing else either
  | 'interrupted' // one request lost its connection or timed out while the service answers others
  | 'malformed' // the body is not JSON or not a valid document
  | 'cancelled'; // the caller's AbortSignal fired

/** One error object as the service writes it (JSON:API `errors[]`); every member is optional. */
export interface ServiceErrorObject {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  source?: Record<string, unknown>;
}

export interface ApiErrorInit {
  kind: ApiErrorKind;
  method: string;
  url: string;
  status?: number;
  errors?: ServiceErrorObject[];
  retryAfterSeconds?: number;
  /** What the client found wrong, where the service gave no text (a bad document, no answer). */
  problem?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly errors: ServiceErrorObject[];
  readonly retryAfterSeconds?: number;
  readonly url: string;
  readonly method: string;

  constructor(init: ApiErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.url = init.url;
    this.method = init.method;
  }
}

/** Whether sending the same request again later may succeed (DESIGN rule 6). */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return (
    error.kind === 'throttled' ||
    error.kind === 'server' ||
    error.kind === 'network' ||
    error.kind === 'timeout' ||
    error.kind === 'interrupted'
  );
}

export function statusToKind(status: number): ApiErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 423) return 'unlicensed';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'server';
  return 'invalid';
}

const SENTENCES: Record<ApiErrorKind, string> = {
  auth: 'The service did not accept the login',
  forbidden: 'The service refused the request',
  not_found: 'The service does not know this record or address',
  conflict: 'The service reports a conflict with its current state',
  unlicensed: "The organisation's licence does not include this module",
  throttled: 'The service is limiting the number of requests',
  invalid: 'The service rejected the request as invalid',
  server: 'The service failed to answer the request',
  network: 'The service could not be reached',
  timeout: 'The service did not answer in time',
  interrupted: 'The connection broke before the answer was complete',
  malformed: 'The service sent an answer that is not a valid document',
  cancelled: 'The request was cancelled',
};

function describe(init: ApiErrorInit): string {
  const status = init.status === undefined ? '' : ` (${init.status})`;
  const texts = (init.errors ?? [])
    .map((error) => error.detail || error.title || error.code)
    .filter((text): text is string => Boolean(text));
  if (init.problem !== undefined) texts.push(init.problem);
  const explanation = texts.length > 0 ? `: ${texts.join('; ')}` : '';
  const wait =
    init.retryAfterSeconds === undefined ? '' : `; retry after ${init.retryAfterSeconds} s`;
  return `${SENTENCES[init.kind]}${status}${explanation}${wait} [${init.method} ${init.url}]`;
}
