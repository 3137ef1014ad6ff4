// Checks of command-line values, each failing with a message that names the option.
import { serviceAddressProblem } from '../contract';
import { CliInputError } from './exit-codes';

/** The help text of `--allow-insecure-http`, beside the check it lifts. */
export const ALLOW_INSECURE_HTTP_HELP =
  'allow plain http to a service on another computer (--server, --oauth-url): the token and ' +
  'all data then travel unencrypted, readable and changeable by anyone on the network path. ' +
  'Without it only https is allowed, and http on this computer (127.0.0.1, localhost, [::1])';

/**
 * An address the token is sent to: https, or http on this computer only, as the app's account
 * form allows (serviceAddressProblem); plain http elsewhere only with --allow-insecure-http.
 */
export function parseServiceUrl(value: string, option: string, allowInsecureHttp = false): string {
  const url = parseHttpUrl(value, option);
  const problem = serviceAddressProblem(url);
  if (problem && !(allowInsecureHttp && new URL(url).protocol === 'http:'))
    throw new CliInputError(
      `${option}: ${problem.en} (or give --allow-insecure-http to send the token unencrypted)`,
    );
  return url;
}

export function parseHttpUrl(value: string, option: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliInputError(`${option} must be a URL like http://127.0.0.1:8787, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliInputError(`${option} must be an http(s) URL, not "${value}"`);
  return url.toString().replace(/\/$/, '');
}

export function parsePositiveInt(value: string, option: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new CliInputError(`${option} must be a whole number of at least 1, not "${value}"`);
  return parsed;
}

/** The help text of `--pace`, beside its parser so the two say the same. */
export const PACE_OPTION_HELP =
  'the most requests a minute this client sends: N, N/s, N/min or N/hour, or none ' +
  '(default: 30/min for a service that is not on this computer, none for one on loopback; ' +
  'waits are said: "waiting 2 s (own pace)")';

const PACE_UNITS_PER_MINUTE: Record<string, number> = { s: 60, min: 1, h: 1 / 60, hour: 1 / 60 };

/** `--pace`: 'none', or requests a minute from `30`, `30/min`, `1/s` or `600/hour`. */
export function parsePace(value: string, option: string): number | 'none' {
  const text = value.trim().toLowerCase();
  if (text === 'none') return 'none';
  const match = /^(\d+(?:\.\d+)?)\s*(?:\/\s*(s|min|h|hour))?$/.exec(text);
  const count = Number(match?.[1]);
  const perMinute = PACE_UNITS_PER_MINUTE[match?.[2] ?? 'min'];
  if (!match || perMinute === undefined || !(count > 0))
    throw new CliInputError(
      `${option} must be a number of requests a minute (e.g. 30, 30/min, 1/s) or none, not "${value}"`,
    );
  return count * perMinute;
}
