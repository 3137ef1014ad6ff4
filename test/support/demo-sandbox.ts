// electron/demo.ts's provider for tests of the app session: the embedded sandbox in the user data
// folder, started on port 0 with its logins approved; `current()` is the one running now (null
// once closed), for tests that read or change the service behind the app.
import { join } from 'node:path';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server';
import type { DemoProvider } from '../../sync/host/session';

export function demoSandbox(options: Partial<SandboxOptions> = {}): DemoProvider & {
  current(): RunningSandbox | null;
} {
  let running: RunningSandbox | null = null;
  return {
    current: () => running,
    async start(dataDir) {
      const sandbox = await startSandbox({
        port: 0,
        prefix: '/core/v1',
        scale: 'small',
        data: join(dataDir, 'sandbox.sqlite'),
        autoApprove: true,
        ...options,
      });
      running = sandbox;
      return {
        baseUrl: sandbox.baseUrl,
        authUrl: sandbox.authUrl,
        tokenUrl: sandbox.tokenUrl,
        clientId: sandbox.clientId,
        close: async () => {
          await sandbox.close();
          if (running === sandbox) running = null;
        },
      };
    },
  };
}
