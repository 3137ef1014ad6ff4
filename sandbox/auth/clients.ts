// The OAuth clients the sandbox knows, how their redirect URIs are checked and how they
// authenticate at the token endpoint. The real service registers clients by hand at the
// vendor; the sandbox registers two fixed ones.
import { createHash, timingSafeEqual } from 'node:crypto';
import { CONFIDENTIAL_CLIENT_ID, CONFIDENTIAL_CLIENT_SECRET, PUBLIC_CLIENT_ID } from './types';
import type { Parameters } from './params';

export interface RegisteredClient {
  id: string;
  /** Shown on the login page. */
  displayName: string;
  /** A public client has no secret and must use PKCE; a confidential one authenticates with its secret. */
  secret: string | undefined;
  acceptsRedirectUri(uri: string): boolean;
}

/** The exact redirect URIs of the confidential client (RFC 6749 §3.1.2: compared as strings). */
export const CONFIDENTIAL_REDIRECT_URIS: readonly string[] = ['http://127.0.0.1/callback'];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * RFC 8252 §7.3: a native app listens on a loopback port chosen at run time, so any port (and
 * any path) on a loopback host is accepted for the public client. No fragment (RFC 6749 §3.1.2)
 * and no user-info part, which could disguise the host.
 */
function isLoopbackRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    LOOPBACK_HOSTS.has(url.hostname) &&
    url.username === '' &&
    url.password === '' &&
    !uri.includes('#')
  );
}

const CLIENTS: readonly RegisteredClient[] = [
  {
    id: PUBLIC_CLIENT_ID,
    displayName: 'Vorort (Desktop)',
    secret: undefined,
    acceptsRedirectUri: isLoopbackRedirect,
  },
  {
    id: CONFIDENTIAL_CLIENT_ID,
    displayName: 'Vorort (Server)',
    secret: CONFIDENTIAL_CLIENT_SECRET,
    acceptsRedirectUri: (uri) => CONFIDENTIAL_REDIRECT_URIS.includes(uri),
  },
];

export function findClient(clientId: string | undefined): RegisteredClient | undefined {
  return CLIENTS.find((client) => client.id === clientId);
}

export type ClientAuthentication =
  | { ok: true; client: RegisteredClient }
  | { ok: false; error: 'invalid_client' | 'invalid_request'; description: string };

interface BasicCredentials {
  clientId: string;
  secret: string;
}

/** RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined and base64-encoded. */
function parseBasicCredentials(header: string): BasicCredentials | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return { clientId: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/** Compares digests so the comparison takes the same time whatever the guess. */
function secretsEqual(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Identifies and authenticates the client of a token request: client_secret_post (what the
 * real service's clients use), HTTP Basic, or only client_id for the public client.
 */
export function authenticateClient(
  parameters: Parameters,
  authorizationHeader: string | undefined,
): ClientAuthentication {
  let clientId = parameters.get('client_id');
  let secret = parameters.get('client_secret');
  if (authorizationHeader !== undefined) {
    const basic = parseBasicCredentials(authorizationHeader);
    if (!basic) {
      return {
        ok: false,
        error: 'invalid_client',
        description: 'Malformed Basic authorization header',
      };
    }
    if (secret !== undefined) {
      return {
        ok: false,
        error: 'invalid_request',
        description: 'Use one client authentication method, not Basic and client_secret together',
      };
    }
    if (clientId !== undefined && clientId !== basic.clientId) {
      return {
        ok: false,
        error: 'invalid_request',
        description: 'client_id differs from the Basic credentials',
      };
    }
    clientId = basic.clientId;
    secret = basic.secret;
  }
  if (clientId === undefined) {
    return { ok: false, error: 'invalid_client', description: 'client_id is missing' };
  }
  const client = findClient(clientId);
  if (!client) {
    return { ok: false, error: 'invalid_client', description: `Unknown client ${clientId}` };
  }
  if (client.secret === undefined) {
    return secret === undefined
      ? { ok: true, client }
      : {
          ok: false,
          error: 'invalid_client',
          description: `${client.id} is a public client and has no secret`,
        };
  }
  if (secret === undefined) {
    return {
      ok: false,
      error: 'invalid_client',
      description: `${client.id} must authenticate with its client_secret`,
    };
  }
  return secretsEqual(secret, client.secret)
    ? { ok: true, client }
    : { ok: false, error: 'invalid_client', description: 'Wrong client_secret' };
}
