// Client-side request rate (SERVICE-NOTES: one client keeps to 30 requests a minute). Requests
// are spaced evenly rather than sent in bursts, because the service's own window is unknown:
// even spacing never exceeds any window of the same average rate. Requests wait; none is dropped.
import { sleep } from './abort';

export interface RateLimiter {
  /**
   * Waits until this request's turn; rejects with CancelledSignal if `signal` aborts first.
   * `onWait` hears how long, before a wait begins.
   */
  take(signal?: AbortSignal, onWait?: (ms: number) => void): Promise<void>;
}

export function createRateLimiter(
  requestsPerMinute: number | undefined,
  now: () => number = Date.now,
): RateLimiter {
  if (requestsPerMinute === undefined) return { take: async () => {} };
  if (!(requestsPerMinute > 0))
    throw new RangeError(`requestsPerMinute must be positive, got ${requestsPerMinute}`);
  const spacingMs = 60_000 / requestsPerMinute;
  let nextFreeAt = 0;
  return {
    async take(signal, onWait) {
      const turn = Math.max(now(), nextFreeAt);
      // Reserve the slot before waiting, so concurrent callers queue behind each other.
      nextFreeAt = turn + spacingMs;
      const waitMs = turn - now();
      if (waitMs <= 0) return;
      onWait?.(waitMs);
      try {
        await sleep(waitMs, signal);
      } catch (error) {
        // A cancelled request gives its slot back if nobody queued behind it.
        if (nextFreeAt === turn + spacingMs) nextFreeAt = turn;
        throw error;
      }
    },
  };
}
