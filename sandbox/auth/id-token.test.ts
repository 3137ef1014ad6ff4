// Scopes at the authorize and token endpoints, and the OpenID Connect ID token: present only
// with `openid`, RS256-signed with the key published at /oauth/v1/jwks, with the nonce.
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import {
  authorizeUrl,
  fetchNoRedirect,
  LOOPBACK_REDIRECT,
  pkcePair,
  postToken,
  redirectParameters,
} from './oauth-test-client';
import { ROLE_SCOPES } from './scopes';
import { PUBLIC_CLIENT_ID } from './types';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 3, autoApprove: true, prefix: '/core/v1' });
});
afterAll(() => sandbox.close());

function user(role: 'office' | 'trainer' | 'member') {
  return sandbox.users.find((candidate) => candidate.role === role)!;
}

/** Auto-approved authorize request; answers the redirect's parameters. */
async function authorize(extra: Record<string, string>, pkce = pkcePair()) {
  const response = await fetchNoRedirect(
    authorizeUrl(sandbox.authUrl, {
      response_type: 'code',
      client_id: PUBLIC_CLIENT_ID,
      redirect_uri: LOOPBACK_REDIRECT,
      state: 'st-1',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...extra,
    }),
  );
  expect(response.status).toBe(302);
  return { answer: redirectParameters(response), pkce };
}

async function login(extra: Record<string, string>, tokenExtra: Record<string, string> = {}) {
  const { answer, pkce } = await authorize(extra);
  expect(answer.get('error')).toBeNull();
  return postToken(sandbox.tokenUrl, {
    grant_type: 'authorization_code',
    code: answer.get('code') ?? '',
    redirect_uri: LOOPBACK_REDIRECT,
    client_id: PUBLIC_CLIENT_ID,
    code_verifier: pkce.verifier,
    ...tokenExtra,
  });
}

function verify(idToken: unknown) {
  return jwtVerify(String(idToken), createRemoteJWKSet(new URL(sandbox.jwksUrl)), {
    issuer: sandbox.issuer,
    audience: PUBLIC_CLIENT_ID,
    algorithms: ['RS256'],
  });
}

describe('scopes at authorize and token', () => {
  it('refuses an unknown scope at authorize with invalid_scope, sent to the redirect URI', async () => {
    const { answer } = await authorize({ scope: 'openid personal:read personal:delete' });
    expect(answer.get('error')).toBe('invalid_scope');
    expect(answer.get('error_description')).toContain('personal:delete');
    expect(answer.get('state')).toBe('st-1');
    expect(answer.get('code')).toBeNull();
  });

  it('grants of the requested scopes those the role may use', async () => {
    const member = user('member');
    const tokens = await login({
      scope: 'openid personal/selbst:read courses:read',
      login_hint: member.id,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe('openid personal/selbst:read');
  });

  it('grants every scope of the role when none is requested', async () => {
    const tokens = await login({ login_hint: user('trainer').id });
    expect(String(tokens.body.scope).split(' ').sort()).toEqual([...ROLE_SCOPES.trainer].sort());
  });

  it('refuses an unknown scope at the token endpoint', async () => {
    const sentWithCode = await login({ scope: 'openid' }, { scope: 'bogus' });
    expect(sentWithCode.status).toBe(400);
    expect(sentWithCode.body.error).toBe('invalid_scope');

    const tokens = await login({ scope: 'openid personal:read' });
    const refresh = (scope: string) =>
      postToken(sandbox.tokenUrl, {
        grant_type: 'refresh_token',
        refresh_token: String(tokens.body.refresh_token),
        client_id: PUBLIC_CLIENT_ID,
        scope,
      });
    const unknown = await refresh('openid nonsense:read');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'invalid_scope' });
    expect(String(unknown.body.error_description)).toContain('Unknown scope: nonsense:read');
    // A known one outside the grant is refused too (never widened).
    expect((await refresh('personal:add')).body.error).toBe('invalid_scope');
    // A subset is granted.
    expect((await refresh('personal:read')).body.scope).toBe('personal:read');
  });

  it('answers userinfo only for tokens with openid', async () => {
    const office = user('office');
    const without = await fetch(`${sandbox.origin}/oauth/v1/userinfo`, {
      headers: {
        authorization: `Bearer ${sandbox.auth.issueAccessToken(office.id, { scope: 'profile' })}`,
      },
    });
    expect(without.status).toBe(403);
    expect(await without.json()).toMatchObject({ error: 'insufficient_scope' });
    const withOpenid = await fetch(`${sandbox.origin}/oauth/v1/userinfo`, {
      headers: { authorization: `Bearer ${office.accessToken}` },
    });
    expect(withOpenid.status).toBe(200);
  });
});

describe('ID token', () => {
  it('comes only with openid', async () => {
    const tokens = await login({ scope: 'profile personal/selbst:read' });
    expect(tokens.status).toBe(200);
    expect(tokens.body).not.toHaveProperty('id_token');
  });

  it('is RS256-signed with the JWKS key and carries iss, sub, aud, exp, iat and the nonce', async () => {
    const office = user('office');
    const before = Math.floor(Date.now() / 1000);
    const tokens = await login({
      scope: 'openid profile',
      nonce: 'n-0S6_WzA2Mj',
      login_hint: office.id,
    });
    expect(tokens.body.id_token).toBeTypeOf('string');
    const { payload, protectedHeader } = await verify(tokens.body.id_token);
    expect(protectedHeader.alg).toBe('RS256');
    expect(sandbox.issuer).toBe(`${sandbox.origin}/oauth/v1`);
    expect(payload).toMatchObject({
      iss: sandbox.issuer,
      sub: office.id,
      aud: PUBLIC_CLIENT_ID,
      nonce: 'n-0S6_WzA2Mj',
    });
    expect(payload.iat).toBeGreaterThanOrEqual(before - 1);
    expect(payload.exp).toBe((payload.iat ?? 0) + 3600);

    const jwks = await fetch(sandbox.jwksUrl);
    expect(jwks.status).toBe(200);
    expect(jwks.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    const { keys } = (await jwks.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256' });
    expect(keys[0]).not.toHaveProperty('d');
    expect(keys[0]?.kid).toBe(decodeProtectedHeader(String(tokens.body.id_token)).kid);
  });

  it('has no nonce when the request had none, nor on refresh', async () => {
    const tokens = await login({ scope: 'openid', nonce: 'first' });
    const refreshed = await postToken(sandbox.tokenUrl, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.body.refresh_token),
      client_id: PUBLIC_CLIENT_ID,
    });
    expect(refreshed.status).toBe(200);
    const { payload } = await verify(refreshed.body.id_token);
    expect(payload).not.toHaveProperty('nonce');
    expect(payload.sub).toBe((await verify(tokens.body.id_token)).payload.sub);

    const plain = await login({ scope: 'openid' });
    expect((await verify(plain.body.id_token)).payload).not.toHaveProperty('nonce');

    // The first refresh rotated the refresh token.
    const narrowed = await postToken(sandbox.tokenUrl, {
      grant_type: 'refresh_token',
      refresh_token: String(refreshed.body.refresh_token),
      client_id: PUBLIC_CLIENT_ID,
      scope: 'openid',
    });
    expect(narrowed.body.id_token).toBeTypeOf('string');
  });

  it('is refused by a verifier with another key or audience', async () => {
    const tokens = await login({ scope: 'openid' });
    await expect(
      jwtVerify(String(tokens.body.id_token), createRemoteJWKSet(new URL(sandbox.jwksUrl)), {
        issuer: sandbox.issuer,
        audience: 'someone-else',
      }),
    ).rejects.toThrow();
    const other = await startSandbox({ scale: 'small', seed: 3 });
    try {
      await expect(
        jwtVerify(String(tokens.body.id_token), createRemoteJWKSet(new URL(other.jwksUrl))),
      ).rejects.toThrow();
    } finally {
      await other.close();
    }
  });
});
