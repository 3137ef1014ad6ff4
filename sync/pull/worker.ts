// Runs one sync in a worker thread of this process (DESIGN rule 13: the main process stays
// responsive; a single large answer cannot be parsed in bounded chunks). The worker opens its
// own connection to the replica; WAL lets the main thread read it meanwhile.
import { Worker } from 'node:worker_threads';
import { ApiError, type TokenSource } from '../api';
import type { PullRunner, SyncSummary } from './engine';
import type { SyncProgress } from './options';
import type { SerializedError, WorkerMessage, WorkerSyncInput } from './worker-protocol';

export interface WorkerSyncRun extends WorkerSyncInput {
  onProgress?: (event: SyncProgress) => void;
  signal?: AbortSignal;
  /** The worker's entry; a packaged app passes its built file. Default: the TypeScript sources, through tsx. */
  workerUrl?: URL;
}

/**
 * The sync worker's old generation, in MB. Its live data stays small (the streaming reader: a
 * `large` office's sync completes within 96 MB, test/sync/stream-reader.test.ts), but without a
 * limit V8 lets the garbage of 21,000 answers grow the heap to 230–290 MB before it collects;
 * with this one the process peaks at about 235 MB instead of 280–500 (issue 25). Twice the
 * proven floor: a sync that needed more would stop with an error and commit nothing of the
 * answer it was reading (DESIGN rule 14).
 */
export const SYNC_WORKER_HEAP_MB = 192;

/**
 * The sync worker's semi-space, in MB: V8's young generation is three of them (its two halves and
 * the space for large new objects). V8's default, 16, lets more of the answers' short-lived objects
 * stand before a scavenge frees them: a full `large` office sync peaked at 297–309 MB with it,
 * 265–303 MB with 8, 217–289 MB with 4; first syncs 224–246 MB with 8, 207–220 MB with 4, in the
 * same time (paired runs, docs/benches.md; issue 25).
 */
export const SYNC_WORKER_SEMI_SPACE_MB = 4;

/** What the person reads when the sync needed more than its limit (V8's words name a heap). */
const OUT_OF_MEMORY = () =>
  new Error(
    `it needed more than the ${SYNC_WORKER_HEAP_MB} MB of memory it may use and stopped; what it had written is kept and the next sync goes on from there`,
  );

function outOfMemory(error: Error): boolean {
  return (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
}

export function runSyncInWorker(run: WorkerSyncRun): Promise<SyncSummary> {
  const { onProgress, signal, workerUrl, ...input } = run;
  const worker = new Worker(workerUrl ?? new URL('./sync-worker-source.mjs', import.meta.url), {
    workerData: input,
    resourceLimits: {
      maxOldGenerationSizeMb: SYNC_WORKER_HEAP_MB,
      maxYoungGenerationSizeMb: 3 * SYNC_WORKER_SEMI_SPACE_MB,
    },
  });
  const cancel = () => worker.postMessage('cancel');
  signal?.addEventListener('abort', cancel, { once: true });
  // Settles once the worker has exited: its replica connection is closed by then.
  return new Promise<SyncSummary>((resolve, reject) => {
    let outcome: { summary: SyncSummary } | { error: Error } | undefined;
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') onProgress?.(message.event);
      else if (message.type === 'done') outcome = { summary: message.summary };
      else outcome = { error: revive(message.error) };
    });
    worker.on('error', (error) => {
      outcome ??= { error: outOfMemory(error) ? OUT_OF_MEMORY() : error };
    });
    worker.on('exit', (code) => {
      signal?.removeEventListener('abort', cancel);
      if (!outcome)
        reject(new Error(`The sync worker stopped (exit code ${code}) before it finished.`));
      else if ('summary' in outcome) resolve(outcome.summary);
      else reject(outcome.error);
    });
  });
}

export interface WorkerPullSetup extends Pick<
  WorkerSyncRun,
  'replicaFile' | 'client' | 'workerUrl'
> {
  /** The main thread's tokens: the worker gets the current one, and a fresh one after a 401. */
  tokens: TokenSource;
}

/**
 * A pull in a worker thread (the desktop app's and browser mode's), as a PullRunner. The worker
 * holds a fixed token: on a 401 a fresh one is asked for here and the pull tried once more. Its
 * client keeps the pace of `client` (the setup's, as the main thread's client does).
 */
export function pullInWorker(setup: WorkerPullSetup): PullRunner {
  return async (run) => {
    // Functions do not cross into a worker: it takes the defaults' clocks.
    const { today: _today, now: _now, ...options } = run.options;
    const pull = (token: string) =>
      runSyncInWorker({
        replicaFile: setup.replicaFile,
        token,
        client: setup.client,
        options: {
          ...options,
          ...(run.budget === undefined ? {} : { requestBudget: run.budget }),
        },
        ...(run.signal ? { signal: run.signal } : {}),
        ...(run.onProgress ? { onProgress: run.onProgress } : {}),
        ...(setup.workerUrl ? { workerUrl: setup.workerUrl } : {}),
      });
    try {
      return await pull(await setup.tokens.getAccessToken());
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'auth')) throw error;
      const fresh = await setup.tokens.refreshAccessToken?.();
      if (!fresh) throw error;
      return pull(fresh);
    }
  };
}

function revive(error: SerializedError): Error {
  if (error.name === 'ApiError' && error.kind && error.url && error.method) {
    const revived = new ApiError({
      kind: error.kind,
      url: error.url,
      method: error.method,
      ...(error.status === undefined ? {} : { status: error.status }),
      errors: error.errors ?? [],
    });
    revived.message = error.message;
    return revived;
  }
  return Object.assign(new Error(error.message), { name: error.name });
}
