// The sandbox's scopes, in one place: the catalogue the authorization server grants from, the
// scope each interface operation needs, and the scopes each role may use.
//
// The real service's scopes follow `<path>:<read|add|update>` (SERVICE-NOTES: seen `openid`,
// `profile`, `personal/selbst:read`, `personal:read`, `personal:add`, `personal:update`,
// `organisation/selbst/stammdaten:read`, `helferstunden:read`). The rest is derived from the
// seed's operations (section 4) by the same pattern:
//   <path>  the operation's first path segment, i.e. the collection it works on; except the
//           two `selbst` paths seen as scopes of their own, and the two course sub-collections
//           that have a seed section and a resource type of their own (participations §4.7,
//           customfields §4.9).
//   read    GET (and HEAD);  add  POST that creates;  update  PATCH, PUT and DELETE.
// DELETE needs `update`: the pattern has no delete verb, and removing a member of a collection
// changes it. PUT /personal/{identifier}/{value} creates or updates, so it needs both `add`
// and `update`. The cancel of a participation (a POST that changes it) needs `update`.

export const OIDC_SCOPES = ['openid', 'profile', 'email'] as const;

export const RESOURCE_SCOPES = [
  'personal/selbst:read',
  'personal:read',
  'personal:add',
  'personal:update',
  'organisation/selbst/stammdaten:read',
  'kalender:read',
  'kalender:add',
  'kalender:update',
  'helferstunden:read',
  'helferstunden:add',
  'helferstunden:update',
  'benachrichtigungen:read',
  'benachrichtigungen:update',
  'formulare:read',
  'steuersaetze:read',
  'courses:read',
  'courses:add',
  'participations:read',
  'participations:add',
  'participations:update',
  'customfields:read',
  'customfields:add',
  'customfields:update',
  'clients:read',
  'uvts:read',
] as const;

export type Scope = (typeof OIDC_SCOPES)[number] | (typeof RESOURCE_SCOPES)[number];

/** Every scope the sandbox knows; the authorization server grants nothing else. */
export const SCOPE_CATALOGUE: readonly Scope[] = [...OIDC_SCOPES, ...RESOURCE_SCOPES];

const KNOWN = new Set<string>(SCOPE_CATALOGUE);

export function isKnownScope(scope: string): scope is Scope {
  return KNOWN.has(scope);
}

/**
 * Every interface operation and the scopes it needs (all of them). Paths are Fastify route
 * patterns relative to the prefix, with each path parameter written `{}`.
 */
export const OPERATION_SCOPES: Readonly<Record<string, readonly Scope[]>> = {
  // 4.1 Personal
  'GET /personal/selbst': ['personal/selbst:read'],
  'GET /personal': ['personal:read'],
  'POST /personal': ['personal:add'],
  'PATCH /personal/{}': ['personal:update'],
  'PUT /personal/{}/{}': ['personal:add', 'personal:update'],
  'GET /personal/{}/ausbildungen': ['personal:read'],
  'DELETE /personal/{}/ausbildungen/{}': ['personal:update'],
  'GET /personal/{}/ueberpruefungen': ['personal:read'],
  'GET /personal/{}/ehrungen': ['personal:read'],
  // 4.2 Organisation
  'GET /organisation/selbst/stammdaten': ['organisation/selbst/stammdaten:read'],
  // 4.3 Calendar
  'GET /kalender': ['kalender:read'],
  'POST /kalender': ['kalender:add'],
  'GET /kalender/{}': ['kalender:read'],
  'DELETE /kalender/{}': ['kalender:update'],
  // 4.4 Volunteer hours (occasions and the own settings belong to the hours)
  'GET /helferstunden': ['helferstunden:read'],
  'POST /helferstunden': ['helferstunden:add'],
  'GET /helferstunden/{}': ['helferstunden:read'],
  'PATCH /helferstunden/{}': ['helferstunden:update'],
  'DELETE /helferstunden/{}': ['helferstunden:update'],
  'POST /helferstunden/anlass': ['helferstunden:add'],
  'PATCH /helferstunden/anlass/{}': ['helferstunden:update'],
  'GET /helferstunden/einstellungen/selbst': ['helferstunden:read'],
  // 4.5 Notifications, forms, tax rates
  'GET /benachrichtigungen': ['benachrichtigungen:read'],
  'PATCH /benachrichtigungen/{}': ['benachrichtigungen:update'],
  'DELETE /benachrichtigungen/{}': ['benachrichtigungen:update'],
  'GET /formulare/v1/liste': ['formulare:read'],
  'GET /steuersaetze': ['steuersaetze:read'],
  // 4.6 Courses
  'GET /courses': ['courses:read'],
  'POST /courses': ['courses:add'],
  'GET /courses/types': ['courses:read'],
  'GET /courses/{}': ['courses:read'],
  // 4.7 Participations
  'GET /courses/{}/participations': ['participations:read'],
  'POST /courses/{}/participations': ['participations:add'],
  'GET /courses/{}/participations/{}': ['participations:read'],
  'PATCH /courses/{}/participations/{}': ['participations:update'],
  'POST /courses/{}/participations/{}/cancel': ['participations:update'],
  // 4.8 Clients
  'GET /clients': ['clients:read'],
  'GET /clients/{}': ['clients:read'],
  'GET /clients/{}/courses': ['clients:read'],
  'GET /clients/{}/courses/{}': ['clients:read'],
  'GET /clients/{}/participants': ['clients:read'],
  // 4.9 Custom fields
  'GET /courses/{}/customfields': ['customfields:read'],
  'POST /courses/{}/customfields': ['customfields:add'],
  'GET /courses/{}/customfields/{}': ['customfields:read'],
  'PATCH /courses/{}/customfields/{}': ['customfields:update'],
  'DELETE /courses/{}/customfields/{}': ['customfields:update'],
  // 4.10 UVTs
  'GET /uvts': ['uvts:read'],
};

/**
 * The scopes an operation needs, from its method and Fastify route pattern (relative to the
 * prefix, e.g. `/courses/:courseId/participations`); undefined for an operation the catalogue
 * does not cover (the caller refuses it: no scope, no access).
 */
export function scopesForOperation(
  method: string,
  routePattern: string,
): readonly Scope[] | undefined {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const path = routePattern.replace(/:[A-Za-z0-9_]+/g, '{}');
  return OPERATION_SCOPES[`${verb} ${path}`];
}

/** Scopes of the own data every role may use: own record, calendars, hours, notifications, forms. */
const OWN_DATA: readonly Scope[] = [
  ...OIDC_SCOPES,
  'personal/selbst:read',
  // The own trainings, checks and honours are read under /personal/{own id}/…
  'personal:read',
  'organisation/selbst/stammdaten:read',
  'kalender:read',
  'kalender:add',
  'kalender:update',
  'helferstunden:read',
  'helferstunden:add',
  'helferstunden:update',
  'benachrichtigungen:read',
  'benachrichtigungen:update',
  'formulare:read',
];

/**
 * What each role may use (the role rules of sandbox/http/permissions.ts still apply on top):
 * the scope set of the ready tokens, and the most a login of that role is granted.
 */
export const ROLE_SCOPES: Readonly<Record<'office' | 'trainer' | 'member', readonly Scope[]>> = {
  office: SCOPE_CATALOGUE,
  trainer: [
    ...OWN_DATA,
    'steuersaetze:read',
    'courses:read',
    'participations:read',
    'participations:add',
    'participations:update',
    'customfields:read',
    'customfields:add',
    'customfields:update',
    'uvts:read',
  ],
  member: OWN_DATA,
};

/** A scope parameter as its list of scopes (RFC 6749 §3.3: space-separated, order irrelevant). */
export function splitScope(scope: string): string[] {
  return [...new Set(scope.split(' ').filter((part) => part !== ''))];
}

/** The scopes of a list that the catalogue does not know. */
export function unknownScopes(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => !isKnownScope(scope));
}

/** What a login of this role is granted of the requested scopes (all it may use when none named). */
export function grantableScope(
  role: keyof typeof ROLE_SCOPES,
  requested: readonly string[] | undefined,
): string {
  const allowed = ROLE_SCOPES[role];
  if (requested === undefined) return allowed.join(' ');
  return requested.filter((scope) => (allowed as readonly string[]).includes(scope)).join(' ');
}
