// What the OAuth routes share: the data, the issued grants and the service's settings.
import type { Store } from '../data/store';
import type { ClientRegistry } from './clients';
import type { GrantRegistry } from './grants';
import type { IdTokenSigner } from './id-token';
import type { AuthResult } from './types';

export interface AuthContext {
  store: Store;
  /** The OAuth clients this sandbox knows. */
  clients: ClientRegistry;
  grants: GrantRegistry;
  accessTokenLifetimeSeconds: number;
  /** Signs ID tokens and publishes the JWKS. */
  signer: IdTokenSigner;
  /** The ID tokens' `iss`: origin + /oauth/v1; the request's origin until the sandbox's is known. */
  issuer(requestOrigin: string): string;
  /** Milliseconds since the epoch. */
  clock: () => number;
  /** Skip the login page: log in as the login_hint's account, or the first office account. */
  autoApprove: boolean;
  /** Only requests carrying it (APPROVAL_HEADER) may log in; absent: anyone may. */
  approvalSecret?: string;
  authenticate(authorizationHeader: string | undefined): AuthResult;
}
