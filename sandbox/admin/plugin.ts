// The admin interface for tests, one Fastify plugin mounted at /_admin (outside the interface
// prefix and outside /oauth). It makes the changes the real service's web interface makes (not
// its API), moves the sandbox's clock, switches paging and shows the change journal. Plain JSON
// in and out; see sandbox/RESOURCES.md, "Admin interface (tests only)".
//
// It is registered only with `admin: true` (`--admin`); without it /_admin is the interface's
// usual 404. Its scope: loopback only (403), its own token (401), errors as `{ error }`.
import type { FastifyInstance } from 'fastify';
import { registerChangesRoute } from './changes-route';
import { registerClockRoutes, registerPagingRoutes } from './clock-routes';
import type { AdminContext } from './context';
import { registerAdminErrors } from './errors';
import { registerGuard } from './guard';

export const ADMIN_PATH = '/_admin';

export interface AdminOptions {
  admin: AdminContext;
  token: string;
}

/** The admin plugin; register it with `{ prefix: ADMIN_PATH }`. */
export function adminPlugin({ admin, token }: AdminOptions) {
  return async (scope: FastifyInstance): Promise<void> => {
    registerGuard(scope, token);
    registerAdminErrors(scope);
    registerClockRoutes(scope, admin);
    registerPagingRoutes(scope, admin);
    registerChangesRoute(scope, admin);
  };
}
