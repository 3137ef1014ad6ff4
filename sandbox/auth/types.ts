// The seam between the sandbox's OAuth server (sandbox/auth) and its API routes (sandbox/http).
import type { FastifyInstance } from 'fastify';
import type { Role } from '../data/store';

export interface Principal {
  userId: string;
  role: Role;
}

export type AuthResult =
  { ok: true; principal: Principal } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

export interface AuthService {
  /** Verifies an Authorization header: "Bearer <token>" or, as the real service tolerates, the bare token. */
  authenticate(authorizationHeader: string | undefined): AuthResult;
  /** A ready access token for a user with an account (printed by the CLI, used by tests). */
  issueAccessToken(userId: string): string;
  /** Mounts /oauth/v1/authorize, /oauth/v1/token and /oauth/v1/userinfo (always at the root, never under --prefix). */
  register(app: FastifyInstance): void;
}

/** The public desktop client (PKCE S256 required) and a confidential one (client_secret_post). */
export const PUBLIC_CLIENT_ID = 'vorort-desktop';
export const CONFIDENTIAL_CLIENT_ID = 'vorort-server';
export const CONFIDENTIAL_CLIENT_SECRET = 'sandbox-secret';
