// This computer's clock less the service's, read from the Date headers of a client's answers:
// a sync reports it, and the scheduler says a skew beyond its limit as the problem 'clock'.
import type { ApiClient } from './client';

/** HTTP dates are whole seconds: a difference this small is no skew. */
const NOISE_SECONDS = 2;

export interface ClockSkewWatch {
  /**
   * Stops watching; answers the skew in whole seconds at the last answer that had a Date
   * (positive: this computer is ahead), or undefined when none did or the skew is only noise.
   */
  stop(): number | undefined;
}

export function watchClockSkew(api: Pick<ApiClient, 'observeRequests'>): ClockSkewWatch {
  let skewSeconds: number | undefined;
  const stopObserving = api.observeRequests((event) => {
    if (!event.serverDate) return;
    // The service wrote its Date about halfway through the request.
    const local = Date.now() - event.ms / 2;
    skewSeconds = Math.round((local - event.serverDate.getTime()) / 1000);
  });
  return {
    stop() {
      stopObserving();
      return skewSeconds !== undefined && Math.abs(skewSeconds) > NOISE_SECONDS
        ? skewSeconds
        : undefined;
    },
  };
}
