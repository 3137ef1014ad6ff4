// The login against the sandbox's OAuth endpoints over real HTTP: code + PKCE through the
// loopback listener (the test plays the browser), refresh (with and without a new refresh
// token), a wrong state refused, a revoked refresh token ending the login, the time-out, and the
// file-based secret store's mode.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import type { AccountInfo } from '../contract';
import type { CoreFailure } from '../core-error';
import { fileSecretStore } from './files';
import { loopbackLogin, oauthBaseOf, oauthConfiguration } from './login';
import { HostTokens, readStoredTokens } from './tokens';

let sandbox: RunningSandbox;
let account: AccountInfo;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', prefix: '/core/v1', autoApprove: true });
  account = {
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    tokenUrl: sandbox.tokenUrl,
    clientId: sandbox.clientId,
    demo: false,
  };
  dir = mkdtempSync(join(tmpdir(), 'vorort-login-'));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The browser: follows the sandbox's redirects (it approves by itself) to the listener. */
const browser =
  (seen: string[] = [], pages: Promise<string>[] = []) =>
  async (url: string): Promise<void> => {
    seen.push(url);
    const page = fetch(url, { redirect: 'follow' }).then((response) => response.text());
    pages.push(page);
    await page;
  };

const ownRecord = (token: string) =>
  fetch(`${sandbox.baseUrl}/personal/selbst`, { headers: { authorization: `Bearer ${token}` } });

describe('login through the loopback listener', () => {
  it('signs in with code + PKCE S256 + state on 127.0.0.1 and a random port, answering the browser in German and English', async () => {
    const seen: string[] = [];
    const pages: Promise<string>[] = [];
    const tokens = await loopbackLogin({ account, openExternal: browser(seen, pages) });
    const page = await pages[0];
    expect(tokens.accessToken).toBeTypeOf('string');
    expect(tokens.refreshToken).toBeTypeOf('string');
    expect(tokens.expiresAt).toBeGreaterThan(Date.now());
    const request = new URL(seen[0] ?? '');
    expect(request.searchParams.get('code_challenge_method')).toBe('S256');
    expect(request.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(request.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(request.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
    );
    expect(page).toContain('Sie können dieses Fenster schließen');
    expect(page).toContain('You can close this window');
    expect((await ownRecord(tokens.accessToken)).status).toBe(200);
    // The listener is closed once it has the answer.
    await expect(fetch(request.searchParams.get('redirect_uri') ?? '')).rejects.toThrow();
  });

  it('refuses answers that are not this login’s (wrong or no state, an error without state, a path no URL can be made of) and still takes the real one', async () => {
    const tokens = await loopbackLogin({
      account,
      openExternal: async (url) => {
        const redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
        const origin = new URL(redirect).origin;
        for (const forged of [
          `${redirect}?code=stolen&state=forged`,
          `${redirect}?code=stolen`,
          `${redirect}?error=server_error&error_description=Bitte%200800-123%20anrufen`,
        ]) {
          const answer = await fetch(forged);
          expect(answer.status, forged).toBe(400);
          expect(await answer.text()).toContain('Sie können dieses Fenster schließen');
        }
        // A request line whose path is `//`: the listener answers 400 and lives on.
        const raw = await new Promise<string>((resolve, reject) => {
          const socket = connect(Number(new URL(origin).port), '127.0.0.1', () =>
            socket.end('GET // HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
          );
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
        });
        expect(raw).toMatch(/^HTTP\/1\.1 400/);
        // The real answer still arrives and is taken.
        await browser()(url);
      },
    });
    expect((await ownRecord(tokens.accessToken)).status).toBe(200);
  });

  it('cancels after its time-out', async () => {
    const error = await loopbackLogin({
      account,
      openExternal: async () => {},
      timeoutMs: 50,
    }).catch((caught: unknown) => caught);
    expect((error as CoreFailure).code).toBe('cancelled');
    expect((error as CoreFailure).messages.de).toContain('zu lange');
  });

  it('refuses plain http to a host that is not this computer', () => {
    expect(() =>
      oauthConfiguration({ ...account, tokenUrl: 'http://example.org/oauth/v1/token' }),
    ).toThrow(/not encrypted/);
    expect(oauthBaseOf('https://api.hiorg-server.de/oauth/v1/authorize')).toBe(
      'https://api.hiorg-server.de/oauth/v1',
    );
  });
});

describe('tokens', () => {
  it('refreshes silently, keeping the old refresh token when the answer has none, and stores them 0600', async () => {
    const path = join(dir, 'secrets.json');
    const secrets = fileSecretStore(path);
    const initial = await loopbackLogin({ account, openExternal: browser() });
    await HostTokens.save(secrets, account, initial);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const revoked: unknown[] = [];
    const keeper = new HostTokens({
      account,
      secrets,
      initial,
      onRevoked: (why) => revoked.push(why),
    });
    // The sandbox rotates on the first refresh and answers without a refresh token on the second.
    const first = await keeper.refreshAccessToken();
    expect(first).not.toBe(initial.accessToken);
    const rotated = keeper.currentRefreshToken;
    expect(rotated).not.toBe(initial.refreshToken);
    const second = await keeper.refreshAccessToken();
    expect(second).not.toBe(first);
    expect(keeper.currentRefreshToken).toBe(rotated);
    expect((await ownRecord(second ?? '')).status).toBe(200);
    const stored = await readStoredTokens(secrets, account);
    expect(stored?.refreshToken).toBe(rotated);
    expect(stored?.accessToken).toBe(second);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // And the third refresh works with the kept one.
    expect(await keeper.refreshAccessToken()).toBeTypeOf('string');
    expect(revoked).toEqual([]);
    // Another account's tokens are not read as this one's.
    expect(await readStoredTokens(secrets, { ...account, clientId: 'other' })).toBeNull();
  });

  it('a refresh the service refuses (revoked: invalid_grant) ends the login with words', async () => {
    const secrets = fileSecretStore(join(dir, 'revoked.json'));
    const initial = await loopbackLogin({ account, openExternal: browser() });
    const revoked: { de: string; en: string }[] = [];
    const keeper = new HostTokens({
      account,
      secrets,
      initial,
      onRevoked: (why) => revoked.push(why),
    });
    sandbox.auth.revokeLogins();
    expect(await keeper.refreshAccessToken()).toBeNull();
    expect(revoked).toHaveLength(1);
    expect(revoked[0]?.en).toContain('sign in again');
    expect(revoked[0]?.de).toContain('melden Sie sich neu an');
    expect(await keeper.refreshAccessToken()).toBeNull();
    expect(revoked).toHaveLength(1);
  });

  it('the file secret store writes atomically with mode 0600 and clears', async () => {
    const path = join(dir, 'store', 'secret.json');
    const store = fileSecretStore(path);
    expect(await store.read()).toBeNull();
    await store.write('geheim');
    expect(await store.read()).toBe('geheim');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await store.write('neu');
    expect(await store.read()).toBe('neu');
    await store.clear();
    expect(await store.read()).toBeNull();
  });
});
