// One sync in a process of its own, for the `sync` bench's peak memory of the syncing process alone
// (the sandbox runs in another process): `node bin/run-ts.mjs test/bench/sync-child.ts BASE_URL
// TOKEN REPLICA_FILE [--full] [--trainer] [--whole-answers] [--worker=FILE]`. Prints one JSON line;
// maxRSS is in KiB, as Node gives it. --whole-answers: every answer parsed whole, as before the
// streaming reader (test/sync/stream-reader.test.ts shows that this one fails where the streaming
// one fits). --worker=FILE: the sync in a worker thread of FILE (the app's sync worker), as the
// desktop app runs it, and the longest block of this process's main thread meanwhile: a main
// thread that only hosts the worker, not one holding a bench's garbage of earlier rounds.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica } from '../../sync/db/open';
import { runSync, type SyncSummary } from '../../sync/pull/engine';
import { runSyncInWorker } from '../../sync/pull/worker';

/** Requests side by side, as the bench's syncs and the app's client send them. */
const MAX_IN_FLIGHT = 4;

const [baseUrl, token, file, ...flags] = process.argv.slice(2);
if (!baseUrl || !token || !file) {
  console.error(
    'usage: sync-child.ts BASE_URL TOKEN REPLICA_FILE [--full] [--trainer] [--whole-answers] [--worker=FILE]',
  );
  process.exit(2);
}
const options = {
  profile: flags.includes('--trainer') ? ('trainer' as const) : ('office' as const),
  full: flags.includes('--full'),
};
const workerFile = flags.find((flag) => flag.startsWith('--worker='))?.slice('--worker='.length);
if (workerFile) {
  const mainLoop = monitorEventLoopDelay({ resolution: 10 });
  mainLoop.enable();
  const started = performance.now();
  const summary = await runSyncInWorker({
    replicaFile: file,
    token,
    client: { baseUrl, maxInFlight: MAX_IN_FLIGHT },
    options,
    workerUrl: pathToFileURL(workerFile),
  });
  const seconds = (performance.now() - started) / 1000;
  mainLoop.disable();
  report(summary, seconds, { mainThreadMaxBlockMs: mainLoop.max / 1e6 });
  process.exit(0);
}

// The largest answer read: one answer parsed whole is a floor under the peak.
let largest = { path: '', bytes: 0 };
const api = createApiClient({
  baseUrl,
  tokens: staticToken(token),
  maxInFlight: MAX_IN_FLIGHT,
  ...(flags.includes('--whole-answers') ? { streamAnswersFromBytes: Infinity } : {}),
  onRequest: ({ url, bytes }) => {
    if (bytes > largest.bytes) largest = { path: new URL(url).pathname, bytes };
  },
});
// Opened as the app's sync worker opens it.
const replica = openReplica(file, { use: 'sync' });
// What the process holds before the sync: Node, the TypeScript loader, the code, an empty replica.
const beforeSyncRssKiB = Math.round(process.memoryUsage().rss / 1024);
const started = performance.now();
const summary = await runSync({
  api,
  replica,
  options,
});
const seconds = (performance.now() - started) / 1000;
await replica.close();
report(summary, seconds, { beforeSyncRssKiB, largestAnswer: largest });

/** The one JSON line the bench reads. */
function report(summary: SyncSummary, seconds: number, figures: Record<string, unknown>): void {
  console.log(
    JSON.stringify({
      ok: summary.ok,
      requests: summary.requests,
      records: summary.records,
      seconds,
      maxRssKiB: process.resourceUsage().maxRSS,
      ...figures,
    }),
  );
}
