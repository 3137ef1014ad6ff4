// Checks of command-line values, each failing with a message that names the option.
import { CliInputError } from './exit-codes';

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
