// Group commit: small writes of work going on side by side (the outbox's operations in flight
// together) share one transaction instead of one commit each. A write asked for is not run at
// once but at the end of the event loop's turn, with every other one asked for in that turn:
// answers that arrived together are written together, and the marks of the requests that leave
// next. Each write runs in its own savepoint, so one that throws is undone alone and its caller
// gets the error; the others commit. A caller's promise settles only after the commit, so what
// it does next (send a request marked in flight) happens after its write is on disk.
import type { Sqlite } from './sqlite';

export type GroupCommit = <T>(work: () => T) => Promise<T>;

interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function groupCommit(sqlite: Sqlite): GroupCommit {
  let queued: Queued[] = [];

  const flush = () => {
    const batch = queued;
    queued = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      sqlite
        .transaction(() => {
          for (const item of batch) {
            try {
              // Nested: a savepoint, rolled back alone when its work throws.
              outcomes.push({ ok: true, value: sqlite.transaction(item.work)() });
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          }
        })
        .immediate();
    } catch (error) {
      // The commit itself failed (a deferred foreign key, a full disk): nothing of the batch holds.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  };

  return <T>(work: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (queued.length === 0) setImmediate(flush);
      queued.push({ work, resolve: resolve as (value: unknown) => void, reject });
    });
}
