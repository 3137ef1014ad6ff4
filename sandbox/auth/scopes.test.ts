// Scopes against the running sandbox: every operation of the catalogue refuses a token that
// lacks its scope (403 naming it) and, for one operation of each route family, serves a token
// that has only that scope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import { OPERATION_SCOPES, ROLE_SCOPES, SCOPE_CATALOGUE, scopesForOperation } from './scopes';

let sandbox: RunningSandbox;
let officeId = '';
let courseId = '';
let clientId = '';

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 5, prefix: '/core/v1' });
  officeId = sandbox.users.find((user) => user.role === 'office')!.id;
  courseId = sandbox.store.all('course')[0]!.id;
  clientId = sandbox.store.all('client')[0]!.id;
});
afterAll(() => sandbox.close());

function tokenWith(scope: string, userId = officeId): string {
  return sandbox.auth.issueAccessToken(userId, { scope });
}

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

type ErrorBody = { errors: { status: string; code: string; title: string; detail: string }[] };

describe('every operation needs its scope', () => {
  for (const [operation, scopes] of Object.entries(OPERATION_SCOPES)) {
    it(`${operation} needs ${scopes.join(' and ')}`, async () => {
      const [method = '', pattern = ''] = operation.split(' ');
      // The scope is checked before the id is looked up, so any id shows it.
      const path = pattern.replaceAll('{}', '1');
      const everythingElse = SCOPE_CATALOGUE.filter((scope) => !scopes.includes(scope));
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const answer = await call(method, path, tokenWith(everythingElse.join(' ')), body);
      expect(answer.status, answer.text).toBe(403);
      const [error] = (JSON.parse(answer.text) as ErrorBody).errors;
      expect(error).toMatchObject({
        status: '403',
        title: 'Forbidden',
        code: 'insufficient_scope',
      });
      for (const scope of scopes) expect(error?.detail).toContain(`"${scope}"`);
      expect(answer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    });
  }
});

/** One read of each route family: 200 with only its scope, 403 with all but it. */
const FAMILIES: [path: string, scope: string][] = [
  ['/personal/selbst', 'personal/selbst:read'],
  ['/personal', 'personal:read'],
  ['/personal/{officeId}/ausbildungen', 'personal:read'],
  ['/organisation/selbst/stammdaten', 'organisation/selbst/stammdaten:read'],
  ['/kalender', 'kalender:read'],
  ['/helferstunden', 'helferstunden:read'],
  ['/helferstunden/einstellungen/selbst', 'helferstunden:read'],
  ['/benachrichtigungen', 'benachrichtigungen:read'],
  ['/formulare/v1/liste?typ=u&id={officeId}', 'formulare:read'],
  ['/steuersaetze', 'steuersaetze:read'],
  ['/courses', 'courses:read'],
  ['/courses/types', 'courses:read'],
  ['/courses/{courseId}/participations', 'participations:read'],
  ['/courses/{courseId}/customfields', 'customfields:read'],
  ['/clients', 'clients:read'],
  ['/clients/{clientId}/courses', 'clients:read'],
  ['/uvts', 'uvts:read'],
];

describe('a route family answers with its scope alone', () => {
  for (const [template, scope] of FAMILIES) {
    it(`GET ${template} with ${scope}`, async () => {
      const path = template
        .replace('{officeId}', officeId)
        .replace('{courseId}', courseId)
        .replace('{clientId}', clientId);
      const allowed = await call('GET', path, tokenWith(scope));
      expect(allowed.status, allowed.text).toBe(200);
      const others = SCOPE_CATALOGUE.filter((candidate) => candidate !== scope).join(' ');
      const refused = await call('GET', path, tokenWith(others));
      expect(refused.status).toBe(403);
      expect(refused.text).toContain(`lacks the scope \\"${scope}\\"`);
    });
  }

  it('lets a write through the scope check with its scope (the body decides then)', async () => {
    const post = await call('POST', '/kalender', tokenWith('kalender:read'), {});
    expect(post.status).toBe(403);
    const withScope = await call('POST', '/kalender', tokenWith('kalender:add'), {});
    expect(withScope.status).not.toBe(403);
    expect(withScope.status).toBeGreaterThanOrEqual(400);
  });

  it('still applies the role rules to a token that has the scope', async () => {
    const member = sandbox.users.find((user) => user.role === 'member')!;
    const answer = await call('GET', '/personal', tokenWith('personal:read', member.id));
    expect(answer.status).toBe(403);
    expect((JSON.parse(answer.text) as ErrorBody).errors[0]?.code).toBe('forbidden');
  });

  it('checks the token (401) before the scope', async () => {
    const answer = await call('GET', '/personal', 'not-a-token');
    expect(answer.status).toBe(401);
  });
});

describe('ready tokens', () => {
  it('carry the full scope set of their role', async () => {
    for (const user of sandbox.users) {
      const granted = sandbox.auth.authenticate(`Bearer ${user.accessToken}`);
      expect(granted.ok).toBe(true);
      if (granted.ok) expect(granted.principal.scopes).toEqual(new Set(ROLE_SCOPES[user.role]));
    }
    const trainer = sandbox.users.find((user) => user.role === 'trainer')!;
    expect((await call('GET', '/courses', trainer.accessToken)).status).toBe(200);
    expect((await call('GET', '/steuersaetze', trainer.accessToken)).status).toBe(200);
  });

  it('refuses unknown scopes when a token is issued directly', () => {
    expect(() => tokenWith('personal:read personal:delete')).toThrow(
      /Unknown scope: personal:delete/,
    );
  });
});

describe('the operation table', () => {
  it('maps Fastify patterns, HEAD as GET', () => {
    expect(scopesForOperation('GET', '/courses/:courseId/participations/:id')).toEqual([
      'participations:read',
    ]);
    expect(scopesForOperation('HEAD', '/uvts')).toEqual(['uvts:read']);
    expect(scopesForOperation('PUT', '/personal/:name/:value')).toEqual([
      'personal:add',
      'personal:update',
    ]);
    expect(scopesForOperation('DELETE', '/kalender/:id')).toEqual(['kalender:update']);
    expect(scopesForOperation('GET', '/nowhere')).toBeUndefined();
  });

  it('names only catalogue scopes, and every resource scope is used', () => {
    const used = new Set(Object.values(OPERATION_SCOPES).flat());
    for (const scope of used) expect(SCOPE_CATALOGUE).toContain(scope);
    const resourceScopes = SCOPE_CATALOGUE.filter((scope) => scope.includes(':'));
    expect(resourceScopes.filter((scope) => !used.has(scope))).toEqual([]);
  });
});
