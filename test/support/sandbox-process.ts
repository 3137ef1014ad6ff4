// Starts the sandbox as a child process (`vorort sandbox --json`), so that a client measured or
// killed in this process does not share an event loop with the service it talks to.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLI } from './bundled';

export interface SandboxInfo {
  baseUrl: string;
  authUrl: string;
  tokenUrl: string;
  clientId: string;
  feedUrl: string;
  users: { id: string; role: 'office' | 'trainer' | 'member'; name: string; accessToken: string }[];
}

export interface SandboxProcess extends SandboxInfo {
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function spawnSandbox(args: string[], timeoutMs = 120_000): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--json', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<SandboxInfo>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`sandbox did not start in ${timeoutMs} ms: ${stderr}`)),
      timeoutMs,
    );
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as SandboxInfo);
      } catch {
        reject(new Error(`sandbox printed no JSON first line: ${line}\n${stderr}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${stderr}`));
    });
  });
  lines.on('line', () => {}); // keep draining stdout
  return {
    ...info,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
