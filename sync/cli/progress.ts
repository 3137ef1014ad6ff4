// Sync progress for a person (a bar per collection on a terminal) or for a program (JSON lines).
import cliProgress from 'cli-progress';
import type { SyncProgress } from '../pull/options';

export interface ProgressReporter {
  update(event: SyncProgress): void;
  stop(): void;
}

export function jsonLinesProgress(write: (line: string) => void): ProgressReporter {
  return {
    update: (event) => write(JSON.stringify({ type: 'progress', ...event })),
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
        const payload = { collection: event.collection.padEnd(20) };
        byCollection.set(event.collection, bars.create(total, event.done, payload));
      }
    },
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
      `${event.collection}: ${event.done}${event.total !== undefined ? ` of ${event.total}` : ''}\n`,
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
    stop() {
      for (const event of open.values()) line(event);
      open.clear();
    },
  };
}
