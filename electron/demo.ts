// The demo's DemoProvider (sync/host/session.ts): the sandbox started on a free loopback port in
// a worker thread of this process (the host's event loop stays free: the sandbox builds its large
// answers on its own thread), its data kept in the user data folder (demo/sandbox.sqlite), its
// login page approving by itself, so the session signs in through the real login flow without a
// form. No other program gets in that way: the login approves only requests carrying a secret the
// host draws per run and hands the thread (loginHeaders, sent by the host's login only), and the
// service answers only at its own loopback address and the ports the host puts in front of it
// (acceptHostPort), so no web page reaches it by DNS rebinding. Its private feed's secret is drawn
// at random and kept with its data, not the seed's every install shares. close() stops the
// thread; the thread never keeps the host alive, and a crash of it is said in words (onStopped),
// not left as a hang.
// Only this file and electron/browser-main.ts may start the sandbox (the lint rooms say so): the
// worker's entry (demo-worker.ts) runs serveDemoSandbox from here.
import { randomBytes } from 'node:crypto';
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
  /** The login's per-run secret: only the host knows it (startSandbox's approvalSecret). */
  approvalSecret: string;
}

/** What the host tells the worker besides 'close': a port that reaches the service too. */
export interface DemoAcceptPort {
  type: 'accept-port';
  port: number;
}

/** What the worker tells the host. */
export type DemoWorkerMessage =
  | {
      type: 'ready';
      baseUrl: string;
      authUrl: string;
      tokenUrl: string;
      clientId: string;
      /** What the host's login sends to approve: the per-run secret in the sandbox's header. */
      loginHeaders: Record<string, string>;
    }
  | { type: 'failed'; message: string }
  | { type: 'accepted'; port: number };

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
        approvalSecret: randomBytes(32).toString('hex'),
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
            else if (message.type === 'failed')
              reject(new Error(`The demo's sandbox could not start: ${message.message}`));
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

      // acceptHostPort's answers, by port (the worker answers each in order); listened
      // to before unref(), as a listener added later holds the host alive again.
      const accepting = new Map<number, Array<() => void>>();
      worker.on('message', (message: DemoWorkerMessage) => {
        if (message.type !== 'accepted') return;
        for (const done of accepting.get(message.port) ?? []) done();
        accepting.delete(message.port);
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
        loginHeaders: ready.loginHeaders,
        acceptHostPort(port) {
          return new Promise<void>((resolve, reject) => {
            if (closing) {
              reject(new Error("The demo's sandbox is closing."));
              return;
            }
            if (!(Number.isInteger(port) && port > 0 && port < 65536)) {
              reject(new RangeError(`A port is a whole number from 1 to 65535, got ${port}.`));
              return;
            }
            accepting.set(port, [...(accepting.get(port) ?? []), resolve]);
            // A thread that ended meanwhile never answers.
            void exit.then(() => reject(new Error("The demo's sandbox has stopped.")));
            worker.postMessage({ type: 'accept-port', port } satisfies DemoAcceptPort);
          });
        },
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
  let loginHeaders: Record<string, string>;
  try {
    // Demo data is personal-looking data too: the file (and SQLite's -wal/-shm beside it,
    // which take its mode) is the user's alone, as the replica is.
    closeSync(openSync(input.data, 'a', 0o600));
    chmodSync(input.data, 0o600);
    const { startSandbox, APPROVAL_HEADER } = await import('../sandbox/server');
    loginHeaders = { [APPROVAL_HEADER]: input.approvalSecret };
    sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      prefix: '/core/v1',
      scale: input.scale,
      seed: input.seed,
      data: input.data,
      // Signs in by itself, but only the host that holds the per-run secret.
      autoApprove: true,
      approvalSecret: input.approvalSecret,
      // No web page under a name of its own reaches it (DNS rebinding).
      checkHost: true,
      // The demo's feed secret is this install's own, kept with its data in the user data folder.
      randomFeedSecrets: true,
    });
  } catch (error) {
    post({ type: 'failed', message: messageOf(error) });
    port.close();
    return;
  }
  port.on('message', (message: unknown) => {
    if (message === 'close') {
      void sandbox.close().finally(() => port.close());
      return;
    }
    const accept = message as Partial<DemoAcceptPort> | null;
    if (accept?.type === 'accept-port' && typeof accept.port === 'number') {
      sandbox.acceptHostPort(accept.port);
      post({ type: 'accepted', port: accept.port });
    }
  });
  post({
    type: 'ready',
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    tokenUrl: sandbox.tokenUrl,
    clientId: sandbox.clientId,
    loginHeaders,
  });
}
