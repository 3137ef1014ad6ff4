// The sandbox's one clock: real time plus an offset that only grows. Tests move it forward
// (the admin interface's POST /_admin/clock) to let days or weeks pass on the service in a
// moment: it feeds the store's change times, "today" of the interface's date filters and the
// interface's Date header. The OAuth server keeps real time on purpose, so a token does not
// expire because a test moved the service's clock a week.

export class SandboxClock {
  private offset = 0;

  /** Milliseconds since the epoch, as the service sees them. */
  now(): number {
    return Date.now() + this.offset;
  }

  /** How far the clock is ahead of real time. */
  get offsetMs(): number {
    return this.offset;
  }

  /** Moves the clock forward; never back, as change times must stay ordered. */
  advance(ms: number): void {
    if (!(Number.isFinite(ms) && ms >= 0))
      throw new RangeError(`The clock moves forward only, by a finite number of ms; got ${ms}.`);
    this.offset += ms;
  }
}
