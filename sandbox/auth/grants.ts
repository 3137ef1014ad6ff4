// Authorization codes, access tokens and refresh tokens, in memory only: a restarted sandbox
// forgets every login, which is also what a client must survive when the real service
// revokes its tokens.
import { randomBytes } from 'node:crypto';

/** RFC 6749 §4.1.2 allows up to ten minutes; a client exchanges its code at once, so one is plenty. */
export const CODE_LIFETIME_MS = 60_000;
/** Expired tokens are remembered this long so that a client hears "expired" rather than "invalid". */
const EXPIRED_TOKEN_MEMORY_MS = 60 * 60_000;

/** One login of one user by one client: the codes and tokens issued from it share its fate. */
export interface Grant {
  userId: string;
  clientId: string;
  scope: string;
  /** When the user logged in, seconds since the epoch (the ID tokens' auth_time). */
  authTime: number;
  refreshCount: number;
  revoked: boolean;
}

export interface AuthorizationCode {
  userId: string;
  clientId: string;
  scope: string;
  redirectUri: string;
  codeChallenge: string | undefined;
  /** The authorization request's OpenID Connect nonce, echoed in the ID token. */
  nonce: string | undefined;
}

interface CodeEntry extends AuthorizationCode {
  expiresAt: number;
  /** Set when the code was redeemed; a second redemption revokes this grant (RFC 6749 §4.1.2). */
  redeemedInto: Grant | undefined;
  redeemed: boolean;
}

interface AccessTokenEntry {
  userId: string;
  /** The scopes granted to this token (space-separated). */
  scope: string;
  expiresAt: number;
  /** Absent for tokens handed out directly (issueAccessToken), which belong to no login. */
  grant: Grant | undefined;
}

export type CodeRedemption =
  | { ok: true; code: AuthorizationCode; bind(grant: Grant): void }
  | { ok: false; reason: 'unknown' | 'expired' | 'reused' };

export type AccessTokenCheck =
  { ok: true; userId: string; scope: string } | { ok: false; reason: 'invalid' | 'expired' };

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export class GrantRegistry {
  private readonly codes = new Map<string, CodeEntry>();
  /** Insertion order is expiry order (one lifetime for all), which makes pruning cheap. */
  private readonly accessTokens = new Map<string, AccessTokenEntry>();
  private readonly refreshTokens = new Map<string, Grant>();

  constructor(
    private readonly clock: () => number,
    private readonly accessTokenLifetimeMs: number,
  ) {}

  issueCode(code: AuthorizationCode): string {
    this.pruneCodes();
    const value = randomToken();
    this.codes.set(value, {
      ...code,
      expiresAt: this.clock() + CODE_LIFETIME_MS,
      redeemed: false,
      redeemedInto: undefined,
    });
    return value;
  }

  /**
   * Single use: the first attempt consumes the code whatever the outcome of the checks that
   * follow, so a wrong PKCE verifier cannot be retried against the same code.
   */
  redeemCode(value: string): CodeRedemption {
    const entry = this.codes.get(value);
    if (!entry) return { ok: false, reason: 'unknown' };
    if (this.clock() >= entry.expiresAt) {
      this.codes.delete(value);
      return { ok: false, reason: 'expired' };
    }
    if (entry.redeemed) {
      if (entry.redeemedInto) this.revoke(entry.redeemedInto);
      return { ok: false, reason: 'reused' };
    }
    entry.redeemed = true;
    return {
      ok: true,
      code: entry,
      bind: (grant) => {
        entry.redeemedInto = grant;
      },
    };
  }

  createGrant(userId: string, clientId: string, scope: string): Grant {
    return {
      userId,
      clientId,
      scope,
      authTime: Math.floor(this.clock() / 1000),
      refreshCount: 0,
      revoked: false,
    };
  }

  issueAccessToken(userId: string, grant: Grant | undefined, scope: string): string {
    this.pruneAccessTokens();
    const value = randomToken();
    this.accessTokens.set(value, {
      userId,
      scope,
      grant,
      expiresAt: this.clock() + this.accessTokenLifetimeMs,
    });
    return value;
  }

  issueRefreshToken(grant: Grant): string {
    const value = randomToken();
    this.refreshTokens.set(value, grant);
    return value;
  }

  findRefreshToken(value: string): Grant | undefined {
    return this.refreshTokens.get(value);
  }

  /**
   * Counts a refresh of the grant and returns the refresh token the client must use next time.
   * The real service sometimes answers a refresh without a new refresh token, meaning "keep
   * the old one"; the sandbox makes that happen on every second refresh, and rotates (retiring
   * the old token) on the others, so a client passes only if it handles both answers.
   */
  refresh(
    value: string,
    grant: Grant,
  ): { rotated: true; refreshToken: string } | { rotated: false } {
    grant.refreshCount += 1;
    if (grant.refreshCount % 2 === 0) return { rotated: false };
    this.refreshTokens.delete(value);
    return { rotated: true, refreshToken: this.issueRefreshToken(grant) };
  }

  checkAccessToken(value: string): AccessTokenCheck {
    const entry = this.accessTokens.get(value);
    if (!entry || entry.grant?.revoked) return { ok: false, reason: 'invalid' };
    if (this.clock() >= entry.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, userId: entry.userId, scope: entry.scope };
  }

  /**
   * Revokes every login (of one user, or of all): their refresh tokens are refused with
   * invalid_grant and their access tokens as invalid, as when the real service's user or
   * administrator withdraws the app's access. Answers how many logins were revoked.
   */
  revokeLogins(userId?: string): number {
    const grants = new Set<Grant>();
    for (const grant of this.refreshTokens.values()) {
      if (userId === undefined || grant.userId === userId) grants.add(grant);
    }
    for (const grant of grants) this.revoke(grant);
    return grants.size;
  }

  private revoke(grant: Grant): void {
    grant.revoked = true;
    for (const [value, owner] of this.refreshTokens) {
      if (owner === grant) this.refreshTokens.delete(value);
    }
  }

  private pruneAccessTokens(): void {
    const forgetBefore = this.clock() - EXPIRED_TOKEN_MEMORY_MS;
    for (const [value, entry] of this.accessTokens) {
      if (entry.expiresAt > forgetBefore) break;
      this.accessTokens.delete(value);
    }
  }

  private pruneCodes(): void {
    const now = this.clock();
    for (const [value, entry] of this.codes) {
      if (entry.expiresAt > now) break;
      this.codes.delete(value);
    }
  }
}
