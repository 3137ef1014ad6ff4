// The demo's DemoProvider (sync/host/session.ts): the sandbox started on a free loopback port in
// a worker thread of this process (the host's event loop stays free: the sandbox builds its large
// answers on its own thread), its data kept in the user data folder (demo/sandbox.sqlite), its
// login page approving by itself, so the session signs in through the real login flow without a
// form. close() stops the thread; the thread never keeps the host alive, and a crash of it is
// said in words (onStopped), not left as a hang.
// Only this file and electron/browser-main.ts may start the sandbox (the lint rooms say so): the
// worker's entry (demo-worker.ts) runs serveDemoSandbox from here.
import { chmodSync, closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { RunningSandbox } from '../sandbox/server';
import type { DemoProvider } from '../sync/host/session';

export interface DemoOptions {
  /** Demo data size; default small (a club's worth). */
  scale?: 'small' | 'medium' | 'large';
  /** Seed of the demo data; default 1. */
  seed?: number;
  /**
   * The worker's entry. Default: beside this code, the built demo-worker.mjs in the Electron
   * bundle (npm run build:electron), the TypeScript sources' demo-worker-source.mjs otherwise.
   */
  workerUrl?: URL;
  /** The sandbox's thread stopped by itself (a crash); default: said on the console. */
  onStopped?: (error: Error) => void;
  /** How long close() waits for the sandbox to finish its requests before it ends the thread. */
  closeTimeoutMs?: number;
}

/** What the host hands the worker. */
export interface DemoWorkerInput {
  scale: 'small' | 'medium' | 'large';
  seed: number;
  data: string;
}

/** What the worker tells the host. */
export type DemoWorkerMessage =
  | {
      type: 'ready';
      baseUrl: string;
      authUrl: string;
      tokenUrl: string;
      clientId: string;
    }
  | { type: 'failed'; message: string };

/** The worker's entry beside this code: the bundle's built file, or the sources' (through a TS loader). */
export function defaultDemoWorkerUrl(here: string = import.meta.url): URL {
  return new URL(here).pathname.endsWith('.ts')
    ? new URL('./demo-worker-source.mjs', here)
    : new URL('./demo-worker.mjs', here);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function sandboxDemo(options: DemoOptions = {}): DemoProvider {
  return {
    async start(dataDir) {
      const input: DemoWorkerInput = {
        scale: options.scale ?? 'small',
        seed: options.seed ?? 1,
        data: join(dataDir, 'sandbox.sqlite'),
      };
      const worker = new Worker(options.workerUrl ?? defaultDemoWorkerUrl(), {
        workerData: input,
      });
      let closing = false;
      let exited: (code: number) => void = () => {};
      const exit = new Promise<number>((resolve) => {
        exited = resolve;
      });
      let crash: Error | undefined;
      worker.on('error', (error) => {
        crash ??= error;
      });
      worker.on('exit', (code) => exited(code));

      const ready = await new Promise<Extract<DemoWorkerMessage, { type: 'ready' }>>(
        (resolve, reject) => {
          worker.once('message', (message: DemoWorkerMessage) => {
            if (message.type === 'ready') resolve(message);
            else reject(new Error(`The demo's sandbox could not start: ${message.message}`));
          });
          void exit.then((code) =>
            reject(
              new Error(
                `The demo's sandbox could not start: ${
                  crash ? messageOf(crash) : `its thread ended (exit code ${code})`
                }`,
              ),
            ),
          );
        },
      ).catch(async (error: unknown) => {
        await worker.terminate();
        throw error;
      });

      // Running, the thread does not keep the host alive: the host quitting ends it.
      worker.unref();
      void exit.then((code) => {
        if (closing) return;
        const error = new Error(
          `The demo's sandbox stopped by itself: ${
            crash ? messageOf(crash) : `its thread ended (exit code ${code})`
          }. Die Demo ist unerwartet beendet worden.`,
        );
        if (options.onStopped) options.onStopped(error);
        else console.error(error.message);
      });

      let closed: Promise<void> | undefined;
      return {
        baseUrl: ready.baseUrl,
        authUrl: ready.authUrl,
        tokenUrl: ready.tokenUrl,
        clientId: ready.clientId,
        close() {
          return (closed ??= (async () => {
            closing = true;
            worker.ref();
            // The sandbox finishes its running requests and closes its store, then the thread
            // ends by itself; one that does not is ended.
            worker.postMessage('close');
            const timer = setTimeout(
              () => void worker.terminate(),
              options.closeTimeoutMs ?? 10_000,
            );
            await exit;
            clearTimeout(timer);
          })());
        },
      };
    },
  };
}

/** The worker's side (demo-worker.ts): starts the sandbox, says where, and stops it on 'close'. */
export async function serveDemoSandbox(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('serveDemoSandbox runs in a worker thread only');
  const input = workerData as DemoWorkerInput;
  const post = (message: DemoWorkerMessage) => port.postMessage(message);
  let sandbox: RunningSandbox;
  try {
    // Demo data is personal-looking data too: the file (and SQLite's -wal/-shm beside it,
    // which take its mode) is the user's alone, as the replica is.
    closeSync(openSync(input.data, 'a', 0o600));
    chmodSync(input.data, 0o600);
    const { startSandbox } = await import('../sandbox/server');
    sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      prefix: '/core/v1',
      scale: input.scale,
      seed: input.seed,
      data: input.data,
      autoApprove: true,
    });
  } catch (error) {
    post({ type: 'failed', message: messageOf(error) });
    port.close();
    return;
  }
  port.on('message', (message: unknown) => {
    if (message !== 'close') return;
    void sandbox.close().finally(() => port.close());
  });
  post({
    type: 'ready',
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    tokenUrl: sandbox.tokenUrl,
    clientId: sandbox.clientId,
  });
}
