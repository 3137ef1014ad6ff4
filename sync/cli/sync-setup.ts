// The options of `vorort sync`, checked before anything is sent: the service and its API client,
// the token (from the environment, a file or standard input; the old --token still), the pace,
// the request budget, the calendar feed's address (the same ways). A secret on the command line is
// readable by every user of the computer (`ps`), hence the other ways.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  createApiClient,
  staticToken,
  type ApiClient,
  type Pace,
  type TokenSource,
  type WaitEvent,
} from '../api';
import { readTokenText, tokenFileSource, tokenTextSource } from '../auth/token-file';
import { ReplicaError } from '../db/open';
import { CoreFailure } from '../core-error';
import { checkFeedUrl } from '../pull/feed';
import type { SyncProfile } from '../pull/options';
import { CliInputError } from './exit-codes';
import { parsePace, parsePositiveInt, parseServiceUrl } from './parse';

export interface SyncCommandOptions {
  server: string;
  oauthUrl?: string;
  allowInsecureHttp?: boolean;
  versionedPaths: string;
  token?: string;
  tokenFile?: string;
  pushOnly?: boolean;
  db: string;
  profile: string;
  full?: boolean;
  budget?: string;
  json?: boolean;
  requestsPerMinute?: string;
  pace?: string;
  maxInFlight: string;
  watch?: boolean;
  interval: string;
  feedUrl?: string;
  feedUrlFile?: string;
}

/** The environment variables the secrets may come from (the command line's are visible in `ps`). */
export const TOKEN_ENV = 'VORORT_TOKEN';
export const FEED_URL_ENV = 'VORORT_FEED_URL';

/** Where secrets come from besides the options: the environment and standard input (read once). */
export interface SecretInputs {
  env: NodeJS.ProcessEnv;
  stdin(): string;
}

export const processInputs: SecretInputs = {
  env: process.env,
  stdin() {
    // A terminal would echo the secret and wait for Ctrl+D: a pipe or a redirect is meant.
    if (process.stdin.isTTY)
      throw new CliInputError(
        'standard input ("-") is a terminal: pipe the secret in (… | vorort sync …, or < file)',
      );
    return readFileSync(0, 'utf8');
  },
};

/** What every sync of the command needs, its options checked (bad ones fail before anything is sent). */
export interface Setup {
  baseUrl: string;
  oauthUrl?: string;
  versionedPathsAt: 'base' | 'origin';
  profile: SyncProfile;
  tokens: TokenSource;
  /** --pace, or --requests-per-minute; absent: the client's default (none on loopback). */
  pace?: Pace;
  maxInFlight: number;
}

export function checkedSetup(options: SyncCommandOptions, tokens?: TokenSource): Setup {
  const baseUrl = serverOption(options);
  const oauthUrl = options.oauthUrl
    ? parseServiceUrl(options.oauthUrl, '--oauth-url', options.allowInsecureHttp)
    : undefined;
  if (options.versionedPaths !== 'base' && options.versionedPaths !== 'origin') {
    throw new CliInputError(
      `--versioned-paths must be base or origin, not "${options.versionedPaths}"`,
    );
  }
  if (options.profile !== 'office' && options.profile !== 'trainer') {
    throw new CliInputError(`--profile must be office or trainer, not "${options.profile}"`);
  }
  const profile: SyncProfile = options.profile;
  const source = tokens ?? tokenSourceOf(options, baseUrl);
  if (options.pace !== undefined && options.requestsPerMinute !== undefined)
    throw new CliInputError('give --pace or --requests-per-minute, not both');
  const pace =
    options.pace !== undefined
      ? parsePace(options.pace, '--pace')
      : options.requestsPerMinute
        ? parsePositiveInt(options.requestsPerMinute, '--requests-per-minute')
        : undefined;
  const maxInFlight = parsePositiveInt(options.maxInFlight, '--max-in-flight');
  const folder = dirname(resolve(options.db));
  if (!existsSync(folder))
    throw new ReplicaError(
      `Cannot create the replica ${options.db}: the folder ${folder} does not exist`,
      'missing-folder',
    );
  return {
    baseUrl,
    ...(oauthUrl ? { oauthUrl } : {}),
    versionedPathsAt: options.versionedPaths,
    profile,
    tokens: source,
    ...(pace === undefined ? {} : { pace }),
    maxInFlight,
  };
}

/** --server, checked: the token goes there (https, or http on this computer). */
export function serverOption(options: SyncCommandOptions): string {
  return parseServiceUrl(options.server, '--server', options.allowInsecureHttp);
}

export function apiOf(setup: Setup, onWait: (event: WaitEvent) => void): ApiClient {
  return createApiClient({
    baseUrl: setup.baseUrl,
    ...(setup.oauthUrl ? { oauthUrl: setup.oauthUrl } : {}),
    versionedPathsAt: setup.versionedPathsAt,
    tokens: setup.tokens,
    maxInFlight: setup.maxInFlight,
    ...(setup.pace === undefined ? {} : { pace: setup.pace }),
    onWait,
  });
}

/** --budget as the pull's option (the default stays when it is not given). */
export function budgetOption(options: SyncCommandOptions): { requestBudget?: number } {
  return options.budget === undefined
    ? {}
    : { requestBudget: parsePositiveInt(options.budget, '--budget') };
}

/**
 * The feed's address from --feed-url, --feed-url-file (FILE, or - for standard input) or
 * VORORT_FEED_URL, in that order: checked, null for "none", undefined when none is given (the
 * stored one stays).
 */
export function feedUrlOption(
  options: Pick<SyncCommandOptions, 'feedUrl' | 'feedUrlFile' | 'tokenFile'>,
  inputs: SecretInputs = processInputs,
): string | null | undefined {
  if (options.feedUrl !== undefined && options.feedUrlFile !== undefined)
    throw new CliInputError('give --feed-url or --feed-url-file, not both');
  if (options.feedUrlFile === '-' && options.tokenFile === '-')
    throw new CliInputError('--token-file - and --feed-url-file - cannot both read standard input');
  const value =
    options.feedUrl ??
    (options.feedUrlFile === undefined
      ? undefined
      : firstLine(secretText(options.feedUrlFile, '--feed-url-file', inputs))) ??
    (inputs.env[FEED_URL_ENV] || undefined);
  if (value === undefined) return undefined;
  if (/^(none|)$/i.test(value.trim())) return null;
  try {
    return checkFeedUrl(value);
  } catch (error) {
    if (error instanceof CoreFailure) throw new CliInputError(`--feed-url: ${error.messages.en}`);
    throw error;
  }
}

/** A file's text, or standard input's for "-". */
function secretText(path: string, option: string, inputs: SecretInputs): string {
  if (path === '-') return inputs.stdin();
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliInputError(`${option}: cannot read ${path}: ${(error as Error).message}`);
  }
}

const firstLine = (text: string) => text.trim().split(/\r?\n/, 1)[0] ?? '';

/** --token-file FILE, --token-file - (standard input), VORORT_TOKEN, or --token: exactly one. */
export function tokenSourceOf(
  options: SyncCommandOptions,
  baseUrl: string,
  inputs: SecretInputs = processInputs,
): TokenSource {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw new CliInputError('give --token or --token-file, not both');
  if (options.tokenFile === '-')
    return tokenTextSource(readTokenText(inputs.stdin(), 'Standard input'), baseUrl);
  if (options.tokenFile !== undefined) return tokenFileSource(options.tokenFile, baseUrl);
  const token = options.token ?? inputs.env[TOKEN_ENV];
  if (!token?.trim())
    throw new CliInputError(
      `a token is required: --token-file FILE, --token-file - (standard input) or ${TOKEN_ENV}`,
    );
  return staticToken(token.trim());
}
