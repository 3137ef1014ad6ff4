// The sandbox's OAuth 2.0 authorization server: authorize (login page), token, userinfo and
// the ID tokens' JWKS under /oauth/v1/, plus verification of the bearer tokens it issues for
// the API routes. Scopes: sandbox/auth/scopes.ts.
import type { Store } from '../data/store';
import { accountRole } from './accounts';
import { ClientRegistry, type ClientRegistration } from './clients';
import { presentedToken } from './bearer';
import type { AuthContext } from './context';
import { GrantRegistry } from './grants';
import { IdTokenSigner } from './id-token';
import { oauthRoutes } from './routes';
import { ROLE_SCOPES, splitScope, unknownScopes } from './scopes';
import type { AuthResult, AuthService } from './types';

export {
  CONFIDENTIAL_REDIRECT_URIS,
  checkRegistration,
  checkRegistrations,
  type ClientRegistration,
} from './clients';
export type { AuthResult, AuthService, IssueAccessTokenOptions, Principal } from './types';
export { ROLE_SCOPES, SCOPE_CATALOGUE, scopesForOperation, type Scope } from './scopes';
export { APPROVAL_HEADER } from './authorize-route';
export { CONFIDENTIAL_CLIENT_ID, CONFIDENTIAL_CLIENT_SECRET, PUBLIC_CLIENT_ID } from './types';

export interface AuthServiceOptions {
  store: Store;
  /** Lifetime of access tokens (tests use 1–2 s to see them expire). */
  tokenTtlSeconds: number;
  /** Skip the login page: log in as the login_hint's account, else the first office account. */
  autoApprove?: boolean;
  /**
   * The login (the page's GET and its form's POST) answers only requests carrying this secret in
   * the APPROVAL_HEADER; others get a 403 page. Default: none, anyone may log in.
   */
  approvalSecret?: string;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock?: () => number;
  /** The sandbox's origin, when known already (otherwise set later with setOrigin). */
  origin?: string;
  /** Clients registered besides the built-in ones (checked: a RangeError says what is wrong). */
  clients?: readonly ClientRegistration[];
}

/** The issuer of the ID tokens: where the OAuth endpoints live (no trailing slash). */
export function issuerOf(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/oauth/v1`;
}

export function createAuthService(options: AuthServiceOptions): AuthService {
  const { store, tokenTtlSeconds } = options;
  if (!(tokenTtlSeconds > 0))
    throw new RangeError(`tokenTtlSeconds must be positive, got ${tokenTtlSeconds}`);
  const clients = new ClientRegistry(options.clients);
  const clock = options.clock ?? Date.now;
  const grants = new GrantRegistry(clock, tokenTtlSeconds * 1000);
  let origin = options.origin ?? '';
  const issuer = () => issuerOf(origin);

  function authenticate(authorizationHeader: string | undefined): AuthResult {
    const presented = presentedToken(authorizationHeader);
    if (presented.kind === 'missing') return { ok: false, reason: 'missing' };
    if (presented.kind === 'malformed') return { ok: false, reason: 'invalid' };
    const check = grants.checkAccessToken(presented.token);
    if (!check.ok) return { ok: false, reason: check.reason };
    // The role is read now, not when the token was issued, so a changed account takes effect.
    const role = accountRole(store, check.userId);
    if (role === undefined) return { ok: false, reason: 'invalid' };
    return {
      ok: true,
      principal: { userId: check.userId, role, scopes: new Set(splitScope(check.scope)) },
    };
  }

  const context: AuthContext = {
    store,
    clients,
    grants,
    accessTokenLifetimeSeconds: tokenTtlSeconds,
    signer: new IdTokenSigner(),
    issuer: (requestOrigin) => issuerOf(origin || requestOrigin),
    clock,
    autoApprove: options.autoApprove ?? false,
    ...(options.approvalSecret === undefined ? {} : { approvalSecret: options.approvalSecret }),
    authenticate,
  };

  return {
    authenticate,
    issueAccessToken(userId, tokenOptions = {}) {
      const role = accountRole(store, userId);
      if (role === undefined) throw new Error(`User ${userId} has no account`);
      let scope = ROLE_SCOPES[role].join(' ');
      if (tokenOptions.scope !== undefined) {
        const scopes = splitScope(tokenOptions.scope);
        const unknown = unknownScopes(scopes);
        if (unknown.length > 0) throw new RangeError(`Unknown scope: ${unknown.join(' ')}`);
        scope = scopes.join(' ');
      }
      return grants.issueAccessToken(userId, undefined, scope);
    },
    issuer,
    revokeLogins: (userId) => grants.revokeLogins(userId),
    setOrigin(value) {
      origin = value;
    },
    register(app) {
      void app.register(oauthRoutes(context));
    },
  };
}
