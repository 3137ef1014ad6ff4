// Browser mode's host alone in this process, for the `ui-host` bench (test/bench/ui-host-bench.ts):
// `node bin/run-ts.mjs test/bench/ui-host-child.ts --demo SCALE` or `... --service JSON` (the
// service's addresses as spawnSandbox gives them). It starts browser mode as `npm start --
// --browser` does (startBrowserMode through tsx, a clean user data folder), signs in over the
// WebSocket as the page would, waits for the first sync's end and prints one JSON line of the
// event loop's figures. A process of its own, because the bench's process also holds the other
// cases' modules and garbage: its collector's pauses are not the host's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { startBrowserMode } from '../../electron/browser-main';
import { sandboxDemo } from '../../electron/demo';
import type { CoreEvent } from '../../sync/contract';
import type { DemoProvider } from '../../sync/host/session';
import type { SandboxInfo } from '../support/sandbox-process';

export interface LoopFigures {
  /** The first sync, from "syncing" to its end, in seconds. */
  syncSeconds: number;
  records: number;
  requests: number;
  /** The worst lateness of a 5 ms timer during the sync (ms). */
  longestBlockMs: number;
  /** monitorEventLoopDelay's max and p99 (ms). */
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  /** Blocks over 50 ms (timer lateness). */
  blocksOver50ms: number;
}

const [mode, value] = process.argv.slice(2);
if ((mode !== '--demo' && mode !== '--service') || !value) {
  console.error('usage: ui-host-child.ts --demo small|medium|large | --service JSON');
  process.exit(2);
}
console.log(JSON.stringify(await measure(mode === '--demo' ? demoOf(value) : serviceOf(value))));

function demoOf(scale: string): DemoProvider {
  if (scale !== 'small' && scale !== 'medium' && scale !== 'large')
    throw new Error(`unknown scale ${scale}`);
  return sandboxDemo({ scale });
}

/** A sandbox in another process, as a real service is: its addresses, as spawnSandbox gives them. */
function serviceOf(json: string): DemoProvider {
  const service = JSON.parse(json) as Pick<
    SandboxInfo,
    'baseUrl' | 'authUrl' | 'tokenUrl' | 'clientId'
  >;
  return { start: async () => ({ ...service, close: async () => {} }) };
}

async function measure(demo: DemoProvider): Promise<LoopFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'vorort-ui-host-'));
  const mode = await startBrowserMode({
    userDataDir: dir,
    demo,
    openExternal: async () => {
      throw new Error('no system browser in the bench');
    },
  });
  const socket = new WebSocket(mode.server.socketUrl, [mode.server.protocol], {
    origin: `http://127.0.0.1:${mode.server.port}`,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    let sampler: NodeJS.Timeout | null = null;
    let longest = 0;
    let over50 = 0;
    let started = 0;
    const finished = new Promise<{ records: number; requests: number }>((resolve, reject) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as {
          id?: number;
          ok?: boolean;
          error?: unknown;
          event?: CoreEvent;
        };
        if (message.id !== undefined && !message.ok)
          reject(new Error(JSON.stringify(message.error)));
        const event = message.event;
        if (!event) return;
        if (event.type === 'sync.state' && event.state.phase === 'syncing' && !started) {
          // The sync begins: measure from here.
          started = performance.now();
          histogram.enable();
          let last = performance.now();
          sampler = setInterval(() => {
            const now = performance.now();
            const late = now - last - 5;
            last = now;
            if (late > longest) longest = late;
            if (late > 50) over50 += 1;
          }, 5);
        }
        if (event.type === 'sync.finished') {
          if (!event.ok) reject(new Error('the first sync failed'));
          else resolve({ records: event.records, requests: event.requests });
        }
      });
    });
    socket.send(JSON.stringify({ id: 1, call: 'account.demo', args: {} }));
    const { records, requests } = await finished;
    const ended = performance.now();
    if (sampler) clearInterval(sampler);
    histogram.disable();
    return {
      syncSeconds: round((ended - started) / 1000),
      records,
      requests,
      longestBlockMs: round(longest),
      loopDelayMaxMs: round(histogram.max / 1e6),
      loopDelayP99Ms: round(histogram.percentile(99) / 1e6),
      blocksOver50ms: over50,
    };
  } finally {
    socket.close();
    await mode.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
