// The signed-in account's tokens, kept only in this process and in the secret store: the API
// client asks here for its bearer token, and on a 401 for a fresh one. A refresh keeps the old
// refresh token when the answer has none (RFC 6749 section 6); a refresh the service refuses
// (invalid_grant: revoked, expired) ends the login, saying why.
import * as client from 'openid-client';
import { z } from 'zod';
import type { TokenSource } from '../api';
import type { AccountInfo } from '../contract';
import type { SecretStore } from './files';
import { oauthConfiguration, tokenSetOf, type TokenSet } from './login';

const storedSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  expiresAt: z.number().optional(),
  /** The account the tokens belong to (its token endpoint and client id). */
  tokenUrl: z.string(),
  clientId: z.string(),
});
export type StoredTokens = z.infer<typeof storedSchema>;

export async function readStoredTokens(
  secrets: SecretStore,
  account: AccountInfo,
): Promise<StoredTokens | null> {
  let text: string | null;
  try {
    text = await secrets.read();
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const parsed = storedSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return null;
    // Tokens of another account are not this one's.
    if (parsed.data.tokenUrl !== account.tokenUrl || parsed.data.clientId !== account.clientId)
      return null;
    return parsed.data;
  } catch {
    return null;
  }
}

/** A token this close to its end is refreshed before it is used. */
const EXPIRY_MARGIN_MS = 60_000;

export interface HostTokensOptions {
  account: AccountInfo;
  secrets: SecretStore;
  initial: TokenSet;
  /** The service refused the refresh token: the login is over (the words say why). */
  onRevoked(reason: { de: string; en: string }): void;
  now?: () => number;
}

export class HostTokens implements TokenSource {
  private tokens: TokenSet;
  private refreshing: Promise<string | null> | null = null;
  private revoked = false;
  private readonly now: () => number;

  constructor(private readonly options: HostTokensOptions) {
    this.tokens = options.initial;
    this.now = options.now ?? Date.now;
  }

  static async save(secrets: SecretStore, account: AccountInfo, tokens: TokenSet): Promise<void> {
    const stored: StoredTokens = {
      ...tokens,
      tokenUrl: account.tokenUrl,
      clientId: account.clientId,
    };
    await secrets.write(JSON.stringify(stored));
  }

  /** The current access token (refreshed first when it is about to expire and can be). */
  async getAccessToken(): Promise<string> {
    const { expiresAt, refreshToken } = this.tokens;
    if (
      !this.revoked &&
      refreshToken !== undefined &&
      expiresAt !== undefined &&
      expiresAt - this.now() < EXPIRY_MARGIN_MS
    ) {
      const fresh = await this.refreshAccessToken().catch(() => null);
      if (fresh) return fresh;
    }
    return this.tokens.accessToken;
  }

  /** One refresh at a time; null when there is no refresh token or the service refused it. */
  refreshAccessToken(): Promise<string | null> {
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Ends this keeper's use (sign-out): no refresh any more. */
  forget(): void {
    this.revoked = true;
  }

  private async refresh(): Promise<string | null> {
    const refreshToken = this.tokens.refreshToken;
    if (this.revoked || refreshToken === undefined) return null;
    let answer: client.TokenEndpointResponse;
    try {
      answer = await client.refreshTokenGrant(
        oauthConfiguration(this.options.account),
        refreshToken,
      );
    } catch (error) {
      if (error instanceof client.ResponseBodyError && error.error === 'invalid_grant') {
        this.revoked = true;
        this.options.onRevoked({
          de: 'Bitte melden Sie sich neu an: Der Dienst hat die Anmeldung beendet (sie wurde widerrufen oder ist abgelaufen). Ihre Änderungen bleiben gespeichert und werden danach gesendet.',
          en: 'Please sign in again: the service ended the login (it was revoked or has expired). Your changes are kept and sent afterwards.',
        });
        return null;
      }
      // The token endpoint unreachable: the next 401 may try again.
      throw error;
    }
    if (this.revoked) return null;
    const fresh = tokenSetOf(answer, this.now());
    // Without a new refresh token the old one stays valid (RFC 6749 section 6).
    this.tokens = { ...fresh, ...(fresh.refreshToken ? {} : { refreshToken }) };
    await HostTokens.save(this.options.secrets, this.options.account, this.tokens);
    return this.tokens.accessToken;
  }

  /** For tests: the refresh token now held. */
  get currentRefreshToken(): string | undefined {
    return this.tokens.refreshToken;
  }
}
