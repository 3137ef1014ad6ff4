// Parsers for the options of `vorort sandbox`. Each turns the text of one option into a
// value or throws commander's InvalidArgumentError with a sentence saying what is expected;
// commander prints it with the option's name and the command exits with status 2.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { checkRegistration, type ClientRegistration } from './auth/index';
import { SCALES, type Scale } from './data/generate';
import { parseFaultSpec } from './http/faults';
import { parseRateLimit } from './http/rate-limit';
import { parseShapes } from './http/shapes';

/** The names of the demo-data sizes, smallest first, for --scale's choices. */
export const SCALE_NAMES = Object.keys(SCALES) as Scale[];

function integerIn(text: string, min: number, max: number, what: string): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(`${what} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

export function parsePort(text: string): number {
  return integerIn(text, 0, 65_535, 'The port (0 picks a free one)');
}

export function parseSeed(text: string): number {
  return integerIn(text, 0, 2 ** 31 - 1, 'The seed');
}

export function parsePageSize(text: string): number {
  return integerIn(text, 1, 100_000, 'The page size');
}

export function parseTokenTtl(text: string): number {
  return integerIn(text, 1, 31 * 24 * 3600, 'The token lifetime in seconds');
}

export function parseHost(text: string): string {
  if (!/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]+:[0-9a-fA-F:.]*|[A-Za-z0-9.-]+)$/.test(text)) {
    throw new InvalidArgumentError('Give a host name or an IP address, e.g. 127.0.0.1.');
  }
  return text.startsWith('[') ? text.slice(1, -1) : text;
}

/** `/core/v1` as the real service; no trailing slash, plain path segments. */
export function parsePrefix(text: string): string {
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(text)) {
    throw new InvalidArgumentError(
      'The prefix is a path like /core/v1: starting with "/", no trailing "/".',
    );
  }
  return text;
}

export function parseAnchorDate(text: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = match ? new Date(`${text}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
    throw new InvalidArgumentError(
      'The anchor date is a calendar date YYYY-MM-DD, e.g. 2026-03-01.',
    );
  }
  return text;
}

/** The SQLite file may not exist yet (it is created), but its folder must. */
export function parseDataFile(text: string): string {
  const path = resolve(text);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new InvalidArgumentError(`The folder ${folder} does not exist.`);
  }
  if (existsSync(path) && !statSync(path).isFile()) {
    throw new InvalidArgumentError(`${path} is not a file.`);
  }
  return path;
}

/** Lets a parser of the sandbox, which throws a RangeError, report through commander. */
function asOptionParser<T>(parse: (text: string) => T): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof RangeError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

/** `error=0.1,throttle=0.05,...`: each kind at most once, each rate from 0 to 1, together at most 1. */
export const parseFaults = asOptionParser(parseFaultSpec);

/** `30/min`: at most that many interface requests per access token and window. */
export const parseRateLimitOption = asOptionParser(parseRateLimit);

/** `uniform`, `real` or `robust`. */
export const parseShapesOption = asOptionParser(parseShapes);

/** The keys of a `--register-client` spec. */
const CLIENT_KEYS = ['id', 'secret', 'redirect', 'name'] as const;

/** A `--register-client` spec as a client registration; throws a RangeError saying what is wrong. */
function readClientRegistration(
  text: string,
  earlier: readonly ClientRegistration[],
): ClientRegistration {
  const values: Record<string, string[]> = {};
  // A comma before `word=` starts the next pair: a misspelt key is refused, not read as a value.
  for (const pair of text.split(/,(?=[a-z_]+=)/)) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at);
    if (at < 0 || !(CLIENT_KEYS as readonly string[]).includes(key))
      throw new RangeError(
        `Expected id=ID,redirect=URI[,redirect=URI…][,secret=SECRET][,name=NAME], got "${pair}".`,
      );
    (values[key] ??= []).push(pair.slice(at + 1));
  }
  for (const key of ['id', 'secret', 'name'])
    if ((values[key]?.length ?? 0) > 1)
      throw new RangeError(`A client has one ${key}; "${text}" gives several.`);
  const registration: ClientRegistration = {
    id: values.id?.[0] ?? '',
    redirectUris: values.redirect ?? [],
    ...(values.secret ? { secret: values.secret[0]! } : {}),
    ...(values.name ? { name: values.name[0]! } : {}),
  };
  checkRegistration(registration, earlier);
  return registration;
}

/**
 * `id=ID,redirect=URI[,redirect=URI…][,secret=SECRET][,name=NAME]`: one client more, added to
 * those of the options before (a value may hold commas, but not `,word=`).
 */
export function parseClientRegistration(
  text: string,
  earlier: readonly ClientRegistration[] = [],
): ClientRegistration[] {
  return [...earlier, asOptionParser((spec) => readClientRegistration(spec, earlier))(text)];
}
