// Where the client gets its bearer token. The token lives elsewhere (the desktop host keeps it
// encrypted, the CLI takes it as an argument); the client only asks for it and, on a 401, asks
// once for a fresh one (DESIGN rule 6).

export interface TokenSource {
  /** The current access token. After a successful refresh it must return the new token. */
  getAccessToken(): Promise<string>;
  /** Obtains a new access token (e.g. with the refresh token); null when that is not possible. */
  refreshAccessToken?(): Promise<string | null>;
}

/** A fixed token that cannot be refreshed (CLI `--token`, tests). */
export function staticToken(token: string): TokenSource {
  return { getAccessToken: async () => token };
}

/**
 * Shares one refresh among all requests rejected with the same token: when several parallel
 * requests get 401 at once, the service sees one refresh, not one per request.
 */
export class TokenRefresher {
  private lastRefresh: { rejectedToken: string; result: Promise<string | null> } | null = null;

  constructor(private readonly source: TokenSource) {}

  current(): Promise<string> {
    return this.source.getAccessToken();
  }

  /** A token to retry with after `rejectedToken` was answered 401, or null when there is none. */
  async replacementFor(rejectedToken: string): Promise<string | null> {
    const current = await this.source.getAccessToken();
    if (current !== rejectedToken) return current; // another request refreshed meanwhile
    if (!this.source.refreshAccessToken) return null;
    let refresh = this.lastRefresh;
    if (refresh?.rejectedToken !== rejectedToken) {
      const started = { rejectedToken, result: this.source.refreshAccessToken() };
      this.lastRefresh = refresh = started;
      // A failed attempt (e.g. the token endpoint unreachable) may be tried again by the next 401.
      started.result.catch(() => {
        if (this.lastRefresh === started) this.lastRefresh = null;
      });
    }
    const fresh = await refresh.result;
    return fresh === null || fresh === '' || fresh === rejectedToken ? null : fresh;
  }
}
