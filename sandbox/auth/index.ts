// The sandbox's OAuth 2.0 authorization server: authorize (login page), token and userinfo
// under /oauth/v1/, plus verification of the bearer tokens it issues for the API routes.
import type { Store } from '../data/store';
import { accountRole } from './accounts';
import { presentedToken } from './bearer';
import type { AuthContext } from './context';
import { GrantRegistry } from './grants';
import { oauthRoutes } from './routes';
import type { AuthResult, AuthService } from './types';

export { CONFIDENTIAL_REDIRECT_URIS } from './clients';
export type { AuthResult, AuthService, Principal } from './types';
export { CONFIDENTIAL_CLIENT_ID, CONFIDENTIAL_CLIENT_SECRET, PUBLIC_CLIENT_ID } from './types';

export interface AuthServiceOptions {
  store: Store;
  /** Lifetime of access tokens (tests use 1–2 s to see them expire). */
  tokenTtlSeconds: number;
  /** Skip the login page: log in as the login_hint's account, else the first office account. */
  autoApprove?: boolean;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock?: () => number;
}

export function createAuthService(options: AuthServiceOptions): AuthService {
  const { store, tokenTtlSeconds } = options;
  if (!(tokenTtlSeconds > 0))
    throw new RangeError(`tokenTtlSeconds must be positive, got ${tokenTtlSeconds}`);
  const grants = new GrantRegistry(options.clock ?? Date.now, tokenTtlSeconds * 1000);

  function authenticate(authorizationHeader: string | undefined): AuthResult {
    const presented = presentedToken(authorizationHeader);
    if (presented.kind === 'missing') return { ok: false, reason: 'missing' };
    if (presented.kind === 'malformed') return { ok: false, reason: 'invalid' };
    const check = grants.checkAccessToken(presented.token);
    if (!check.ok) return { ok: false, reason: check.reason };
    // The role is read now, not when the token was issued, so a changed account takes effect.
    const role = accountRole(store, check.userId);
    if (role === undefined) return { ok: false, reason: 'invalid' };
    return { ok: true, principal: { userId: check.userId, role } };
  }

  const context: AuthContext = {
    store,
    grants,
    accessTokenLifetimeSeconds: tokenTtlSeconds,
    autoApprove: options.autoApprove ?? false,
    authenticate,
  };

  return {
    authenticate,
    issueAccessToken(userId) {
      if (accountRole(store, userId) === undefined)
        throw new Error(`User ${userId} has no account`);
      return grants.issueAccessToken(userId, undefined);
    },
    register(app) {
      void app.register(oauthRoutes(context));
    },
  };
}
