// The options of `vorort sync`, checked before anything is sent: the service and its API client,
// the token (given or from a file), the pace, the request budget, the calendar feed's address.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  createApiClient,
  staticToken,
  type ApiClient,
  type Pace,
  type TokenSource,
  type WaitEvent,
} from '../api';
import { tokenFileSource } from '../auth/token-file';
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
}

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

/** --feed-url: a checked address, null for "none", undefined when not given (the stored one stays). */
export function feedUrlOption(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (/^(none|)$/i.test(value.trim())) return null;
  try {
    return checkFeedUrl(value);
  } catch (error) {
    if (error instanceof CoreFailure) throw new CliInputError(`--feed-url: ${error.messages.en}`);
    throw error;
  }
}

/** --token or --token-file, exactly one. */
export function tokenSourceOf(options: SyncCommandOptions, baseUrl: string): TokenSource {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw new CliInputError('give --token or --token-file, not both');
  if (options.tokenFile !== undefined) return tokenFileSource(options.tokenFile, baseUrl);
  if (!options.token?.trim())
    throw new CliInputError('--token (or --token-file) is required and must not be empty');
  return staticToken(options.token.trim());
}
