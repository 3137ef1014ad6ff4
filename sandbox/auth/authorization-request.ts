// Checks an authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636). The order matters:
// until client_id and redirect_uri are known to be good, an error must not be sent to the
// redirect URI (it could be an attacker's), so those failures become an error page (§4.1.2.1).
import type { ClientRegistry, RegisteredClient } from './clients';
import type { Parameters } from './params';
import { isS256Challenge } from './pkce';
import { splitScope, unknownScopes } from './scopes';

/** RFC 6749 §3.3: space-separated tokens of printable ASCII except `"` and `\`. */
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/;

export interface AuthorizationRequest {
  client: RegisteredClient;
  redirectUri: string;
  state: string | undefined;
  /** The requested scopes; undefined when none were named (then all the role may use are granted). */
  scope: readonly string[] | undefined;
  codeChallenge: string | undefined;
  /** OpenID Connect nonce, echoed in the ID token. */
  nonce: string | undefined;
  loginHint: string | undefined;
  /** Every parameter that must survive the round trip through the login form. */
  echoed: ReadonlyArray<readonly [name: string, value: string]>;
}

export type AuthorizationRequestCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  | { kind: 'error-page'; message: string }
  | {
      kind: 'error-redirect';
      redirectUri: string;
      state: string | undefined;
      error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope';
      description: string;
    };

const ECHOED_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'login_hint',
  'nonce',
  'ov',
] as const;

export function checkAuthorizationRequest(
  parameters: Parameters,
  organisationKey: string,
  clients: ClientRegistry,
): AuthorizationRequestCheck {
  for (const name of ['client_id', 'redirect_uri'] as const) {
    if (parameters.repeated.includes(name)) {
      return { kind: 'error-page', message: `Der Parameter ${name} wurde mehrfach gesendet.` };
    }
  }
  const clientId = parameters.get('client_id');
  if (clientId === undefined)
    return { kind: 'error-page', message: 'Der Parameter client_id fehlt.' };
  const client = clients.find(clientId);
  if (!client)
    return { kind: 'error-page', message: `Die Anwendung „${clientId}“ ist nicht registriert.` };
  const redirectUri = parameters.get('redirect_uri');
  if (redirectUri === undefined)
    return { kind: 'error-page', message: 'Der Parameter redirect_uri fehlt.' };
  if (!client.acceptsRedirectUri(redirectUri)) {
    return {
      kind: 'error-page',
      message: `Die Weiterleitungsadresse „${redirectUri}“ ist für „${client.id}“ nicht zugelassen.`,
    };
  }

  const ov = parameters.get('ov');
  if (ov !== undefined && ov.toLowerCase() !== organisationKey.toLowerCase()) {
    return { kind: 'error-page', message: `Die Organisation „${ov}“ ist hier nicht bekannt.` };
  }

  const state = parameters.repeated.includes('state') ? undefined : parameters.get('state');
  const fail = (
    error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope',
    description: string,
  ): AuthorizationRequestCheck => ({
    kind: 'error-redirect',
    redirectUri,
    state,
    error,
    description,
  });

  if (parameters.repeated.length > 0) {
    return fail(
      'invalid_request',
      `Parameters sent more than once: ${parameters.repeated.join(', ')}`,
    );
  }
  const responseType = parameters.get('response_type');
  if (responseType === undefined) return fail('invalid_request', 'response_type is missing');
  if (responseType !== 'code') {
    return fail('unsupported_response_type', 'Only response_type=code is supported');
  }

  const codeChallenge = parameters.get('code_challenge');
  const method = parameters.get('code_challenge_method');
  if (codeChallenge === undefined) {
    if (client.secret === undefined) {
      return fail(
        'invalid_request',
        `PKCE is required for ${client.id}: send code_challenge with S256`,
      );
    }
    if (method !== undefined)
      return fail('invalid_request', 'code_challenge_method without code_challenge');
  } else {
    // RFC 7636 §4.3: an absent method means "plain", which is refused like an explicit one.
    if (method !== 'S256')
      return fail('invalid_request', 'Transform algorithm not supported: use S256');
    if (!isS256Challenge(codeChallenge)) {
      return fail('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
    }
  }

  const scopeParameter = parameters.get('scope');
  if (scopeParameter !== undefined && !SCOPE.test(scopeParameter))
    return fail('invalid_scope', 'scope is malformed');
  const scope = scopeParameter === undefined ? undefined : splitScope(scopeParameter);
  const unknown = unknownScopes(scope ?? []);
  if (unknown.length > 0) return fail('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);

  const echoed = ECHOED_PARAMETERS.flatMap((name) => {
    const value = parameters.get(name);
    return value === undefined ? [] : [[name, value] as const];
  });
  return {
    kind: 'valid',
    request: {
      client,
      redirectUri,
      state,
      scope,
      codeChallenge,
      nonce: parameters.get('nonce'),
      loginHint: parameters.get('login_hint'),
      echoed,
    },
  };
}

/** Appends the answer to the redirect URI, keeping any query it already has (RFC 6749 §3.1.2). */
export function redirectWith(
  redirectUri: string,
  answer: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) {
    if (value !== undefined) url.searchParams.append(name, value);
  }
  return url.toString();
}
