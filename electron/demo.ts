// The demo's DemoProvider (sync/host/session.ts): the sandbox started in this process on a free
// loopback port, its data kept in the user data folder (demo/sandbox.sqlite), its login page
// approving by itself, so the session signs in through the real login flow without a form.
// Only this file and electron/browser-main.ts may start the sandbox (the lint rooms say so).
import { join } from 'node:path';
import type { DemoProvider } from '../sync/host/session';
import { startSandbox } from '../sandbox/server';

export interface DemoOptions {
  /** Demo data size; default small (a club's worth). */
  scale?: 'small' | 'medium' | 'large';
  /** Seed of the demo data; default 1. */
  seed?: number;
}

export function sandboxDemo(options: DemoOptions = {}): DemoProvider {
  return {
    async start(dataDir) {
      const sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        prefix: '/core/v1',
        scale: options.scale ?? 'small',
        seed: options.seed ?? 1,
        data: join(dataDir, 'sandbox.sqlite'),
        autoApprove: true,
      });
      return {
        baseUrl: sandbox.baseUrl,
        authUrl: sandbox.authUrl,
        tokenUrl: sandbox.tokenUrl,
        clientId: sandbox.clientId,
        close: () => sandbox.close(),
      };
    },
  };
}
