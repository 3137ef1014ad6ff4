// Tokens kept in a JSON file (the CLI's `--token-file`; the desktop host keeps them encrypted
// instead): the access token, and a refresh token used once per 401. A refreshed pair is written
// back at once, atomically (./private-file.ts: a random temporary created exclusively, then a
// rename), so a process killed right after a refresh (whose old refresh token the service may
// have retired) does not lose the login.
import { readFileSync } from 'node:fs';
import * as client from 'openid-client';
import { z } from 'zod';
import type { TokenSource } from '../api';
import { openidConfiguration } from './openid';
import { writePrivateFile } from './private-file';

const tokenFileSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  client_id: z.string().min(1).optional(),
  client_secret: z.string().min(1).optional(),
  /** Where the token endpoint lives (`<oauth_url>/token`); default `<origin of the API>/oauth/v1`. */
  oauth_url: z.string().optional(),
});
export type TokenFile = z.infer<typeof tokenFileSchema>;

export class TokenFileError extends Error {
  override name = 'TokenFileError';
}

export function readTokenFile(path: string): TokenFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TokenFileError(`Cannot read the token file ${path}: ${(error as Error).message}`);
  }
  return parseTokenFile(text, `The token file ${path}`);
}

/** The token file's JSON; `where` names it in the messages ("The token file x.json"). */
function parseTokenFile(text: string, where: string): TokenFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TokenFileError(`${where} is not JSON`);
  }
  const parsed = tokenFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new TokenFileError(
      `${where} is not usable: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/**
 * Tokens given as text (standard input: `--token-file -`): the token file's JSON, or the access
 * token alone on one line. A refresh is kept in memory only (there is no file to write it to).
 */
export function readTokenText(text: string, where: string): TokenFile {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return parseTokenFile(trimmed, where);
  if (trimmed === '' || /\s/.test(trimmed))
    throw new TokenFileError(
      `${where} holds no token: give the access token alone on one line, or the token file's JSON`,
    );
  return { access_token: trimmed };
}

/** Writes the tokens back: a random temporary created exclusively (0600), renamed into place. */
export function writeTokenFile(path: string, tokens: TokenFile): void {
  writePrivateFile(path, `${JSON.stringify(tokens, null, 2)}\n`);
}

/** A TokenSource over the file; refreshes with openid-client when it holds a refresh token and a client id. */
export function tokenFileSource(path: string, apiUrl: string): TokenSource {
  return tokenSource(readTokenFile(path), apiUrl, (tokens) => writeTokenFile(path, tokens));
}

/** A TokenSource over tokens read once (readTokenText); a refresh lives as long as the process. */
export function tokenTextSource(tokens: TokenFile, apiUrl: string): TokenSource {
  return tokenSource(tokens, apiUrl, () => {});
}

function tokenSource(
  initial: TokenFile,
  apiUrl: string,
  keep: (tokens: TokenFile) => void,
): TokenSource {
  let tokens = initial;
  return {
    getAccessToken: async () => tokens.access_token,
    async refreshAccessToken() {
      if (!tokens.refresh_token || !tokens.client_id) return null;
      const config = openidConfiguration({
        apiUrl,
        clientId: tokens.client_id,
        ...(tokens.oauth_url ? { oauthUrl: tokens.oauth_url } : {}),
        ...(tokens.client_secret ? { clientSecret: tokens.client_secret } : {}),
      });
      const answer = await client.refreshTokenGrant(config, tokens.refresh_token);
      tokens = {
        ...tokens,
        access_token: answer.access_token,
        // Without a new refresh token the old one stays valid (RFC 6749 section 6).
        refresh_token: answer.refresh_token ?? tokens.refresh_token,
      };
      keep(tokens);
      return tokens.access_token;
    },
  };
}
