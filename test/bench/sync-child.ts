// One sync in a process of its own, for the `sync` bench's peak memory of the syncing process alone
// (the sandbox runs in another process): `node bin/run-ts.mjs test/bench/sync-child.ts BASE_URL
// TOKEN REPLICA_FILE [--full] [--trainer] [--whole-answers]`. Prints one JSON line; maxRSS is in KiB, as
// Node gives it. --whole-answers: every answer parsed whole, as before the streaming reader
// (test/sync/stream-reader.test.ts shows that this one fails where the streaming one fits).
import { performance } from 'node:perf_hooks';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica } from '../../sync/db/open';
import { runSync } from '../../sync/pull/engine';

const [baseUrl, token, file, ...flags] = process.argv.slice(2);
if (!baseUrl || !token || !file) {
  console.error(
    'usage: sync-child.ts BASE_URL TOKEN REPLICA_FILE [--full] [--trainer] [--whole-answers]',
  );
  process.exit(2);
}
// The largest answer read: one answer parsed whole is a floor under the peak.
let largest = { path: '', bytes: 0 };
const api = createApiClient({
  baseUrl,
  tokens: staticToken(token),
  maxInFlight: 4,
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
  options: {
    profile: flags.includes('--trainer') ? 'trainer' : 'office',
    full: flags.includes('--full'),
  },
});
const seconds = (performance.now() - started) / 1000;
await replica.close();
console.log(
  JSON.stringify({
    ok: summary.ok,
    requests: summary.requests,
    records: summary.records,
    seconds,
    beforeSyncRssKiB,
    maxRssKiB: process.resourceUsage().maxRSS,
    largestAnswer: largest,
  }),
);
