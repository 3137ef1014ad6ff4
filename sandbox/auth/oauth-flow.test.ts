// The whole login over real HTTP against the whole sandbox, as a desktop client does it:
// authorize with PKCE → code → token → userinfo → API calls, refresh, and the refusals a
// strict server owes a wrong client. The API is mounted under /core/v1 (as on the real
// service) to show that OAuth stays at the origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import {
  LOOPBACK_REDIRECT,
  authorizeUrl,
  fetchNoRedirect,
  pkcePair,
  postToken,
  redirectParameters,
  type PkcePair,
} from './oauth-test-client';
import { escapeHtml } from './pages';
import { CONFIDENTIAL_CLIENT_ID, CONFIDENTIAL_CLIENT_SECRET, PUBLIC_CLIENT_ID } from './types';

let sandbox: RunningSandbox;
/** The authorization endpoint, at the origin whatever the API's prefix. */
let authorizeEndpoint: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    scale: 'small',
    seed: 3,
    prefix: '/core/v1',
  });
  authorizeEndpoint = `${sandbox.origin}/oauth/v1/authorize`;
});

afterAll(async () => {
  await sandbox.close();
});

function officeUser() {
  const office = sandbox.users.find((user) => user.role === 'office');
  if (!office) throw new Error('the demo data has no office user');
  return office;
}

function publicRequest(pkce: PkcePair, extra: Record<string, string> = {}): Record<string, string> {
  return {
    response_type: 'code',
    client_id: PUBLIC_CLIENT_ID,
    redirect_uri: LOOPBACK_REDIRECT,
    scope: 'openid profile personal/selbst:read personal:read',
    state: 'xyz-42',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
}

function unescapeHtml(value: string): string {
  const entities: Record<string, string> = {
    '&amp;': '&',
    '&lt;': '<',
    '&gt;': '>',
    '&quot;': '"',
    '&#39;': "'",
  };
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity] ?? entity);
}

/** Shows the login page, then picks the user with the page's own form fields. */
async function loginThroughPage(userId: string, pkce: PkcePair): Promise<string> {
  const page = await (await fetch(authorizeUrl(authorizeEndpoint, publicRequest(pkce)))).text();
  const fields = new URLSearchParams();
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(match[1] ?? '', unescapeHtml(match[2] ?? ''));
  }
  fields.set('user_id', userId);
  const response = await fetchNoRedirect(authorizeEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
  });
  expect(response.status).toBe(303);
  const answer = redirectParameters(response);
  expect(answer.get('state')).toBe('xyz-42');
  return answer.get('code') ?? '';
}

function exchange(code: string, verifier: string, extra: Record<string, string> = {}) {
  return postToken(sandbox.tokenUrl, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: LOOPBACK_REDIRECT,
    client_id: PUBLIC_CLIENT_ID,
    code_verifier: verifier,
    ...extra,
  });
}

function refresh(refreshToken: unknown) {
  return postToken(sandbox.tokenUrl, {
    grant_type: 'refresh_token',
    refresh_token: String(refreshToken),
    client_id: PUBLIC_CLIENT_ID,
  });
}

function ownRecord(accessToken: unknown): Promise<Response> {
  return fetch(`${sandbox.baseUrl}/personal/selbst`, {
    headers: { authorization: `Bearer ${String(accessToken)}` },
  });
}

describe('OAuth against the sandbox', () => {
  it('keeps OAuth at the origin while the API has a path', () => {
    expect(sandbox.baseUrl).toBe(`${sandbox.origin}/core/v1`);
    expect(sandbox.authUrl.startsWith(`${sandbox.origin}/oauth/v1`)).toBe(true);
    expect(sandbox.tokenUrl).toBe(`${sandbox.origin}/oauth/v1/token`);
    expect(sandbox.clientId).toBe(PUBLIC_CLIENT_ID);
  });

  it('renders the demo users on the login page', async () => {
    const response = await fetch(authorizeUrl(authorizeEndpoint, publicRequest(pkcePair())));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="de">');
    for (const user of sandbox.users) {
      expect(html).toContain(escapeHtml(user.name));
      expect(html).toContain(`value="${user.id}"`);
    }
    expect(html).toMatch(/Büro \(office\)/);
    expect(html).toMatch(/Mitglied \(member\)/);
  });

  it('logs in with PKCE: code → token → userinfo → API', async () => {
    const office = officeUser();
    const pkce = pkcePair();
    const tokens = await exchange(await loginThroughPage(office.id, pkce), pkce.verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'openid profile personal/selbst:read personal:read',
    });
    expect(tokens.body.access_token).toBeTypeOf('string');
    expect(tokens.body.refresh_token).toBeTypeOf('string');

    const userInfo = await fetch(`${sandbox.origin}/oauth/v1/userinfo`, {
      headers: { authorization: `Bearer ${String(tokens.body.access_token)}` },
    });
    expect(userInfo.status).toBe(200);
    expect(userInfo.headers.get('content-type')).toMatch(/^application\/json/);
    const claims = (await userInfo.json()) as Record<string, unknown>;
    expect(claims.sub).toBe(office.id);
    expect(claims.name).toBe(office.name);
    for (const claim of [
      'given_name',
      'family_name',
      'preferred_username',
      'email',
      'email_verified',
      'gender',
      'birthdate',
      'phone_number',
      'phone_number_verified',
      'address',
      'updated_at',
      'organisation_key',
      'organisation',
    ]) {
      expect(claims).toHaveProperty(claim);
    }
    expect(claims.updated_at).toBeTypeOf('number');
    expect(claims.organisation_key).not.toBe('');

    const record = await ownRecord(tokens.body.access_token);
    expect(record.status).toBe(200);
    expect(((await record.json()) as { data: { id: string } }).data.id).toBe(office.id);
  });

  it('refreshes; every second refresh answers without a refresh token and the old one stays valid', async () => {
    const pkce = pkcePair();
    const tokens = await exchange(await loginThroughPage(officeUser().id, pkce), pkce.verifier);

    const first = await refresh(tokens.body.refresh_token);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).toBeTypeOf('string');
    expect((await ownRecord(first.body.access_token)).status).toBe(200);
    expect((await refresh(tokens.body.refresh_token)).body.error).toBe('invalid_grant');

    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body).not.toHaveProperty('refresh_token');
    expect((await ownRecord(second.body.access_token)).status).toBe(200);

    const third = await refresh(first.body.refresh_token);
    expect(third.status).toBe(200);
    expect(third.body.refresh_token).toBeTypeOf('string');
  });

  it('revokes the logins through the handle: refresh refused with invalid_grant, access tokens too', async () => {
    const pkce = pkcePair();
    const tokens = await exchange(await loginThroughPage(officeUser().id, pkce), pkce.verifier);
    expect((await ownRecord(tokens.body.access_token)).status).toBe(200);
    expect(sandbox.auth.revokeLogins('no-such-user')).toBe(0);
    expect(sandbox.auth.revokeLogins(officeUser().id)).toBeGreaterThanOrEqual(1);
    const refused = await refresh(tokens.body.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    expect((await ownRecord(tokens.body.access_token)).status).toBe(401);
    // Tokens handed out directly (no login) stay valid.
    expect((await ownRecord(officeUser().accessToken)).status).toBe(200);
    // A new login works again.
    const again = pkcePair();
    const fresh = await exchange(await loginThroughPage(officeUser().id, again), again.verifier);
    expect((await ownRecord(fresh.body.access_token)).status).toBe(200);
  });

  it('refuses a wrong verifier with invalid_grant, and the code is spent', async () => {
    const pkce = pkcePair();
    const code = await loginThroughPage(officeUser().id, pkce);
    const wrong = await exchange(code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    expect(wrong.body.error_description).toBeTypeOf('string');
    expect((await exchange(code, pkce.verifier)).body.error).toBe('invalid_grant');
  });

  it('refuses a code used twice', async () => {
    const pkce = pkcePair();
    const code = await loginThroughPage(officeUser().id, pkce);
    expect((await exchange(code, pkce.verifier)).status).toBe(200);
    const again = await exchange(code, pkce.verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('refuses a redirect_uri other than the authorization request’s', async () => {
    const pkce = pkcePair();
    const code = await loginThroughPage(officeUser().id, pkce);
    const answer = await exchange(code, pkce.verifier, {
      redirect_uri: 'http://127.0.0.1:53683/callback',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_grant');
  });

  it('refuses plain PKCE and a public client without PKCE', async () => {
    const pkce = pkcePair();
    for (const change of [
      { code_challenge_method: 'plain', code_challenge: pkce.verifier },
      { code_challenge: '', code_challenge_method: '' },
    ]) {
      const response = await fetchNoRedirect(
        authorizeUrl(authorizeEndpoint, publicRequest(pkce, change)),
      );
      expect(response.status).toBe(302);
      const answer = redirectParameters(response);
      expect(answer.get('error')).toBe('invalid_request');
      expect(answer.get('state')).toBe('xyz-42');
      expect(answer.get('code')).toBeNull();
    }
  });

  it('lets the confidential client in with its secret and refuses a wrong one', async () => {
    const redirectUri = 'http://127.0.0.1/callback';
    const office = officeUser();
    const form = new URLSearchParams({
      response_type: 'code',
      client_id: CONFIDENTIAL_CLIENT_ID,
      redirect_uri: redirectUri,
      state: 's',
      user_id: office.id,
    });
    const code = async () => {
      const response = await fetchNoRedirect(authorizeEndpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      return redirectParameters(response).get('code') ?? '';
    };
    const tokenRequest = async (secret: string) =>
      postToken(sandbox.tokenUrl, {
        grant_type: 'authorization_code',
        code: await code(),
        redirect_uri: redirectUri,
        client_id: CONFIDENTIAL_CLIENT_ID,
        client_secret: secret,
      });

    const tokens = await tokenRequest(CONFIDENTIAL_CLIENT_SECRET);
    expect(tokens.status).toBe(200);
    expect((await ownRecord(tokens.body.access_token)).status).toBe(200);

    const wrong = await tokenRequest('not-the-secret');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
  });
});

describe('expired access tokens', () => {
  let shortLived: RunningSandbox;

  beforeAll(async () => {
    shortLived = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      scale: 'small',
      seed: 3,
      tokenTtlSeconds: 1,
    });
  });

  afterAll(async () => {
    await shortLived.close();
  });

  it('answers 401 on the API with an "expired" detail once the lifetime has passed', async () => {
    const token = shortLived.auth.issueAccessToken(shortLived.users[0]?.id ?? '');
    const url = `${shortLived.baseUrl}/personal/selbst`;
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const body = (await response.json()) as { errors: { detail: string }[] };
    expect(body.errors[0]?.detail).toMatch(/expired/);
  });
});
