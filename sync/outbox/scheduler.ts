// Keeps the outbox moving in a long-running process (the desktop host), so a queue never stalls
// silently (DESIGN rule 12): a push after every committed local write, again at once while a push
// leaves work that is due, and at the time the next retry falls due. One push at a time; kicks
// during a push fold into one more.

export interface OutboxSchedulerOptions {
  /** One push of the outbox; its answer is ignored here (the caller reports it). */
  push: () => Promise<unknown>;
  /** When the next operation waiting for its retry time is due (ISO 8601), or null. */
  nextDue: () => string | null;
  now?: () => number;
  /** A push that threw: reported, and the timer stays armed. */
  onError?: (error: unknown) => void;
  /** Upper bound of one timer, so a clock change cannot park the queue for long. Default 60 s. */
  maxDelayMs?: number;
}

export class OutboxScheduler {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: OutboxSchedulerOptions) {}

  /** A local write was committed, the network came back, a login happened: push soon. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      } else this.arm();
    });
  }

  /** Resolves when no push is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    try {
      await this.options.push();
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** The timer for the next retry that falls due. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const due = this.options.nextDue();
    if (due === null || this.stopped) return;
    const now = this.options.now?.() ?? Date.now();
    const delay = Math.min(Math.max(0, Date.parse(due) - now), this.options.maxDelayMs ?? 60_000);
    this.timer = setTimeout(() => this.kick(), delay);
    this.timer.unref();
  }
}
