// The optional rate limit (--rate-limit 30/min): a sliding window per access token. Past the
// limit the answer is 429 with `Retry-After` (whole seconds until the oldest counted request
// leaves the window) and a JSON:API error; refused requests do not count. Requests without a
// token are not counted: they are answered 401 anyway.
import type { FastifyInstance } from 'fastify';
import { presentedToken } from '../auth/bearer';
import { ApiError } from './errors';

export interface RateLimitSpec {
  limit: number;
  windowMs: number;
}

const UNITS: Record<string, number> = {
  s: 1000,
  sec: 1000,
  second: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
};

/** Parses `30/min`, `5/s`, `1000/hour`; throws a RangeError naming the problem. */
export function parseRateLimit(spec: string): RateLimitSpec {
  const match = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/.exec(spec);
  const windowMs = match ? UNITS[match[2] ?? ''] : undefined;
  const limit = Number(match?.[1]);
  if (!match || windowMs === undefined || !(limit > 0)) {
    throw new RangeError(
      `Rate limit "${spec}" is not of the form N/unit (e.g. 30/min; units s, min, hour).`,
    );
  }
  return { limit, windowMs };
}

export class SlidingWindowLimiter {
  /** Per key, the times of the counted requests inside the window, oldest first. */
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly spec: RateLimitSpec,
    private readonly clock: () => number,
  ) {}

  /** Counts a request; returns the seconds to wait when the key is over its limit. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.clock();
    const windowStart = now - this.spec.windowMs;
    const times = (this.hits.get(key) ?? []).filter((time) => time > windowStart);
    if (times.length >= this.spec.limit) {
      this.hits.set(key, times);
      const oldest = times[0] ?? now;
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.spec.windowMs - now) / 1000)),
      };
    }
    times.push(now);
    this.hits.set(key, times);
    return { allowed: true };
  }
}

export function registerRateLimit(scope: FastifyInstance, limiter: SlidingWindowLimiter): void {
  scope.addHook('onRequest', async (request) => {
    const presented = presentedToken(request.headers.authorization);
    if (presented.kind !== 'token') return;
    const verdict = limiter.take(presented.token);
    if (!verdict.allowed) {
      throw new ApiError(
        429,
        [
          {
            code: 'rate_limited',
            detail: `Rate limit exceeded; retry after ${verdict.retryAfterSeconds} s.`,
          },
        ],
        { 'retry-after': String(verdict.retryAfterSeconds) },
      );
    }
  });
}
