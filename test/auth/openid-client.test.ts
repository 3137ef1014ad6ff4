// openid-client, configured by sync/auth from an account's settings, logs in against the
// sandbox: authorization code with PKCE S256, state and nonce; validates the ID token against
// the JWKS; fetches userinfo; refreshes. The browser is replaced by the sandbox's auto-approve.
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { CONFIDENTIAL_CLIENT_ID, CONFIDENTIAL_CLIENT_SECRET } from '../../sandbox/auth/types';
import { resolveAccountSettings } from '../../sync/auth/account';
import { InsecureEndpointError, isLoopbackHost, openidConfiguration } from '../../sync/auth/openid';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 11, autoApprove: true, prefix: '/core/v1' });
});
afterAll(() => sandbox.close());

/** The messages of an error and its causes: openid-client wraps the check that failed. */
async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const messages: string[] = [];
    for (let cause: unknown = error; cause instanceof Error; cause = cause.cause)
      messages.push(cause.message);
    return messages.join(' / ');
  }
  throw new Error('expected the login to fail');
}

/** What the system browser would do: follow the authorize URL to the loopback redirect. */
async function browserTo(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '');
}

describe('openid-client against the sandbox', () => {
  it('completes a code flow with PKCE, state and nonce, validates the ID token and reads userinfo', async () => {
    const config = openidConfiguration({ apiUrl: sandbox.baseUrl, clientId: sandbox.clientId });
    const trainer = sandbox.users.find((user) => user.role === 'trainer')!;
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const redirectUri = 'http://127.0.0.1:49152/callback';
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile personal/selbst:read',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      login_hint: trainer.id,
    });
    const callback = await browserTo(url);
    expect(callback.origin + callback.pathname).toBe(redirectUri);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: sandbox.issuer,
      sub: trainer.id,
      aud: sandbox.clientId,
      nonce,
    });
    expect(tokens.scope).toBe('openid profile personal/selbst:read');

    const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims!.sub);
    expect(userInfo.sub).toBe(trainer.id);
    expect(userInfo.name).toBe(trainer.name);

    const own = await fetch(`${sandbox.baseUrl}/personal/selbst`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(own.status).toBe(200);
    const notGranted = await fetch(`${sandbox.baseUrl}/helferstunden`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(notGranted.status).toBe(403);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()?.sub).toBe(trainer.id);
    expect(refreshed.claims()).not.toHaveProperty('nonce');
  });

  it('fails the flow when the nonce or the state does not match', async () => {
    const config = openidConfiguration({ apiUrl: sandbox.baseUrl, clientId: sandbox.clientId });
    const login = async (checks: { state: string; nonce: string }) => {
      const verifier = client.randomPKCECodeVerifier();
      const callback = await browserTo(
        client.buildAuthorizationUrl(config, {
          redirect_uri: 'http://127.0.0.1:49152/callback',
          scope: 'openid',
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: 'sent-state',
          nonce: 'sent-nonce',
        }),
      );
      return client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
      });
    };
    expect(await failureOf(login({ state: 'sent-state', nonce: 'other' }))).toMatch(/"nonce"/);
    expect(await failureOf(login({ state: 'other', nonce: 'sent-nonce' }))).toMatch(/state/);
  });

  it('refuses an ID token whose issuer is not the configured one', async () => {
    const config = openidConfiguration({
      apiUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      issuer: 'https://api.hiorg-server.de/oauth/v1',
    });
    const verifier = client.randomPKCECodeVerifier();
    const callback = await browserTo(
      client.buildAuthorizationUrl(config, {
        redirect_uri: 'http://127.0.0.1:49152/callback',
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }),
    );
    expect(
      await failureOf(
        client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier }),
      ),
    ).toMatch(/"iss"/);
  });

  it('logs in as the confidential client with client_secret_post', async () => {
    const config = openidConfiguration({
      apiUrl: sandbox.baseUrl,
      clientId: CONFIDENTIAL_CLIENT_ID,
      clientSecret: CONFIDENTIAL_CLIENT_SECRET,
    });
    expect(config.clientMetadata().token_endpoint_auth_method).toBe('client_secret_post');
    const nonce = client.randomNonce();
    const callback = await browserTo(
      client.buildAuthorizationUrl(config, {
        redirect_uri: 'http://127.0.0.1/callback',
        scope: 'openid personal:read',
        nonce,
      }),
    );
    const tokens = await client.authorizationCodeGrant(config, callback, { expectedNonce: nonce });
    expect(tokens.claims()?.aud).toBe(CONFIDENTIAL_CLIENT_ID);
    expect(tokens.scope).toBe('openid personal:read');
  });
});

describe('account settings and transport', () => {
  it('derives every OAuth address from the API URL', () => {
    expect(
      resolveAccountSettings({
        apiUrl: 'https://api.hiorg-server.de/core/v1',
        clientId: 'vorort-desktop',
      }),
    ).toEqual({
      apiUrl: 'https://api.hiorg-server.de/core/v1',
      oauthUrl: 'https://api.hiorg-server.de/oauth/v1',
      authorizationUrl: 'https://api.hiorg-server.de/oauth/v1/authorize',
      tokenUrl: 'https://api.hiorg-server.de/oauth/v1/token',
      userinfoUrl: 'https://api.hiorg-server.de/oauth/v1/userinfo',
      jwksUrl: 'https://api.hiorg-server.de/oauth/v1/jwks',
      issuer: 'https://api.hiorg-server.de/oauth/v1',
      clientId: 'vorort-desktop',
      clientSecret: undefined,
    });
    const custom = resolveAccountSettings({
      apiUrl: 'https://api.example.org/core/v1',
      oauthUrl: 'https://login.example.org/oauth/v1/',
      jwksUrl: 'https://login.example.org/keys',
      issuer: 'https://login.example.org',
      clientId: 'x',
    });
    expect(custom.tokenUrl).toBe('https://login.example.org/oauth/v1/token');
    expect(custom.jwksUrl).toBe('https://login.example.org/keys');
    expect(custom.issuer).toBe('https://login.example.org');
  });

  it('refuses bad settings', () => {
    expect(() => resolveAccountSettings({ apiUrl: 'ftp://x/core', clientId: 'a' })).toThrow();
    expect(() => resolveAccountSettings({ apiUrl: 'https://x/core', clientId: '' })).toThrow();
  });

  it('allows plain http only on loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['128.0.0.1', '127.0.0.1.nip.io', 'example.org', '[::2]', '10.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);

    expect(() =>
      openidConfiguration({ apiUrl: 'http://127.0.0.1:8787', clientId: 'vorort-desktop' }),
    ).not.toThrow();
    expect(() =>
      openidConfiguration({ apiUrl: 'http://[::1]:8787/core/v1', clientId: 'vorort-desktop' }),
    ).not.toThrow();
    expect(() =>
      openidConfiguration({ apiUrl: 'http://api.example.org/core/v1', clientId: 'vorort-desktop' }),
    ).toThrow(InsecureEndpointError);
    expect(() =>
      openidConfiguration({
        apiUrl: 'https://api.example.org/core/v1',
        jwksUrl: 'http://keys.example.org/jwks',
        clientId: 'vorort-desktop',
      }),
    ).toThrow(/JWKS address http:\/\/keys\.example\.org\/jwks uses plain http/);
    const secure = openidConfiguration({
      apiUrl: 'https://api.example.org/core/v1',
      clientId: 'vorort-desktop',
    });
    expect(secure.serverMetadata()).toMatchObject({
      issuer: 'https://api.example.org/oauth/v1',
      jwks_uri: 'https://api.example.org/oauth/v1/jwks',
    });
    expect(secure.clientMetadata().token_endpoint_auth_method).toBe('none');
  });
});
