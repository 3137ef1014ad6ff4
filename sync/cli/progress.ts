// Sync progress for a person (a bar per collection on a terminal) or for a program (JSON lines).
import cliProgress from 'cli-progress';
import type { WaitEvent } from '../api';
import type { SyncProgress } from '../pull/options';
import { collectionLabel } from './collections';

export interface ProgressReporter {
  update(event: SyncProgress): void;
  /** A wait of a second or more is beginning (only those worth saying reach here: see sayWaits). */
  waiting(event: WaitEvent): void;
  stop(): void;
}

const WAIT_REASONS: Record<WaitEvent['reason'], string> = {
  'service-limit': 'service limit',
  'own-pace': 'own pace',
  retry: 'retrying after a failure',
};

/** "waiting 42 s (service limit)" */
export function waitingLine(event: WaitEvent): string {
  return `waiting ${event.seconds} s (${WAIT_REASONS[event.reason]})`;
}

/**
 * The transport reports every wait of a second or more; with several requests queued on the own
 * pace that is one per request. Passes on a wait when its reason changes, when the last one said
 * is over, or when it ends well after that one: a person hears of every pause, not of each request.
 */
export function sayWaits(
  say: (event: WaitEvent) => void,
  now: () => number = Date.now,
): (event: WaitEvent) => void {
  let said: { reason: WaitEvent['reason']; endsAt: number } | undefined;
  return (event) => {
    const endsAt = now() + event.seconds * 1000;
    const worth =
      !said || said.reason !== event.reason || now() >= said.endsAt || endsAt > said.endsAt + 5000;
    if (!worth) return;
    said = { reason: event.reason, endsAt };
    say(event);
  };
}

export function jsonLinesProgress(write: (line: string) => void): ProgressReporter {
  return {
    update: (event) => write(JSON.stringify({ type: 'progress', ...event })),
    waiting: (event) =>
      write(
        JSON.stringify({
          type: 'waiting',
          seconds: event.seconds,
          reason: event.reason,
          url: event.url,
        }),
      ),
    stop: () => {},
  };
}

export function terminalProgress(stream: NodeJS.WriteStream): ProgressReporter {
  return stream.isTTY ? progressBars(stream) : progressLines(stream);
}

/** On a terminal: a bar per collection (collections run side by side). */
function progressBars(stream: NodeJS.WriteStream): ProgressReporter {
  const bars = new cliProgress.MultiBar(
    {
      format: '{collection} [{bar}] {value}/{total}',
      stream,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const byCollection = new Map<string, cliProgress.SingleBar>();
  return {
    update(event) {
      const total = event.total ?? Math.max(event.done, 1);
      const bar = byCollection.get(event.collection);
      if (bar) {
        bar.setTotal(total);
        bar.update(event.done);
      } else {
        const payload = { collection: collectionLabel(event.collection).padEnd(20) };
        byCollection.set(event.collection, bars.create(total, event.done, payload));
      }
    },
    waiting: (event) => bars.log(`${waitingLine(event)}\n`),
    stop: () => bars.stop(),
  };
}

/**
 * Not a terminal (a log file, CI): a line per collection when it is complete, and at the end a
 * line for each collection whose total was never known.
 */
function progressLines(stream: NodeJS.WriteStream): ProgressReporter {
  const open = new Map<string, SyncProgress>();
  const written = new Set<string>();
  const line = (event: SyncProgress) =>
    stream.write(
      `${collectionLabel(event.collection)}: ${event.done}${event.total !== undefined ? ` of ${event.total}` : ''}\n`,
    );
  return {
    update(event) {
      if (written.has(event.collection)) return;
      if (event.total !== undefined && event.done >= event.total) {
        open.delete(event.collection);
        written.add(event.collection);
        line(event);
      } else {
        open.set(event.collection, event);
      }
    },
    waiting: (event) => stream.write(`${waitingLine(event)}\n`),
    stop() {
      for (const event of open.values()) line(event);
      open.clear();
    },
  };
}
