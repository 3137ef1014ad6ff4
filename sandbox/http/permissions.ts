// Who may do what. The seed states no per-operation permissions; the sandbox enforces these
// three roles (read from the caller's account on every request) so that a client which
// assumes too much of a token fails here first.
//
// office   Everything: every person, course, client, hour entry and setting.
// trainer  Reference data: organisation master data, course types, UVTs, tax rates, forms (any
//          kind, but of persons only their own: typ=u&id=<own id>).
//          Own data: /personal/selbst and their own trainings, checks and honours; their own
//          calendars, notifications, hour settings and hour entries (read, create; change and
//          delete while not approved; never approve: `freigegeben`); creating occasions.
//          Courses: the courses they train (`trainers` relationship): GET /courses lists only
//          those (filter[trainer_user_id] may only name themselves), GET /courses/{id} of
//          another course is 403; the participations (read, create, change, cancel) and
//          custom fields (read, create, change, delete) of those courses.
// member   Own data only, as the trainer's "own data" above, plus organisation master data.
//          The course module (courses, types, participations, custom fields, clients, UVTs),
//          tax rates and forms other than their own person's are 403.
//
// For both trainer and member 403: GET /personal, every personnel write, another person's
// trainings/checks/honours, filter[eigene]=false on /helferstunden (everyone's hours: the
// sandbox refuses rather than silently narrowing the answer), another user's hour entries,
// changing occasions, POST /courses and everything under /clients.
// Calendars and notifications are personal for every role: lists show the caller's own;
// reading or deleting another user's calendar is 403 (office may), another user's
// notification is 403 for everyone, because its id names the recipient.
//
// Scopes: besides the role, the token must carry the scope of the operation (requireScopes,
// sandbox/auth/scopes.ts); a missing scope is 403 `insufficient_scope`, naming the scope.
//
// Order of checks: 401 token, 403 missing scope, 423 unlicensed module, 403 when the role or the path alone
// decides (another person's id), 404 unknown id, 403 when the record decides (owner, trainers),
// then 400/409/422 for the body. Query parameters are read where the route needs them, so a
// malformed one may answer 400 before a 403.
import { scopesForOperation } from '../auth/scopes';
import type { Principal } from '../auth/types';
import type { Role, StoredResource } from '../data/store';
import { ApiError, forbidden } from './errors';

const ROLE_NAMES: Record<Role, string> = {
  office: 'office staff',
  trainer: 'trainers',
  member: 'members',
};

export function isOffice(principal: Principal): boolean {
  return principal.role === 'office';
}

/** 403 unless the caller has one of the roles. */
export function requireRole(principal: Principal, roles: readonly Role[], action: string): void {
  if (!roles.includes(principal.role)) {
    throw forbidden(`${action} is not allowed for ${ROLE_NAMES[principal.role]}.`);
  }
}

export function requireOffice(principal: Principal, action: string): void {
  requireRole(principal, ['office'], action);
}

/** Office, or the person themselves. */
export function requireSelfOrOffice(principal: Principal, userId: string, action: string): void {
  if (!isOffice(principal) && principal.userId !== userId) {
    throw forbidden(
      `${action} of another person is not allowed for ${ROLE_NAMES[principal.role]}.`,
    );
  }
}

function trainsCourse(course: StoredResource, userId: string): boolean {
  const trainers = course.relationships.trainers;
  return Array.isArray(trainers) && trainers.some((trainer) => trainer.id === userId);
}

/** Office, or a trainer of this course; members never reach courses. */
export function requireCourseAccess(principal: Principal, course: StoredResource): void {
  if (isOffice(principal)) return;
  if (principal.role === 'trainer' && trainsCourse(course, principal.userId)) return;
  throw forbidden(`Course ${course.id} is not one of the courses you train.`);
}

/** Forms of persons are personal data: non-office callers see only their own person's. */
export function requireFormAccess(
  principal: Principal,
  objectType: string,
  objectId: string,
): void {
  if (isOffice(principal)) return;
  if (objectType === 'u' && objectId === principal.userId) return;
  if (principal.role === 'trainer' && objectType !== 'u') return;
  throw forbidden(`Forms of this object are not available to ${ROLE_NAMES[principal.role]}.`);
}

/**
 * 403 unless the token carries every scope the operation needs (sandbox/auth/scopes.ts). Runs
 * before the role checks, right after the token is verified; an operation the scope catalogue
 * does not cover is refused, so a new route cannot slip through without a scope.
 */
export function requireScopes(principal: Principal, method: string, routePattern: string): void {
  const needed = scopesForOperation(method, routePattern);
  const operation = `${method.toUpperCase()} ${routePattern}`;
  if (needed === undefined) {
    throw new ApiError(403, [
      {
        code: 'scope_undefined',
        detail: `No scope grants ${operation}; the sandbox's scope catalogue does not cover it.`,
      },
    ]);
  }
  const missing = needed.filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0) {
    const list = missing.map((scope) => `"${scope}"`).join(' and ');
    throw new ApiError(
      403,
      [
        {
          code: 'insufficient_scope',
          detail: `The access token lacks the scope ${list}, which ${operation} needs.`,
        },
      ],
      {
        'www-authenticate': `Bearer realm="vorort-sandbox", error="insufficient_scope", scope="${needed.join(' ')}"`,
      },
    );
  }
}
