// How `vorort sync` stops: the first Ctrl+C or SIGTERM cancels the sync and keeps what was synced,
// a second one ends the process at once.
import { EXIT } from './exit-codes';

/** The first SIGINT or SIGTERM cancels the sync; a second one ends the process at once. */
export function cancelOnSignals(onSecond: () => void) {
  const abort = new AbortController();
  let received: NodeJS.Signals | undefined;
  let resolveFirst: (signal: NodeJS.Signals) => void = () => {};
  const first = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) {
      onSecond();
      process.stderr.write(`vorort sync: ${signal} again, stopping at once\n`);
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.cancelled);
    }
    received = signal;
    abort.abort();
    resolveFirst(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: abort.signal,
    /** The first signal (`vorort sync --watch` waits for it). */
    first,
    received: () => received,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
