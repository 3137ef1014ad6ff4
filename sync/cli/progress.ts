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
  if (!stream.isTTY) {
    // Not a terminal (a log file, CI): one line per collection when it finishes is enough.
    let current: SyncProgress | undefined;
    const flush = () => {
      if (current)
        stream.write(
          `${current.collection}: ${current.done}${current.total !== undefined ? ` of ${current.total}` : ''}\n`,
        );
    };
    return {
      update(event) {
        if (current && current.collection !== event.collection) flush();
        current = event;
      },
      stop: flush,
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      format: '{collection} [{bar}] {value}/{total}',
      stream,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let collection: string | undefined;
  return {
    update(event) {
      const total = event.total ?? Math.max(event.done, 1);
      if (event.collection !== collection) {
        if (collection) bar.stop();
        collection = event.collection;
        bar.start(total, event.done, { collection: event.collection.padEnd(20) });
      } else {
        bar.setTotal(total);
        bar.update(event.done);
      }
    },
    stop: () => {
      if (collection) bar.stop();
    },
  };
}
