// bin/parent-shell.ts with real processes: `sh -c 'node …'` as npm runs a script (dash is
// Debian's /bin/sh), the child watching its shell. A SIGINT or SIGTERM to the shell ends the
// child; the shell stopped and continued (`kill -STOP`/`-CONT`), or the shell and the child
// stopped and continued together (Ctrl+Z, then `fg`), does not.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./support/parent-shell-child.ts', import.meta.url));
const dash =
  process.platform === 'linux' && existsSync('/bin/sh') && /dash$/.test(realpathSync('/bin/sh'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  shell: ChildProcessWithoutNullStreams;
  output(): string;
  /** Resolves with the child's next line, or rejects after timeoutMs. */
  nextLine(timeoutMs: number): Promise<string>;
  /** The child answers "alive" through its shell's stdin when it still runs. */
  alive(): Promise<boolean>;
}

const runs: Run[] = [];

/** `sh -c 'node <child>'` in a process group of its own (to stop both as Ctrl+Z does). */
async function start(): Promise<Run> {
  const command = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(CHILD)}`;
  const shell = spawn('/bin/sh', ['-c', command], {
    detached: true,
    env: { ...process.env, npm_lifecycle_event: 'test' },
  });
  let output = '';
  let read = 0;
  const waiting: (() => void)[] = [];
  shell.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    for (const wake of waiting.splice(0)) wake();
  });
  const nextLine = async (timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = output.indexOf('\n', read);
      if (end >= 0) {
        const line = output.slice(read, end);
        read = end + 1;
        return line;
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no line within ${timeoutMs} ms (output: ${JSON.stringify(output)})`);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, left);
      });
    }
  };
  const run: Run = {
    shell,
    output: () => output,
    nextLine,
    async alive() {
      shell.stdin.write('?\n');
      return (await nextLine(2_000).catch(() => 'none')) === 'alive';
    },
  };
  runs.push(run);
  expect(await nextLine(20_000)).toBe('ready');
  return run;
}

afterEach(() => {
  for (const run of runs.splice(0)) {
    try {
      process.kill(-run.shell.pid!, 'SIGKILL');
    } catch {
      // Ended already.
    }
  }
});

describe.skipIf(!dash)('watching the parent shell (npm through dash)', () => {
  it('a SIGINT to the shell is a SIGINT for the child, at once', async () => {
    const run = await start();
    run.shell.kill('SIGINT');
    expect(await run.nextLine(3_000)).toBe('SIGINT');
  });

  it('a SIGTERM to the shell (the shell gone) is a SIGTERM for the child', async () => {
    const run = await start();
    run.shell.kill('SIGTERM');
    expect(await run.nextLine(3_000)).toBe('SIGTERM');
  });

  it('the shell stopped and continued (kill -STOP, kill -CONT) is no SIGINT', async () => {
    const run = await start();
    for (let round = 0; round < 2; round += 1) {
      run.shell.kill('SIGSTOP');
      await sleep(500);
      run.shell.kill('SIGCONT');
      await sleep(600);
      expect(await run.alive(), run.output()).toBe(true);
    }
    // Still watching: a real SIGINT afterwards ends it.
    run.shell.kill('SIGINT');
    expect(await run.nextLine(3_000)).toBe('SIGINT');
  });

  it('the shell and the child stopped and continued together (Ctrl+Z, then fg) is no SIGINT', async () => {
    const run = await start();
    // Ctrl+Z sends SIGTSTP to the terminal's foreground group, which the kernel drops for a
    // group without a parent in its session (as this detached one): SIGSTOP stops it alike.
    const group = -run.shell.pid!;
    for (let round = 0; round < 2; round += 1) {
      process.kill(group, 'SIGSTOP');
      await sleep(500);
      process.kill(group, 'SIGCONT');
      await sleep(600);
      expect(await run.alive(), run.output()).toBe(true);
    }
    run.shell.kill('SIGINT');
    expect(await run.nextLine(3_000)).toBe('SIGINT');
  });
});
