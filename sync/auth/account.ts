// The settings of an account: where its service and its OAuth server live and which client
// the app is there. The real service publishes no discovery document, so every OAuth address
// is a setting; all but the API URL and the client id have defaults, derived in one place
// (resolveAccountSettings) so the UI, the sync and the login agree on them.
import { z } from 'zod';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const accountSettingsSchema = z.object({
  /** The interface's base URL, path included: the seed's {base_url}, e.g. https://api.hiorg-server.de/core/v1. */
  apiUrl: httpUrl,
  /** Where authorize, token and userinfo live (the seed's {auth_url} is `<oauthUrl>/authorize`); default `<origin of apiUrl>/oauth/v1`. */
  oauthUrl: httpUrl.optional(),
  /** The JWKS with the ID tokens' keys; default `<oauthUrl>/jwks`. */
  jwksUrl: httpUrl.optional(),
  /** The ID tokens' expected `iss`; default the oauthUrl (without a trailing slash). */
  issuer: z.string().min(1).optional(),
  /** The OAuth client id the vendor issued. */
  clientId: z.string().min(1),
  /** Only for a confidential client (sent as client_secret_post); a public client uses PKCE alone. */
  clientSecret: z.string().min(1).optional(),
});

export type AccountSettings = z.input<typeof accountSettingsSchema>;

/** Every address spelled out: what the login and the sync use. */
export interface ResolvedAccountSettings {
  apiUrl: string;
  oauthUrl: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  jwksUrl: string;
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Validates the settings (throws a ZodError naming the bad field) and fills in the defaults. */
export function resolveAccountSettings(settings: AccountSettings): ResolvedAccountSettings {
  const parsed = accountSettingsSchema.parse(settings);
  const oauthUrl = withoutTrailingSlash(
    parsed.oauthUrl ?? new URL('/oauth/v1', new URL(parsed.apiUrl).origin).href,
  );
  return {
    apiUrl: parsed.apiUrl,
    oauthUrl,
    authorizationUrl: `${oauthUrl}/authorize`,
    tokenUrl: `${oauthUrl}/token`,
    userinfoUrl: `${oauthUrl}/userinfo`,
    jwksUrl: parsed.jwksUrl ?? `${oauthUrl}/jwks`,
    issuer: parsed.issuer ?? oauthUrl,
    clientId: parsed.clientId,
    clientSecret: parsed.clientSecret,
  };
}
