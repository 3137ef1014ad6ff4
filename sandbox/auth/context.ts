// What the OAuth routes share: the data, the issued grants and the service's settings.
import type { Store } from '../data/store';
import type { GrantRegistry } from './grants';
import type { AuthResult } from './types';

export interface AuthContext {
  store: Store;
  grants: GrantRegistry;
  accessTokenLifetimeSeconds: number;
  /** Skip the login page: log in as the login_hint's account, or the first office account. */
  autoApprove: boolean;
  authenticate(authorizationHeader: string | undefined): AuthResult;
}
