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
export type { ClientsApi } from './operations/clients';
export type {
  CourseInclude,
  CoursesApi,
  ListCoursesOptions,
  ParticipationInclude,
} from './operations/courses';
export type {
  HelferstundenApi,
  HelferstundenInclude,
  ListHelferstundenOptions,
} from './operations/helferstunden';
export type { IncludeOptions } from './operations/include';
export type { KalenderApi } from './operations/kalender';
export type { BenachrichtigungenPage, FormularObjektTyp, MessagesApi } from './operations/messages';
export type { OrganisationApi } from './operations/organisation';
export type {
  ListPersonalOptions,
  PerPersonOptions,
  PersonalApi,
  PersonalStatus,
} from './operations/personal';
export {
  resourceSchemas,
  isResourceType,
  type KnownResource,
  type Relationship,
  type Resource,
  type ResourceOfType,
  type ResourceType,
} from './schemas/index';
export type * from './schemas/courses';
export type * from './schemas/helferstunden';
export type * from './schemas/kalender';
export type * from './schemas/messages';
export type * from './schemas/organisation';
export type * from './schemas/personal';
