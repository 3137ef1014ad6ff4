// The admin interface for tests, one Fastify plugin mounted at /_admin (outside the interface
// prefix and outside /oauth). It makes the changes the real service's web interface makes (not
// its API), moves the sandbox's clock, switches paging and shows the change journal. Plain JSON
// in and out; see sandbox/RESOURCES.md, "Admin interface (tests only)".
//
// It is registered only with `admin: true` (`--admin`); without it /_admin is the interface's
// usual 404. Its scope: loopback only (403), its own token (401), errors as `{ error }`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerBackupRoutes } from './backups';
import { registerChangesRoute } from './changes-route';
import { registerCheckChanges } from './checks';
import { registerClockRoutes, registerPagingRoutes } from './clock-routes';
import type { AdminContext } from './context';
import { registerCourseChanges } from './courses';
import { badRequest, registerAdminErrors } from './errors';
import { registerFormChanges } from './formulare';
import { registerGuard } from './guard';
import { registerHelferstundenChanges } from './helferstunden';
import { registerPersonChanges } from './personal';
import { registerRecordChanges } from './records';
import { registerReferenceChanges } from './reference';

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
    registerJsonBodies(scope);
    registerClockRoutes(scope, admin);
    registerPagingRoutes(scope, admin);
    registerChangesRoute(scope, admin);
    registerCourseChanges(scope, admin);
    registerHelferstundenChanges(scope, admin);
    registerFormChanges(scope, admin);
    registerPersonChanges(scope, admin);
    registerCheckChanges(scope, admin);
    registerReferenceChanges(scope, admin);
    registerRecordChanges(scope, admin);
    registerBackupRoutes(scope, admin);
  };
}

/** JSON bodies; an empty one (a DELETE sent with a JSON content type) reads as none. */
function registerJsonBodies(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    async (_request: FastifyRequest, body: string) => {
      if (body.trim() === '') return undefined;
      try {
        return JSON.parse(body) as unknown;
      } catch (error) {
        throw badRequest(`The body is not valid JSON: ${(error as Error).message}`);
      }
    },
  );
}
