// Is the service reachable? What the scheduler asks while offline instead of trying whole syncs:
// one unauthenticated HEAD of the base URL, so it carries no token and counts against no rate limit.

export interface ReachableOptions {
  signal?: AbortSignal;
  /** Default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** True when the service answered anything at all (any HTTP status); false on a network error or time-out. */
export async function reachable(baseUrl: string, options: ReachableOptions = {}): Promise<boolean> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await (options.fetch ?? globalThis.fetch)(baseUrl, {
      method: 'HEAD',
      // No Authorization header: a token-less request is not counted by a per-token rate limit.
      headers: { 'user-agent': 'Vorort' },
      redirect: 'manual',
      signal,
    });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
