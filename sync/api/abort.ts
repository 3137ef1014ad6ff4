// Cancellation plumbing. Written by hand instead of AbortSignal.any so that every listener the
// client adds to a long-lived caller signal is removed again when its request ends (a sync sends
// thousands of requests under one signal) and so the client knows which of the two fired.

export interface Deadline {
  /** Aborts when the caller's signal aborts or the time-out passes, whichever comes first. */
  readonly signal: AbortSignal;
  readonly timedOut: () => boolean;
  /**
   * Moves the time-out `ms` later: time the client spent on its own work while the answer
   * arrived (reading a streamed body), which is not the service's slowness.
   */
  readonly extend: (ms: number) => void;
  /** Clears the timer and the listener; call when the request is finished. */
  readonly dispose: () => void;
}

export function createDeadline(callerSignal: AbortSignal | undefined, timeoutMs: number): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  let credit = 0;
  const fire = () => {
    if (credit > 0) {
      timer = setTimeout(fire, credit);
      credit = 0;
      return;
    }
    timedOut = true;
    controller.abort(new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError'));
  };
  let timer = setTimeout(fire, timeoutMs);
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    extend: (ms) => {
      credit += ms;
    },
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** Thrown internally when the caller's signal fires; the transport turns it into ApiError 'cancelled'. */
export class CancelledSignal extends Error {
  override readonly name = 'CancelledSignal';
}

/** Resolves after `ms`, or rejects with CancelledSignal as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CancelledSignal('cancelled'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledSignal('cancelled'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Settles like `promise`, but rejects with CancelledSignal as soon as `signal` aborts. The work
 * behind `promise` must notice the same signal itself; this only stops the caller from waiting
 * (e.g. for a queue slot that a cancelled request would otherwise still wait for).
 */
export function abandonOnAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledSignal('cancelled'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
