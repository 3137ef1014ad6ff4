// The worker thread's side of runSyncInWorker: its own service client and replica connection,
// so parsing large answers and writing the replica never block the main thread (DESIGN rule 13).
import { parentPort, workerData } from 'node:worker_threads';
import { ApiError, createApiClient, staticToken } from '../api';
import { openReplica } from '../db/open';
import { runSync } from './engine';
import type { WorkerMessage, WorkerSyncInput } from './worker-protocol';

const input = workerData as WorkerSyncInput;
const post = (message: WorkerMessage) => parentPort?.postMessage(message);
const abort = new AbortController();
parentPort?.on('message', (message: unknown) => {
  if (message === 'cancel') abort.abort();
});

const api = createApiClient({ ...input.client, tokens: staticToken(input.token) });
const replica = openReplica(input.replicaFile, { use: 'sync' });
try {
  const summary = await runSync({
    api,
    replica,
    options: input.options,
    // The pull plans its slot with the client's pace (none on loopback, 30 a minute elsewhere).
    paceRequestsPerMinute: api.pace,
    onProgress: (event) => post({ type: 'progress', event }),
    signal: abort.signal,
  });
  post({ type: 'done', summary });
} catch (error) {
  post({
    type: 'failed',
    error:
      error instanceof ApiError
        ? {
            name: 'ApiError',
            message: error.message,
            kind: error.kind,
            status: error.status,
            url: error.url,
            method: error.method,
            errors: error.errors,
          }
        : {
            name: error instanceof Error ? error.name : 'Error',
            message: error instanceof Error ? error.message : String(error),
          },
  });
} finally {
  await replica.close();
  // The cancel listener would keep this thread, and so the whole process, alive.
  parentPort?.close();
}
