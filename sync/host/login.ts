// The login of a native app (RFC 8252): authorization code with PKCE S256 and `state` through
// openid-client, in the system browser, answered on a loopback listener of this computer
// (http://127.0.0.1:<random port>/callback) that closes once it has the answer. Plain http is
// allowed for loopback endpoints only (the embedded sandbox); anywhere else https.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import type { AccountInfo } from '../contract';
import { isLoopbackHostname } from '../contract';
import { CoreFailure } from '../core-error';

/** How long the browser has for the login before it is cancelled. */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Milliseconds since the epoch, when the answer said (expires_in). */
  expiresAt?: number;
  /** The scopes granted (space-separated), when the answer named them. */
  scope?: string;
}

/** Where authorize, token and userinfo live: the authorization URL less its `/authorize`. */
export function oauthBaseOf(authUrl: string): string {
  const url = new URL(authUrl);
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/authorize')
    ? path.slice(0, -'/authorize'.length)
    : path.replace(/\/[^/]*$/, '');
  return url.href.replace(/\/+$/, '');
}

/** An openid-client configuration from the account's explicit endpoints (no discovery document). */
export function oauthConfiguration(account: AccountInfo): client.Configuration {
  const base = oauthBaseOf(account.authUrl);
  const endpoints = [account.authUrl, account.tokenUrl, `${base}/userinfo`];
  let insecure = false;
  for (const endpoint of endpoints) {
    const url = new URL(endpoint);
    if (url.protocol === 'https:') continue;
    if (url.protocol === 'http:' && isLoopbackHostname(url.hostname)) insecure = true;
    else
      throw new CoreFailure('login_failed', {
        de: `Die Adresse ${endpoint} ist unverschlüsselt (http): erlaubt nur auf diesem Computer.`,
        en: `The address ${endpoint} is not encrypted (http): allowed only on this computer.`,
      });
  }
  const config = new client.Configuration(
    {
      issuer: base,
      authorization_endpoint: account.authUrl,
      token_endpoint: account.tokenUrl,
      userinfo_endpoint: `${base}/userinfo`,
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
    },
    account.clientId,
    { token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'RS256' },
    client.None(),
  );
  // Applies to every endpoint of the configuration, hence only when all http ones are loopback.
  if (insecure) client.allowInsecureRequests(config);
  return config;
}

export function tokenSetOf(answer: client.TokenEndpointResponse, now: number): TokenSet {
  return {
    accessToken: answer.access_token,
    ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}),
    ...(typeof answer.expires_in === 'number' ? { expiresAt: now + answer.expires_in * 1000 } : {}),
    ...(typeof answer.scope === 'string' ? { scope: answer.scope } : {}),
  };
}

export interface LoopbackLoginInput {
  account: AccountInfo;
  /** Opens the authorization URL: the system browser (or, for the demo, a GET following redirects). */
  openExternal(url: string): Promise<void>;
  signal?: AbortSignal;
  timeoutMs?: number;
  now?: () => number;
  /** Which account to sign in (OpenID Connect's login_hint): the demo's trainer, say. */
  loginHint?: string;
}

const CANCELLED = new CoreFailure('cancelled', {
  de: 'Die Anmeldung wurde abgebrochen.',
  en: 'The login was cancelled.',
});

const TIMED_OUT = new CoreFailure('cancelled', {
  de: 'Die Anmeldung hat zu lange gedauert (5 Minuten) und wurde abgebrochen. Bitte erneut versuchen.',
  en: 'The login took too long (5 minutes) and was cancelled. Please try again.',
});

/** Signs in through the browser and answers the tokens; a CoreFailure (login_failed, cancelled) otherwise. */
export async function loopbackLogin(input: LoopbackLoginInput): Promise<TokenSet> {
  const config = oauthConfiguration(input.account);
  const verifier = client.randomPKCECodeVerifier();
  const challenge = await client.calculatePKCECodeChallenge(verifier);
  const state = client.randomState();
  const now = input.now ?? Date.now;

  let finish!: (outcome: { tokens: TokenSet } | { error: CoreFailure }) => void;
  const done = new Promise<{ tokens: TokenSet } | { error: CoreFailure }>((resolve) => {
    finish = resolve;
  });
  let settled = false;
  const settle = (outcome: { tokens: TokenSet } | { error: CoreFailure }) => {
    if (settled) return;
    settled = true;
    finish(outcome);
  };

  const server = createServer((request, response) => {
    let url: URL;
    try {
      url = new URL(request.url ?? '/', redirectUri);
    } catch {
      // A path no URL can be made of (`//`, `/\`): any local program may send one.
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request');
      return;
    }
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (settled) {
      page(response, 410, 'done');
      return;
    }
    // An answer without this login's state is not the service's (any page can send a request
    // here): refused on its own, and the login goes on waiting for the real one.
    if (url.searchParams.get('state') !== state) {
      page(response, 400, 'refused');
      return;
    }
    void (async () => {
      const error = url.searchParams.get('error');
      if (error !== null) {
        const words = url.searchParams.get('error_description') ?? error;
        page(response, 400, 'refused');
        settle({
          error:
            error === 'access_denied'
              ? new CoreFailure('cancelled', {
                  de: `Die Anmeldung wurde abgelehnt (${words}).`,
                  en: `The login was declined (${words}).`,
                })
              : new CoreFailure('login_failed', {
                  de: `Der Dienst hat die Anmeldung abgelehnt: ${words}`,
                  en: `The service refused the login: ${words}`,
                }),
        });
        return;
      }
      try {
        const answer = await client.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: verifier,
          expectedState: state,
        });
        page(response, 200, 'ok');
        settle({ tokens: tokenSetOf(answer, now()) });
      } catch (caught) {
        page(response, 400, 'refused');
        settle({ error: loginFailure(caught) });
      }
    })();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUri = `http://127.0.0.1:${port}/callback`;

  const timer = setTimeout(() => settle({ error: TIMED_OUT }), input.timeoutMs ?? LOGIN_TIMEOUT_MS);
  const onAbort = () => settle({ error: CANCELLED });
  if (input.signal?.aborted) onAbort();
  input.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
      ...(input.loginHint ? { login_hint: input.loginHint } : {}),
    });
    if (!settled)
      input.openExternal(authorizationUrl.href).catch((error: unknown) =>
        settle({
          error: new CoreFailure('login_failed', {
            de: `Der Browser ließ sich nicht öffnen: ${String((error as Error)?.message ?? error)}`,
            en: `The browser could not be opened: ${String((error as Error)?.message ?? error)}`,
          }),
        }),
      );
    const outcome = await done;
    if ('error' in outcome) throw outcome.error;
    return outcome.tokens;
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      // A browser may keep its connection open: the page was sent, nothing more is owed.
      setTimeout(() => server.closeAllConnections(), 1000).unref();
    });
  }
}

/** The service's refusal (or an unusable answer) in words. */
export function loginFailure(error: unknown): CoreFailure {
  if (error instanceof CoreFailure) return error;
  if (error instanceof client.ResponseBodyError) {
    const words = error.error_description ?? error.error;
    return new CoreFailure('login_failed', {
      de: `Der Dienst hat die Anmeldung abgelehnt: ${words}`,
      en: `The service refused the login: ${words}`,
    });
  }
  const text = error instanceof Error ? error.message : String(error);
  return new CoreFailure('login_failed', {
    de: `Die Anmeldung ist fehlgeschlagen: ${text}`,
    en: `The login failed: ${text}`,
  });
}

const PAGES = {
  ok: {
    title: 'Angemeldet – Signed in',
    de: 'Sie sind bei Vorort angemeldet. Sie können dieses Fenster schließen.',
    en: 'You are signed in to Vorort. You can close this window.',
  },
  refused: {
    title: 'Anmeldung fehlgeschlagen – Login failed',
    de: 'Die Anmeldung ist fehlgeschlagen; Vorort sagt, warum. Sie können dieses Fenster schließen.',
    en: 'The login failed; Vorort says why. You can close this window.',
  },
  done: {
    title: 'Vorort',
    de: 'Diese Anmeldung ist schon abgeschlossen. Sie können dieses Fenster schließen.',
    en: 'This login is already finished. You can close this window.',
  },
} as const;

/** A short page for the browser, German first; nothing of the request is echoed. */
function page(response: ServerResponse, status: number, kind: keyof typeof PAGES): void {
  const words = PAGES[kind];
  const html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>${words.title}</title></head><body><p>${words.de}</p><p lang="en">${words.en}</p></body></html>`;
  response
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'",
      'referrer-policy': 'no-referrer',
      connection: 'close',
    })
    .end(html);
}
