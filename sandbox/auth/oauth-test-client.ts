// What the OAuth tests do as a client: PKCE pairs, authorization requests without following
// redirects, and token requests. Kept apart from the tests so both suites share one client.
import { randomBytes } from 'node:crypto';
import { s256Challenge } from './pkce';

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export function pkcePair(): PkcePair {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
}

/** A loopback redirect as a desktop app would register it (RFC 8252), on a made-up port. */
export const LOOPBACK_REDIRECT = 'http://127.0.0.1:53682/callback';

export function authorizeUrl(authUrl: string, parameters: Record<string, string>): string {
  const url = new URL(authUrl);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.toString();
}

/** Requests without following the redirect, as the browser hands it to the app instead. */
export function fetchNoRedirect(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, redirect: 'manual' });
}

export function redirectParameters(response: Response): URLSearchParams {
  const location = response.headers.get('location');
  if (location === null) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location).searchParams;
}

export interface TokenResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function postToken(
  tokenUrl: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<TokenResponse> {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}
