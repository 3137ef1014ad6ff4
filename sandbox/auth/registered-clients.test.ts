// Clients registered for one sandbox run (startSandbox's `clients`, `vorort sandbox
// --register-client`): a public client of the real service with its own redirect address signs
// in as it would there; a confidential one with its secret; addresses not registered, and
// registrations that could not work, are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import {
  authorizeUrl,
  fetchNoRedirect,
  pkcePair,
  postToken,
  redirectParameters,
} from './oauth-test-client';
import { PUBLIC_CLIENT_ID } from './types';

const WEB_REDIRECT = 'https://vorort.example.org/hiorg/rueckruf';
const SERVER_REDIRECTS = ['https://app.example.org/a', 'https://app.example.org/b'];

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    scale: 'small',
    seed: 3,
    autoApprove: true,
    clients: [
      { id: 'hiorg-web', redirectUris: [WEB_REDIRECT, 'http://127.0.0.1:3000/hiorg/rueckruf'] },
      { id: 'hiorg-server', secret: 'geheim', redirectUris: SERVER_REDIRECTS, name: 'Dienstplan' },
    ],
  });
});
afterAll(() => sandbox.close());

const authorize = (parameters: Record<string, string>) =>
  fetchNoRedirect(authorizeUrl(`${sandbox.origin}/oauth/v1/authorize`, parameters));

async function ownRecordStatus(accessToken: unknown): Promise<number> {
  const response = await fetch(`${sandbox.baseUrl}/personal/selbst`, {
    headers: { authorization: `Bearer ${String(accessToken)}` },
  });
  return response.status;
}

describe('registered clients', () => {
  it('a public client signs in with PKCE through its own redirect address', async () => {
    const pkce = pkcePair();
    const answer = await authorize({
      response_type: 'code',
      client_id: 'hiorg-web',
      redirect_uri: WEB_REDIRECT,
      state: 's1',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')!.startsWith(`${WEB_REDIRECT}?`)).toBe(true);
    const tokens = await postToken(sandbox.tokenUrl, {
      grant_type: 'authorization_code',
      code: redirectParameters(answer).get('code')!,
      redirect_uri: WEB_REDIRECT,
      client_id: 'hiorg-web',
      code_verifier: pkce.verifier,
    });
    expect(tokens.status).toBe(200);
    expect(await ownRecordStatus(tokens.body.access_token)).toBe(200);
    // Public: PKCE is required, and a secret is refused.
    const withoutPkce = await authorize({
      response_type: 'code',
      client_id: 'hiorg-web',
      redirect_uri: WEB_REDIRECT,
    });
    expect(redirectParameters(withoutPkce).get('error')).toBe('invalid_request');
  });

  it('a confidential client signs in with its secret, at each of its redirect addresses', async () => {
    for (const redirect of SERVER_REDIRECTS) {
      const answer = await authorize({
        response_type: 'code',
        client_id: 'hiorg-server',
        redirect_uri: redirect,
      });
      const code = redirectParameters(answer).get('code')!;
      const exchange = (secret: string) =>
        postToken(sandbox.tokenUrl, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirect,
          client_id: 'hiorg-server',
          client_secret: secret,
        });
      expect((await exchange('falsch')).body.error).toBe('invalid_client');
      const tokens = await exchange('geheim');
      expect(tokens.status).toBe(200);
      expect(await ownRecordStatus(tokens.body.access_token)).toBe(200);
    }
  });

  it('takes a registered loopback address at any port (RFC 8252)', async () => {
    const answer = await authorize({
      response_type: 'code',
      client_id: 'hiorg-web',
      redirect_uri: 'http://127.0.0.1:41234/hiorg/rueckruf',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    expect(answer.status).toBe(302);
    expect(redirectParameters(answer).get('code')).toBeTruthy();
  });

  it('refuses any other redirect address with a page, never a redirect there', async () => {
    for (const [clientId, redirect] of [
      ['hiorg-web', 'https://vorort.example.org/hiorg/rueckruf/'],
      ['hiorg-web', 'https://evil.example.org/hiorg/rueckruf'],
      ['hiorg-server', WEB_REDIRECT],
      ['hiorg-web', 'http://127.0.0.1:41234/anders'],
      ['hiorg-web', 'http://localhost:3000/hiorg/rueckruf'],
    ] as const) {
      const answer = await authorize({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirect,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      });
      expect(answer.status, redirect).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(await answer.text()).toContain('nicht zugelassen');
    }
  });

  it('keeps the built-in clients', async () => {
    const pkce = pkcePair();
    const answer = await authorize({
      response_type: 'code',
      client_id: PUBLIC_CLIENT_ID,
      redirect_uri: 'http://127.0.0.1:53682/callback',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    expect(redirectParameters(answer).get('code')).toBeTruthy();
  });

  it.each([
    [{ id: 'x', redirectUris: [] }, /at least one redirect/],
    [{ id: 'x', redirectUris: ['/hiorg/rueckruf'] }, /absolute/],
    [{ id: 'x', redirectUris: ['https://a.example/cb#frag'] }, /fragment/],
    [{ id: '', redirectUris: [WEB_REDIRECT] }, /client id/],
    [{ id: 'x', secret: '', redirectUris: [WEB_REDIRECT] }, /secret/],
    [{ id: PUBLIC_CLIENT_ID, redirectUris: [WEB_REDIRECT] }, /already/],
  ])('refuses the registration %j', async (client, message) => {
    await expect(startSandbox({ port: 0, clients: [client] })).rejects.toThrow(message);
  });

  it('refuses two registrations of one id', async () => {
    const twice = { id: 'twice', redirectUris: [WEB_REDIRECT] };
    await expect(startSandbox({ port: 0, clients: [twice, twice] })).rejects.toThrow(/already/);
  });
});
