// The service client's public surface (sync/api). Everything else in this folder is internal.
export { createApiClient, type ApiClient, type ApiClientOptions } from './client';
export { watchClockSkew, type ClockSkewWatch } from './clock-skew';
export type { RequestOptions, SendOptions, SentDocument, WriteMethod } from './core';
export { ApiError, isRetryable, type ApiErrorKind, type ServiceErrorObject } from './errors';
export { indexIncluded, relatedIds, type IncludedIndex } from './included';
export { isNoValue } from './schemas/tolerance';
export {
  collectPages,
  type Collected,
  type Page,
  type QuarantinedRecord,
  type Single,
} from './pages';
export { staticToken, type TokenSource } from './token-source';
export { DEFAULT_PACE_PER_MINUTE, defaultPace, isLoopbackHost, type Pace } from './pace';
export type { RequestEvent, WaitEvent } from './transport';
export { retryDelayMs, type BackoffOptions } from './backoff';
export { formatDateTime } from './urls';
export type { Query, QueryValue } from './urls';
export {
  resourceSchemas,
  isResourceType,
  type KnownResource,
  type ResourceOfType,
  type ResourceType,
  type ServiceApi,
} from './endpoints/index';
// Each area's operations, options and resource types: sync/api/endpoints/<area>.ts.
export type * from './endpoints/index';
