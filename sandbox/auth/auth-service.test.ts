// The OAuth server on its own: a bare Fastify instance with a hand-made store and a clock the
// tests move, for what the whole sandbox cannot show quickly (code expiry, revocation, the
// refresh rhythm) and for the edges of every parameter check.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../data/memory-store';
import type { Role, Store } from '../data/store';
import { CODE_LIFETIME_MS } from './grants';
import { createAuthService } from './index';
import { ROLE_SCOPES, SCOPE_CATALOGUE } from './scopes';
import {
  LOOPBACK_REDIRECT,
  authorizeUrl,
  fetchNoRedirect,
  pkcePair,
  postToken,
  redirectParameters,
} from './oauth-test-client';
import {
  CONFIDENTIAL_CLIENT_ID,
  CONFIDENTIAL_CLIENT_SECRET,
  PUBLIC_CLIENT_ID,
  type AuthService,
} from './types';

const OFFICE_ID = 'a'.repeat(32);
const TRAINER_ID = 'b'.repeat(32);
const MEMBER_ID = 'c'.repeat(32);
const TOKEN_TTL_SECONDS = 300;

function person(store: Store, id: string, role: Role, attributes: Record<string, unknown>): void {
  store.put({
    type: 'user',
    id,
    attributes: {
      anrede: '',
      gebdat: '',
      email: '',
      handy: '',
      telpriv: '',
      teldienst: '',
      ...attributes,
    },
    relationships: { organisation: { type: 'organisation', id: '1' } },
  });
  store.put({ type: 'account', id, attributes: { role, feedHash: id }, relationships: {} });
}

function fixtureStore(): Store {
  const store = openStore();
  store.put({
    type: 'orga',
    id: '1',
    attributes: { name: 'DRK Ortsverein Musterstadt', kuerzel: 'drkmu' },
    relationships: {},
  });
  store.put({
    type: 'organisation',
    id: '1',
    attributes: { name: 'DRK Ortsverein Musterstadt', kuerzel: 'drkmu' },
    relationships: {},
  });
  person(store, OFFICE_ID, 'office', {
    anrede: 'Frau',
    vorname: 'Greta',
    nachname: 'Büro',
    username: 'gbuero',
    email: 'greta@example.org',
    gebdat: '1985-07-14',
    handy: '0170 1234567',
    adresse: 'Hauptstraße 1',
    plz: '12345',
    ort: 'Musterstadt',
    land: 'Deutschland',
  });
  person(store, TRAINER_ID, 'trainer', {
    anrede: 'Herr',
    vorname: 'Tom <b>',
    nachname: '"Trainer" & Co',
    username: 'ttrainer',
  });
  person(store, MEMBER_ID, 'member', {
    vorname: 'Mia',
    nachname: 'Mitglied',
    username: 'mmitglied',
    gebdat: '1990-01-05',
  });
  return store;
}

let now = Date.parse('2026-03-01T10:00:00Z');
let store: Store;
let auth: AuthService;
let autoAuth: AuthService;
let app: FastifyInstance;
let autoApp: FastifyInstance;
let origin: string;
let autoOrigin: string;

async function serve(service: AuthService): Promise<{ app: FastifyInstance; origin: string }> {
  const server = Fastify();
  service.register(server);
  // An API-style route at the root: the OAuth plugin's form parser must not reach it.
  server.post('/api/echo', (request) => ({ body: request.body }));
  const address = await server.listen({ host: '127.0.0.1', port: 0 });
  return { app: server, origin: address };
}

beforeAll(async () => {
  store = fixtureStore();
  const clock = () => now;
  auth = createAuthService({ store, tokenTtlSeconds: TOKEN_TTL_SECONDS, clock });
  autoAuth = createAuthService({
    store,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    clock,
    autoApprove: true,
  });
  ({ app, origin } = await serve(auth));
  ({ app: autoApp, origin: autoOrigin } = await serve(autoAuth));
});

afterAll(async () => {
  await app.close();
  await autoApp.close();
  store.close();
});

beforeEach(() => {
  now += 24 * 3600_000;
});

const authUrl = () => `${origin}/oauth/v1/authorize`;
const tokenUrl = () => `${origin}/oauth/v1/token`;

function publicRequest(
  challenge: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    response_type: 'code',
    client_id: PUBLIC_CLIENT_ID,
    redirect_uri: LOOPBACK_REDIRECT,
    state: 'st-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
}

/** Logs in through the login form as the given user and returns the code. */
async function codeFor(userId: string, challenge: string): Promise<string> {
  const form = new URLSearchParams({ ...publicRequest(challenge), user_id: userId });
  const response = await fetchNoRedirect(authUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  expect(response.status).toBe(303);
  const answer = redirectParameters(response);
  expect(answer.get('state')).toBe('st-1');
  return answer.get('code') ?? '';
}

async function tokensFor(userId: string): Promise<Record<string, unknown>> {
  const pkce = pkcePair();
  const code = await codeFor(userId, pkce.challenge);
  const answer = await postToken(tokenUrl(), {
    grant_type: 'authorization_code',
    code,
    redirect_uri: LOOPBACK_REDIRECT,
    client_id: PUBLIC_CLIENT_ID,
    code_verifier: pkce.verifier,
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('login page', () => {
  it('lists every account with its role, escapes names, and carries the request in hidden fields', async () => {
    const pkce = pkcePair();
    const response = await fetch(
      authorizeUrl(authUrl(), publicRequest(pkce.challenge, { state: '"><x' })),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect(html).toContain('Greta Büro');
    expect(html).toContain('Büro (office)');
    expect(html).toContain('Tom &lt;b&gt; &quot;Trainer&quot; &amp; Co');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<input type="hidden" name="state" value="&quot;&gt;&lt;x">');
    expect(html).toContain(`value="${pkce.challenge}"`);
    // office first, then trainer, then member
    expect(html.indexOf('Greta')).toBeLessThan(html.indexOf('Tom'));
    expect(html.indexOf('Tom')).toBeLessThan(html.indexOf('Mia'));
  });

  it('highlights the login_hint account', async () => {
    const html = await (
      await fetch(
        authorizeUrl(authUrl(), publicRequest(pkcePair().challenge, { login_hint: 'mmitglied' })),
      )
    ).text();
    expect(html).toMatch(/<tr class="hint"><td>Mia Mitglied/);
  });

  it('answers the cancel button with access_denied', async () => {
    const form = new URLSearchParams({ ...publicRequest(pkcePair().challenge), action: 'deny' });
    const response = await fetchNoRedirect(authUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(response.status).toBe(303);
    const answer = redirectParameters(response);
    expect(answer.get('error')).toBe('access_denied');
    expect(answer.get('state')).toBe('st-1');
  });

  it('refuses a posted user without an account', async () => {
    const form = new URLSearchParams({
      ...publicRequest(pkcePair().challenge),
      user_id: 'f'.repeat(32),
    });
    const response = await fetch(authUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(response.status).toBe(400);
  });
});

describe('authorization request checks', () => {
  const challenge = pkcePair().challenge;

  it.each([
    ['unknown client', { client_id: 'someone' }],
    ['missing client', { client_id: '' }],
    ['https redirect', { redirect_uri: 'https://127.0.0.1:4000/cb' }],
    ['non-loopback redirect', { redirect_uri: 'http://evil.example/cb' }],
    ['redirect with fragment', { redirect_uri: 'http://127.0.0.1:4000/cb#x' }],
    ['redirect with user-info', { redirect_uri: 'http://127.0.0.1@evil.example/cb' }],
    ['missing redirect', { redirect_uri: '' }],
    ['other organisation', { ov: 'asbxy' }],
  ])('shows an error page, no redirect, for: %s', async (_name, change) => {
    const response = await fetchNoRedirect(
      authorizeUrl(authUrl(), publicRequest(challenge, change)),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('Anmeldung nicht möglich');
  });

  it('escapes request values shown on the error page', async () => {
    const response = await fetch(
      authorizeUrl(authUrl(), publicRequest(challenge, { client_id: '<script>' })),
    );
    const html = await response.text();
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
  });

  it.each([
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: '' }, 'invalid_request'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['PKCE without method', { code_challenge_method: '' }, 'invalid_request'],
    [
      'no PKCE for the public client',
      { code_challenge: '', code_challenge_method: '' },
      'invalid_request',
    ],
    ['malformed challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['malformed scope', { scope: 'a\\b' }, 'invalid_scope'],
  ])('redirects with an OAuth error for: %s', async (_name, change, error) => {
    const response = await fetchNoRedirect(
      authorizeUrl(authUrl(), publicRequest(challenge, change)),
    );
    expect(response.status).toBe(302);
    const location = response.headers.get('location') ?? '';
    expect(location.startsWith(`${LOOPBACK_REDIRECT}?`)).toBe(true);
    const answer = redirectParameters(response);
    expect(answer.get('error')).toBe(error);
    expect(answer.get('error_description')).toBeTruthy();
    expect(answer.get('state')).toBe('st-1');
  });

  it('refuses a repeated parameter', async () => {
    const url = `${authorizeUrl(authUrl(), publicRequest(challenge))}&scope=a&scope=b`;
    const answer = redirectParameters(await fetchNoRedirect(url));
    expect(answer.get('error')).toBe('invalid_request');
  });

  it('accepts any loopback port and path, localhost and [::1], the own ov in any case, and keeps the query of the redirect', async () => {
    for (const redirect of [
      'http://localhost:9/x?keep=1',
      'http://[::1]:50000/',
      'http://127.0.0.1/',
    ]) {
      const response = await fetchNoRedirect(
        authorizeUrl(
          `${autoOrigin}/oauth/v1/authorize`,
          publicRequest(challenge, { redirect_uri: redirect, ov: 'DRKMU' }),
        ),
      );
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.origin + location.pathname).toBe(
        new URL(redirect).origin + new URL(redirect).pathname,
      );
      expect(location.searchParams.get('code')).toBeTruthy();
      if (redirect.includes('keep=1')) expect(location.searchParams.get('keep')).toBe('1');
    }
  });

  it('refuses any redirect of the confidential client but its registered one', async () => {
    const base = { response_type: 'code', client_id: CONFIDENTIAL_CLIENT_ID, state: 's' };
    const wrong = await fetchNoRedirect(
      authorizeUrl(authUrl(), { ...base, redirect_uri: 'http://127.0.0.1:8080/callback' }),
    );
    expect(wrong.status).toBe(400);
    const right = await fetchNoRedirect(
      authorizeUrl(`${autoOrigin}/oauth/v1/authorize`, {
        ...base,
        redirect_uri: 'http://127.0.0.1/callback',
      }),
    );
    expect(right.status).toBe(302);
    expect(redirectParameters(right).get('code')).toBeTruthy();
  });
});

describe('auto-approve', () => {
  const request = (extra: Record<string, string>) =>
    fetchNoRedirect(
      authorizeUrl(`${autoOrigin}/oauth/v1/authorize`, publicRequest(pkcePair().challenge, extra)),
    );

  it('logs in as the login_hint account, named by id or username', async () => {
    for (const hint of [MEMBER_ID, 'MMitglied']) {
      const pkce = pkcePair();
      const response = await fetchNoRedirect(
        authorizeUrl(
          `${autoOrigin}/oauth/v1/authorize`,
          publicRequest(pkce.challenge, { login_hint: hint }),
        ),
      );
      const code = redirectParameters(response).get('code') ?? '';
      const tokens = await postToken(`${autoOrigin}/oauth/v1/token`, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: LOOPBACK_REDIRECT,
        client_id: PUBLIC_CLIENT_ID,
        code_verifier: pkce.verifier,
      });
      const result = autoAuth.authenticate(`Bearer ${String(tokens.body.access_token)}`);
      expect(result).toEqual({
        ok: true,
        principal: { userId: MEMBER_ID, role: 'member', scopes: new Set(ROLE_SCOPES.member) },
      });
    }
  });

  it('logs in as the first office account without a hint', async () => {
    const response = await request({});
    expect(redirectParameters(response).get('code')).toBeTruthy();
  });

  it('answers an unknown login_hint with access_denied', async () => {
    const answer = redirectParameters(await request({ login_hint: 'nobody' }));
    expect(answer.get('error')).toBe('access_denied');
    expect(answer.get('state')).toBe('st-1');
  });
});

describe('token endpoint', () => {
  it('lets a code expire after a minute', async () => {
    const pkce = pkcePair();
    const code = await codeFor(OFFICE_ID, pkce.challenge);
    now += CODE_LIFETIME_MS;
    const answer = await postToken(tokenUrl(), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
      client_id: PUBLIC_CLIENT_ID,
      code_verifier: pkce.verifier,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_grant');
    expect(answer.body.error_description).toMatch(/expired/);
  });

  it('revokes the tokens of a code that is redeemed twice', async () => {
    const pkce = pkcePair();
    const code = await codeFor(OFFICE_ID, pkce.challenge);
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
      client_id: PUBLIC_CLIENT_ID,
      code_verifier: pkce.verifier,
    };
    const first = await postToken(tokenUrl(), form);
    expect(first.status).toBe(200);
    const second = await postToken(tokenUrl(), form);
    expect(second.body.error).toBe('invalid_grant');
    expect(auth.authenticate(`Bearer ${String(first.body.access_token)}`)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const refreshed = await postToken(tokenUrl(), {
      grant_type: 'refresh_token',
      refresh_token: String(first.body.refresh_token),
      client_id: PUBLIC_CLIENT_ID,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('rotates the refresh token on odd refreshes and omits it (old one stays valid) on even ones', async () => {
    const tokens = await tokensFor(TRAINER_ID);
    const refresh = (refreshToken: unknown) =>
      postToken(tokenUrl(), {
        grant_type: 'refresh_token',
        refresh_token: String(refreshToken),
        client_id: PUBLIC_CLIENT_ID,
      });

    const first = await refresh(tokens.refresh_token);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).toBeTypeOf('string');
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await refresh(tokens.refresh_token)).body.error).toBe('invalid_grant');

    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body).not.toHaveProperty('refresh_token');
    expect(second.body.access_token).toBeTypeOf('string');

    const third = await refresh(first.body.refresh_token);
    expect(third.status).toBe(200);
    expect(third.body.refresh_token).toBeTypeOf('string');
  });

  it('narrows the scope on refresh but never widens it', async () => {
    const tokens = await tokensFor(TRAINER_ID);
    const refresh = (scope: string) =>
      postToken(tokenUrl(), {
        grant_type: 'refresh_token',
        refresh_token: String(tokens.refresh_token),
        client_id: PUBLIC_CLIENT_ID,
        scope,
      });
    expect((await refresh('personal:update')).body.error).toBe('invalid_scope');
    const narrowed = await refresh('openid');
    expect(narrowed.body.scope).toBe('openid');
  });

  it('refuses a refresh token presented by another client', async () => {
    const tokens = await tokensFor(MEMBER_ID);
    const answer = await postToken(tokenUrl(), {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.refresh_token),
      client_id: CONFIDENTIAL_CLIENT_ID,
      client_secret: CONFIDENTIAL_CLIENT_SECRET,
    });
    expect(answer.body.error).toBe('invalid_grant');
  });

  it('answers an expired access token as expired', async () => {
    const tokens = await tokensFor(MEMBER_ID);
    const header = `Bearer ${String(tokens.access_token)}`;
    expect(auth.authenticate(header).ok).toBe(true);
    now += TOKEN_TTL_SECONDS * 1000;
    expect(auth.authenticate(header)).toEqual({ ok: false, reason: 'expired' });
  });

  it.each([
    [
      'JSON instead of a form',
      { 'content-type': 'application/json' },
      '{"grant_type":"refresh_token"}',
      'invalid_request',
      400,
    ],
    [
      'an unknown media type',
      { 'content-type': 'text/plain' },
      'grant_type=x',
      'invalid_request',
      400,
    ],
    ['no grant_type', {}, `client_id=${PUBLIC_CLIENT_ID}`, 'invalid_request', 400],
    [
      'password grant',
      {},
      `client_id=${PUBLIC_CLIENT_ID}&grant_type=password`,
      'unsupported_grant_type',
      400,
    ],
    ['no client', {}, 'grant_type=refresh_token&refresh_token=x', 'invalid_client', 401],
    [
      'unknown client',
      {},
      'grant_type=refresh_token&refresh_token=x&client_id=zz',
      'invalid_client',
      401,
    ],
    [
      'a secret for the public client',
      {},
      `grant_type=refresh_token&refresh_token=x&client_id=${PUBLIC_CLIENT_ID}&client_secret=s`,
      'invalid_client',
      401,
    ],
    [
      'a repeated parameter',
      {},
      `client_id=${PUBLIC_CLIENT_ID}&grant_type=refresh_token&refresh_token=a&refresh_token=b`,
      'invalid_request',
      400,
    ],
    [
      'an unknown code',
      {},
      `client_id=${PUBLIC_CLIENT_ID}&grant_type=authorization_code&code=nope&redirect_uri=x`,
      'invalid_grant',
      400,
    ],
    ['a malformed body', {}, '%', 'invalid_client', 401],
  ])('answers %s with %s', async (_name, headers, body, error, status) => {
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer.error).toBe(error);
    expect(answer.error_description).toBeTypeOf('string');
    if (status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('accepts HTTP Basic for the confidential client, with form-encoded credentials, but not together with client_secret', async () => {
    const basic = (secret: string) =>
      `Basic ${Buffer.from(`${CONFIDENTIAL_CLIENT_ID}:${secret}`).toString('base64')}`;
    const withBasic = await postToken(
      tokenUrl(),
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: basic(CONFIDENTIAL_CLIENT_SECRET) },
    );
    expect(withBasic.body.error).toBe('invalid_grant'); // authenticated; only the token is wrong
    const wrong = await postToken(
      tokenUrl(),
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: basic('nope') },
    );
    expect(wrong.status).toBe(401);
    const both = await postToken(
      tokenUrl(),
      {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_secret: CONFIDENTIAL_CLIENT_SECRET,
      },
      { authorization: basic(CONFIDENTIAL_CLIENT_SECRET) },
    );
    expect(both.body.error).toBe('invalid_request');
  });

  it('refuses a code_verifier when the request had no code_challenge', async () => {
    const redirect = 'http://127.0.0.1/callback';
    const response = await fetchNoRedirect(
      authorizeUrl(`${autoOrigin}/oauth/v1/authorize`, {
        response_type: 'code',
        client_id: CONFIDENTIAL_CLIENT_ID,
        redirect_uri: redirect,
      }),
    );
    const answer = await postToken(`${autoOrigin}/oauth/v1/token`, {
      grant_type: 'authorization_code',
      code: redirectParameters(response).get('code') ?? '',
      redirect_uri: redirect,
      client_id: CONFIDENTIAL_CLIENT_ID,
      client_secret: CONFIDENTIAL_CLIENT_SECRET,
      code_verifier: pkcePair().verifier,
    });
    expect(answer.body.error).toBe('invalid_grant');
  });

  it('leaves the parsers of other routes alone', async () => {
    const response = await fetch(`${origin}/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(response.status).toBe(415);
  });
});

describe('authenticate', () => {
  it('tells missing, invalid and expired apart and accepts the bare token', () => {
    const token = auth.issueAccessToken(OFFICE_ID);
    const office = {
      ok: true,
      principal: { userId: OFFICE_ID, role: 'office', scopes: new Set(SCOPE_CATALOGUE) },
    };
    expect(auth.authenticate(`Bearer ${token}`)).toEqual(office);
    expect(auth.authenticate(`bearer  ${token}`)).toEqual(office);
    expect(auth.authenticate(token)).toEqual(office);
    expect(auth.authenticate(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(auth.authenticate('  ')).toEqual({ ok: false, reason: 'missing' });
    expect(auth.authenticate('Bearer')).toEqual({ ok: false, reason: 'missing' });
    expect(auth.authenticate('Bearer nope')).toEqual({ ok: false, reason: 'invalid' });
    expect(auth.authenticate(`Basic ${token}`)).toEqual({ ok: false, reason: 'invalid' });
    now += TOKEN_TTL_SECONDS * 1000;
    expect(auth.authenticate(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('issues tokens only for users with an account', () => {
    expect(() => auth.issueAccessToken('0'.repeat(32))).toThrow(/no account/);
  });

  it('reads the role when the token is used', () => {
    const token = auth.issueAccessToken(MEMBER_ID);
    store.put({
      type: 'account',
      id: MEMBER_ID,
      attributes: { role: 'trainer', feedHash: MEMBER_ID },
      relationships: {},
    });
    expect(auth.authenticate(token)).toEqual({
      ok: true,
      // The role is read when the token is used; the scopes are those the token was issued with.
      principal: { userId: MEMBER_ID, role: 'trainer', scopes: new Set(ROLE_SCOPES.member) },
    });
    store.put({
      type: 'account',
      id: MEMBER_ID,
      attributes: { role: 'member', feedHash: MEMBER_ID },
      relationships: {},
    });
  });
});

describe('userinfo', () => {
  const userInfo = (authorization?: string) =>
    fetch(`${origin}/oauth/v1/userinfo`, { headers: authorization ? { authorization } : {} });

  it('answers the user-info document of the token’s user', async () => {
    const response = await userInfo(`Bearer ${auth.issueAccessToken(OFFICE_ID)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      sub: OFFICE_ID,
      name: 'Greta Büro',
      given_name: 'Greta',
      family_name: 'Büro',
      preferred_username: 'gbuero',
      email: 'greta@example.org',
      email_verified: true,
      gender: 'female',
      birthdate: '1985-07-14T00:00:00+02:00',
      phone_number: '0170 1234567',
      phone_number_verified: false,
      address: {
        formatted: 'Hauptstraße 1\n12345 Musterstadt\nDeutschland',
        street_address: 'Hauptstraße 1',
        locality: 'Musterstadt',
        postal_code: '12345',
        country: 'Deutschland',
      },
      updated_at: Math.floor(Date.parse(store.get('user', OFFICE_ID)?.updatedAt ?? '') / 1000),
      organisation_key: 'drkmu',
      organisation: 'DRK Ortsverein Musterstadt',
    });
  });

  it('writes winter birthdays with +01:00 and leaves unknown ones empty', async () => {
    const member = (await (await userInfo(auth.issueAccessToken(MEMBER_ID))).json()) as Record<
      string,
      unknown
    >;
    expect(member.birthdate).toBe('1990-01-05T00:00:00+01:00');
    const trainer = (await (await userInfo(auth.issueAccessToken(TRAINER_ID))).json()) as Record<
      string,
      unknown
    >;
    expect(trainer.birthdate).toBe('');
    expect(trainer.gender).toBe('male');
  });

  it('challenges a missing, invalid or expired token', async () => {
    const missing = await userInfo();
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="vorort-sandbox"');
    const invalid = await userInfo('Bearer nope');
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const token = auth.issueAccessToken(OFFICE_ID);
    now += TOKEN_TTL_SECONDS * 1000;
    const expired = await userInfo(`Bearer ${token}`);
    expect(expired.headers.get('www-authenticate')).toMatch(
      /error_description="The access token expired"/,
    );
  });
});
