// The service's own limit, held for every request of one client (DESIGN rule 6): once the service
// answers 429 (or names a Retry-After), no request of this client leaves before that time, and
// for a minute afterwards requests leave one at a time, so a burst does not run into it again.
import { abandonOnAbort, sleep } from './abort';

/** After the service refused for its limit, requests go one at a time for this long past the gate. */
export const CAREFUL_AFTER_LIMIT_MS = 60_000;

export interface ServiceGate {
  /**
   * Nothing leaves before `untilMs` (epoch ms); a gate already closed longer stays so. `careful`:
   * the service refused for its limit (429), so one request at a time for a while after the gate.
   * True when this closes the gate anew or a second or more later than it was: the one wait
   * worth telling people about.
   */
  close(untilMs: number, careful: boolean): boolean;
  /** Milliseconds until the gate opens; 0 when open. */
  closedForMs(): number;
  /** Resolves when the gate is open (also after it was closed again meanwhile); rejects with CancelledSignal. */
  waitOpen(signal?: AbortSignal): Promise<void>;
  /**
   * While careful, waits for the sole turn to send and answers its release (call it when the
   * answer is in); otherwise a release that does nothing, at once.
   */
  turn(signal?: AbortSignal): Promise<() => void>;
}

export function createServiceGate(now: () => number = Date.now): ServiceGate {
  let openAt = 0;
  let carefulUntil = 0;
  /** Settles when the last request queued for a careful turn has had it. */
  let tail: Promise<void> = Promise.resolve();
  const nothing = () => {};

  return {
    close(untilMs, careful) {
      const current = now();
      const anew = openAt <= current || untilMs >= openAt + 1000;
      if (careful) carefulUntil = Math.max(carefulUntil, untilMs + CAREFUL_AFTER_LIMIT_MS);
      if (untilMs <= openAt) return false;
      openAt = untilMs;
      return anew;
    },

    closedForMs() {
      return Math.max(0, openAt - now());
    },

    async waitOpen(signal) {
      // The gate may close again while waiting: wait until it is open when looked at.
      for (let wait = openAt - now(); wait > 0; wait = openAt - now()) await sleep(wait, signal);
    },

    async turn(signal) {
      if (now() >= carefulUntil) return nothing;
      const previous = tail;
      let release = nothing;
      const mine = new Promise<void>((resolve) => (release = resolve));
      tail = previous.then(() => mine);
      try {
        await abandonOnAbort(previous, signal);
      } catch (error) {
        // Given up before its turn: the turn passes on as soon as it would have come.
        void previous.then(release);
        throw error;
      }
      return release;
    },
  };
}
