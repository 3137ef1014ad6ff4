// The seam between the sandbox's OAuth server (sandbox/auth) and its API routes (sandbox/http).
import type { FastifyInstance } from 'fastify';
import type { Role } from '../data/store';

export interface Principal {
  userId: string;
  role: Role;
  /** The scopes the token carries (see sandbox/auth/scopes.ts). */
  scopes: ReadonlySet<string>;
}

export interface IssueAccessTokenOptions {
  /**
   * Space-separated scopes the token carries; default: every scope the user's role may use.
   * Must name known scopes only; any of them may be given, whatever the role (tests use this
   * to see what the interface does with a token that has a scope or lacks one).
   */
  scope?: string;
}

export type AuthResult =
  { ok: true; principal: Principal } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

export interface AuthService {
  /** Verifies an Authorization header: "Bearer <token>" or, as the real service tolerates, the bare token. */
  authenticate(authorizationHeader: string | undefined): AuthResult;
  /** A ready access token for a user with an account (printed by the CLI, used by tests). */
  issueAccessToken(userId: string, options?: IssueAccessTokenOptions): string;
  /**
   * Revokes the logins (refresh tokens and the access tokens issued from them) of one user, or
   * of every user: what a client sees when its access is withdrawn. Answers how many.
   */
  revokeLogins(userId?: string): number;
  /** The ID tokens' `iss`: the sandbox origin + /oauth/v1 once it listens. */
  issuer(): string;
  /** Tells the service its origin (known only once the server listens); sets the issuer. */
  setOrigin(origin: string): void;
  /** Mounts /oauth/v1/authorize, token, userinfo and jwks (always at the root, never under --prefix). */
  register(app: FastifyInstance): void;
}

/** The public desktop client (PKCE S256 required) and a confidential one (client_secret_post). */
export const PUBLIC_CLIENT_ID = 'vorort-desktop';
export const CONFIDENTIAL_CLIENT_ID = 'vorort-server';
export const CONFIDENTIAL_CLIENT_SECRET = 'sandbox-secret';
