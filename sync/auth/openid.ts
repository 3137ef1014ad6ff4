// An openid-client Configuration for an account, built from its settings' explicit endpoints
// (the real service publishes no discovery document). A public client (no secret) logs in
// with PKCE alone (token_endpoint_auth_method none); a confidential one sends its secret as
// form fields (client_secret_post), as the real service's clients do. Plain http is allowed
// only for loopback hosts (the sandbox, a local proxy): anywhere else a token would travel
// in clear text.
import * as client from 'openid-client';
import { isLoopbackHostname } from '../contract';
import { resolveAccountSettings, type AccountSettings } from './account';

export class InsecureEndpointError extends Error {
  constructor(
    readonly setting: string,
    readonly url: string,
  ) {
    super(
      `The ${setting} ${url} uses plain http; only https is allowed, except on this machine ` +
        '(127.0.0.1, localhost, [::1]).',
    );
    this.name = 'InsecureEndpointError';
  }
}

/** 127.0.0.0/8, localhost and [::1]: the contract's one definition (the account form's). */
export const isLoopbackHost = isLoopbackHostname;

/** true when the URL is plain http on a loopback host; throws for plain http elsewhere. */
function checkTransport(setting: string, url: string): boolean {
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return false;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return true;
  throw new InsecureEndpointError(setting, url);
}

export function openidConfiguration(settings: AccountSettings): client.Configuration {
  const account = resolveAccountSettings(settings);
  const endpoints = {
    'authorization endpoint': account.authorizationUrl,
    'token endpoint': account.tokenUrl,
    'user-info endpoint': account.userinfoUrl,
    'JWKS address': account.jwksUrl,
  };
  let insecure = false;
  for (const [setting, url] of Object.entries(endpoints)) {
    if (checkTransport(setting, url)) insecure = true;
  }
  const server: client.ServerMetadata = {
    issuer: account.issuer,
    authorization_endpoint: account.authorizationUrl,
    token_endpoint: account.tokenUrl,
    userinfo_endpoint: account.userinfoUrl,
    jwks_uri: account.jwksUrl,
    code_challenge_methods_supported: ['S256'],
    id_token_signing_alg_values_supported: ['RS256'],
  };
  const confidential = account.clientSecret !== undefined;
  const config = new client.Configuration(
    server,
    account.clientId,
    {
      token_endpoint_auth_method: confidential ? 'client_secret_post' : 'none',
      id_token_signed_response_alg: 'RS256',
    },
    confidential ? client.ClientSecretPost(account.clientSecret) : client.None(),
  );
  // Applies to every endpoint of the configuration, hence only when all http ones are loopback.
  if (insecure) client.allowInsecureRequests(config);
  return config;
}
