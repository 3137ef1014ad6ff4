// The OAuth clients the sandbox knows, how their redirect URIs are checked and how they
// authenticate at the token endpoint. The real service registers clients by hand at the
// vendor; the sandbox registers two fixed ones, and those given for a run (startSandbox's
// `clients`, `vorort sandbox --register-client`): a client of the real service signs in here
// with its own id, secret and redirect addresses.
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

const BUILT_IN_CLIENTS: readonly RegisteredClient[] = [
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

/** A client registered for one run of the sandbox. */
export interface ClientRegistration {
  id: string;
  /** With a secret the client is confidential; without, public (PKCE S256 required). */
  secret?: string;
  /**
   * Its redirect URIs, compared as strings (RFC 6749 §3.1.2); on a loopback IP address any port
   * (RFC 8252 §7.3).
   */
  redirectUris: readonly string[];
  /** Shown on the login page; default: the id. */
  name?: string;
}

/** RFC 6749 Appendix A: a client id is printable ASCII. */
const CLIENT_ID = /^[\x20-\x7E]+$/;

/**
 * Checks one registration against those before it; throws a RangeError that says what is
 * wrong (startSandbox and `--register-client` refuse it before anything starts).
 */
export function checkRegistration(
  registration: ClientRegistration,
  earlier: readonly ClientRegistration[] = [],
): void {
  const { id, secret, redirectUris } = registration;
  if (!CLIENT_ID.test(id))
    throw new RangeError('A registered client id must be printable ASCII, not empty.');
  if ([...BUILT_IN_CLIENTS, ...earlier].some((client) => client.id === id))
    throw new RangeError(`The client id "${id}" is registered already.`);
  if (secret !== undefined && !CLIENT_ID.test(secret))
    throw new RangeError(`The secret of client "${id}" must be printable ASCII, not empty.`);
  if (redirectUris.length === 0)
    throw new RangeError(`Client "${id}" needs at least one redirect URI.`);
  for (const uri of redirectUris) {
    if (!URL.canParse(uri))
      throw new RangeError(`The redirect URI "${uri}" of client "${id}" must be absolute.`);
    if (uri.includes('#'))
      throw new RangeError(
        `The redirect URI "${uri}" of client "${id}" must not have a fragment (RFC 6749 §3.1.2).`,
      );
  }
}

/** Checks every registration (see checkRegistration). */
export function checkRegistrations(registrations: readonly ClientRegistration[]): void {
  registrations.forEach((registration, index) =>
    checkRegistration(registration, registrations.slice(0, index)),
  );
}

/** A loopback IP address in an http redirect URI: its port may differ (RFC 8252 §7.3). */
function withoutLoopbackPort(uri: string): string {
  const url = new URL(uri);
  if (url.protocol !== 'http:' || !['127.0.0.1', '[::1]'].includes(url.hostname)) return uri;
  url.port = '';
  return url.href;
}

function registeredClient(registration: ClientRegistration): RegisteredClient {
  const accepted = new Set(registration.redirectUris.map(withoutLoopbackPort));
  return {
    id: registration.id,
    displayName: registration.name ?? registration.id,
    secret: registration.secret,
    acceptsRedirectUri: (uri) =>
      URL.canParse(uri) && !uri.includes('#') && accepted.has(withoutLoopbackPort(uri)),
  };
}

/** The clients of one sandbox: the built-in ones and those registered for the run. */
export class ClientRegistry {
  private readonly clients: readonly RegisteredClient[];

  constructor(registrations: readonly ClientRegistration[] = []) {
    checkRegistrations(registrations);
    this.clients = [...BUILT_IN_CLIENTS, ...registrations.map(registeredClient)];
  }

  find(clientId: string | undefined): RegisteredClient | undefined {
    return this.clients.find((client) => client.id === clientId);
  }

  /**
   * Identifies and authenticates the client of a token request: client_secret_post (what the
   * real service's clients use), HTTP Basic, or only client_id for a public client.
   */
  authenticate(
    parameters: Parameters,
    authorizationHeader: string | undefined,
  ): ClientAuthentication {
    return authenticateClient(this, parameters, authorizationHeader);
  }
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

function authenticateClient(
  clients: ClientRegistry,
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
  const client = clients.find(clientId);
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
