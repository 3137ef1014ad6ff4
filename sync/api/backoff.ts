// When to send an idempotent request again (DESIGN rule 6): exponential backoff with jitter, or
// exactly as long as the service asks with Retry-After.

export interface BackoffOptions {
  /** Delay before the first retry, before jitter. Default 500 ms. */
  baseMs?: number;
  /** Upper bound of one computed delay. Default 30 s. */
  maxMs?: number;
}

/**
 * A Retry-After longer than this is not waited for inside one request: the error goes up with
 * `retryAfterSeconds` and the sync engine re-arms its own timer (rule 12) instead of hanging.
 */
export const LONGEST_HONOURED_RETRY_AFTER_SECONDS = 120;

/** Retry-After as seconds from now: delta-seconds or an HTTP date (judged against the service's own Date header when present). */
export function parseRetryAfter(
  value: string | null,
  serverDate: Date | null,
  now: () => number = Date.now,
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  const reference = serverDate?.getTime() ?? now();
  return Math.max(0, Math.ceil((at - reference) / 1000));
}

/** Milliseconds to wait before retry number `retry` (0 = the first retry). */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const baseMs = options.baseMs ?? 500;
  const maxMs = options.maxMs ?? 30_000;
  // A little jitter on top of Retry-After too, so parallel requests throttled together do not return together.
  if (retryAfterSeconds !== undefined)
    return retryAfterSeconds * 1000 + random() * Math.min(baseMs, 250);
  const ceiling = Math.min(maxMs, baseMs * 2 ** retry);
  // "Equal jitter": at least half the exponential delay, so retries still back off.
  return ceiling / 2 + random() * (ceiling / 2);
}
