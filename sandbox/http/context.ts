// What every route module of the interface shares: the data, the document renderer, the URLs,
// the service's settings (paging, licensed modules) and the caller of the current request.
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/types';
import type { Store } from '../data/store';
import { formatBerlinDate, formatBerlinDateTime } from './berlin-time';
import type { Renderer } from './document';
import { ApiError } from './errors';
import type { Links } from './links';

export interface ApiContext {
  store: Store;
  links: Links;
  renderer: Renderer;
  /**
   * Records per page when lists page (--page-size); undefined: no paging, as the real service.
   * Read on every list request: the admin interface switches it while the sandbox runs.
   */
  pageSize: number | undefined;
  /** False with --without-courses: the organisation has no course module (423 on its paths). */
  coursesLicensed: boolean;
  /** With --client-ids: creations accept a UUID in data.id as an idempotency key (client-ids.ts). */
  clientIds: boolean;
  /**
   * The sandbox's clock (sandbox/data/clock.ts), ms since the epoch: "today" of the date
   * filters is its Berlin date, and the Date header shows it. Tests move it forward.
   */
  clock: () => number;
}

export function todayOf(context: ApiContext): string {
  return formatBerlinDate(context.clock());
}

/** A change time for `created_at`/`updated_at` attributes, from the store's ordered clock. */
export function changeTimeOf(context: ApiContext): string {
  return formatBerlinDateTime(Date.parse(context.store.now()));
}

const principals = new WeakMap<FastifyRequest, Principal>();

export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  principals.set(request, principal);
}

/** The authenticated caller; the auth hook has answered 401 before any route could run without one. */
export function principalOf(request: FastifyRequest): Principal {
  const principal = principals.get(request);
  if (!principal)
    throw new ApiError(401, [{ code: 'token_missing', detail: 'No access token was presented.' }]);
  return principal;
}
