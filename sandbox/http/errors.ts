// JSON:API error objects and the one exception type every route throws to answer with them.
// Routes never build error responses by hand: they throw ApiError, and the app's error handler
// (sandbox/http/app.ts) turns it into `{ jsonapi, errors: [...] }` with the right status.

interface ErrorSource {
  pointer?: string;
  parameter?: string;
}

export interface ErrorObject {
  status: string;
  code?: string;
  title: string;
  detail: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

function titleOf(status: number): string {
  return TITLES[status] ?? 'Error';
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];
  /** Extra response headers (WWW-Authenticate, Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    errors: Omit<ErrorObject, 'status' | 'title'>[],
    headers: Record<string, string> = {},
  ) {
    super(errors.map((error) => error.detail).join('; '));
    this.status = status;
    this.errors = errors.map((error) => ({
      status: String(status),
      title: titleOf(status),
      ...error,
    }));
    this.headers = headers;
  }
}

export function badParameter(parameter: string, detail: string): ApiError {
  return new ApiError(400, [{ code: 'invalid_parameter', detail, source: { parameter } }]);
}

export function badDocument(pointer: string, detail: string): ApiError {
  return new ApiError(400, [{ code: 'invalid_document', detail, source: { pointer } }]);
}

export function invalidAttribute(pointer: string, detail: string): ApiError {
  return new ApiError(422, [{ code: 'invalid_attribute', detail, source: { pointer } }]);
}

export function notFound(detail: string): ApiError {
  return new ApiError(404, [{ code: 'not_found', detail }]);
}

export function forbidden(detail: string): ApiError {
  return new ApiError(403, [{ code: 'forbidden', detail }]);
}

export function conflict(detail: string, pointer?: string): ApiError {
  return new ApiError(409, [
    { code: 'conflict', detail, ...(pointer ? { source: { pointer } } : {}) },
  ]);
}

export function moduleLocked(detail: string): ApiError {
  return new ApiError(423, [{ code: 'module_not_licensed', detail }]);
}

/** The JSON:API error document; `status` is kept as a string as the specification asks. */
export function errorDocument(errors: ErrorObject[]): {
  jsonapi: { version: '1.0' };
  errors: ErrorObject[];
} {
  return { jsonapi: { version: '1.0' }, errors };
}
