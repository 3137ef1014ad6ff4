// The client's own pace (DESIGN rule 15): a service that is not on this computer gets at most
// 30 requests a minute unless told otherwise, as the real service's public clients pace themselves;
// a service on loopback (the local sandbox) gets no pace, so tests and local syncs stay fast.
import { isIP } from 'node:net';

/** Requests a minute that a public client of the real service keeps to (one every 2 s). */
export const DEFAULT_PACE_PER_MINUTE = 30;

/** Requests a minute, or 'none' for no client-side pace. */
export type Pace = number | 'none';

/**
 * The pace a client of `baseUrl` keeps when it is given none: undefined (no pace) for a host on
 * loopback (127.0.0.0/8, ::1, localhost), DEFAULT_PACE_PER_MINUTE for every other host.
 */
export function defaultPace(baseUrl: string | URL): number | undefined {
  const url = typeof baseUrl === 'string' ? new URL(baseUrl) : baseUrl;
  return isLoopbackHost(url.hostname) ? undefined : DEFAULT_PACE_PER_MINUTE;
}

/** The pace a client keeps: the one given ('none': no pace), else the default for its base URL. */
export function effectivePace(pace: Pace | undefined, baseUrl: string | URL): number | undefined {
  if (pace === 'none') return undefined;
  if (pace === undefined) return defaultPace(baseUrl);
  if (!(pace > 0) || !Number.isFinite(pace))
    throw new RangeError(`The pace must be a positive number of requests a minute, got ${pace}`);
  return pace;
}

/** A URL's hostname (`[::1]` with its brackets, as URL gives it) names this computer. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  // RFC 6761: localhost and every name below it resolve to loopback.
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) {
    if (host === '::1') return true;
    // IPv4-mapped loopback (URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1).
    return /^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(host);
  }
  return false;
}
