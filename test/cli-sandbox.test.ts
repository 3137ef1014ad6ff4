// `vorort sandbox` as a user runs it: a child process of the real command line, talked to over
// HTTP, stopped by signals; and its answers to bad options and --help.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { CLI } from './support/bundled';

function startCli(args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI, 'sandbox', ...args], { stdio: 'pipe' });
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

async function runCli(args: readonly string[]): Promise<Finished> {
  const child = startCli(args);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

/** Resolves with the first line on stdout; rejects if the process ends before writing one. */
function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) =>
      reject(new Error(`the sandbox exited (${code}) before printing a line`)),
    );
  });
}

/** Waits for the exit after a signal, failing the test if it takes longer than the limit. */
async function exitAfter(
  child: ChildProcessWithoutNullStreams,
  signal: NodeJS.Signals,
  limitMs: number,
) {
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = Date.now();
  child.kill(signal);
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no exit within ${limitMs} ms of ${signal}`));
    }, limitMs).unref(),
  );
  const [code] = await Promise.race([exited, timeout]);
  return { code, ms: Date.now() - started };
}

describe('vorort sandbox --json', () => {
  it('prints one JSON line first, serves the API with the printed tokens, and stops on SIGTERM with 0', async () => {
    const child = startCli(['--json', '--port', '0', '--scale', 'small', '--seed', '3']);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const summary = JSON.parse(await firstLine(child)) as {
        baseUrl: string;
        authUrl: string;
        tokenUrl: string;
        issuer: string;
        jwksUrl: string;
        clientId: string;
        feedUrl: string;
        users: { id: string; role: string; name: string; accessToken: string }[];
      };
      expect(Object.keys(summary)).toEqual([
        'baseUrl',
        'authUrl',
        'tokenUrl',
        'issuer',
        'jwksUrl',
        'clientId',
        'feedUrl',
        'users',
      ]);
      expect(summary.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(summary.authUrl.startsWith(`${summary.baseUrl}/oauth/v1`)).toBe(true);
      expect(summary.tokenUrl).toBe(`${summary.baseUrl}/oauth/v1/token`);
      expect(summary.issuer).toBe(`${summary.baseUrl}/oauth/v1`);
      expect(summary.jwksUrl).toBe(`${summary.baseUrl}/oauth/v1/jwks`);
      expect(summary.clientId).toBe('vorort-desktop');
      expect(summary.users.length).toBeGreaterThan(0);
      for (const user of summary.users) {
        expect(Object.keys(user)).toEqual(['id', 'role', 'name', 'accessToken']);
      }
      const roles = new Set(summary.users.map((user) => user.role));
      expect(roles).toEqual(new Set(['office', 'trainer', 'member']));

      const office = summary.users.find((user) => user.role === 'office');
      const response = await fetch(`${summary.baseUrl}/personal/selbst`, {
        headers: { authorization: `Bearer ${office?.accessToken}` },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { id: string } };
      expect(body.data.id).toBe(office?.id);
      expect((await fetch(summary.feedUrl)).status).toBe(200);

      const { code, ms } = await exitAfter(child, 'SIGTERM', 10_000);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${String(error)}\nstderr of the sandbox:\n${stderr}`);
    }
  });
});

describe('vorort sandbox --data', () => {
  it('writes and closes the file on SIGTERM, and the next start loads it instead of generating', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vorort-cli-'));
    const file = join(folder, 'sandbox.sqlite');
    const userIdsOfRun = async (seed: string) => {
      const child = startCli(['--json', '--port', '0', '--seed', seed, '--data', file]);
      try {
        const summary = JSON.parse(await firstLine(child)) as { users: { id: string }[] };
        expect((await exitAfter(child, 'SIGTERM', 10_000)).code).toBe(0);
        return summary.users.map((user) => user.id);
      } finally {
        child.kill('SIGKILL');
      }
    };
    try {
      const first = await userIdsOfRun('3');
      expect(await userIdsOfRun('4')).toEqual(first);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('vorort sandbox for a person', () => {
  it('prints the addresses, the client id and a token per demo user, and stops on SIGINT with 0', async () => {
    const child = startCli(['--port', '0', '--seed', '3', '--token-ttl', '120']);
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const printed = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('Ctrl+C to stop')) resolve();
      });
      child.once('exit', (code) =>
        reject(new Error(`exited with ${code} before printing its summary`)),
      );
    });
    try {
      await printed;
      expect(stdout).toMatch(/API base URL\s+http:\/\/127\.0\.0\.1:\d+/);
      expect(stdout).toMatch(/Authorize URL\s+http:\/\/127\.0\.0\.1:\d+\/oauth\/v1\/authorize/);
      expect(stdout).toMatch(/Token URL\s+http:\/\/127\.0\.0\.1:\d+\/oauth\/v1\/token/);
      expect(stdout).toMatch(/Client id\s+vorort-desktop/);
      expect(stdout).toMatch(/iCal feed\s+http:\/\/127\.0\.0\.1:\d+\/ical\/v1\//);
      expect(stdout).toMatch(/Name\s+Role\s+Id\s+Access token/);
      expect(stdout).toMatch(/\s(office)\s+[0-9a-f]{32}\s+\S{20,}/);
      expect(stdout).toContain('valid 120 s');
      const { code } = await exitAfter(child, 'SIGINT', 10_000);
      expect(code).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

// Each case costs a process start (about a second of tsx start-up), so only one per kind of
// failure runs here; sandbox/cli-options.test.ts checks every parser in-process.
describe('vorort sandbox options', () => {
  it.for([
    [['--scale', 'huge'], /--scale.*huge.*small, medium, large/s],
    [['--port', 'abc'], /--port.*abc.*whole number from 0 to 65535/s],
    [['--faults', 'boom=0.1'], /--faults.*Unknown fault kind "boom"/s],
    [['--bogus'], /unknown option '--bogus'/],
  ] as const)('refuses %j with exit status 2 and says why', async ([args, message], { expect }) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('lists every option with its default under --help', async ({ expect }) => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    const help = result.stdout.replace(/\s+/g, ' ');
    for (const option of [
      '--scale <scale>',
      '--seed <n>',
      '--port <port>',
      '--host <host>',
      '--data <file>',
      '--prefix <path>',
      '--page-size <n>',
      '--faults <spec>',
      '--rate-limit <n/unit>',
      '--token-ttl <seconds>',
      '--without-courses',
      '--auto-approve',
      '--anchor-date <date>',
      '--json',
    ]) {
      expect(help).toContain(option);
    }
    expect(help).toContain('(choices: "small", "medium", "large", default: "small")');
    expect(help).toContain('(default: 8787)');
    expect(help).toContain('(default: "127.0.0.1")');
    expect(help).toContain('(default: 3600)');
    expect(help).toContain('(default: in memory)');
    expect(help).toContain('(default: today)');
  });
});

// npm and npx run the command through `sh -c`; a signal sent to npm's own pid must still reach
// the sandbox (bin/parent-shell.ts), which then stops cleanly.
describe('npm start and npx vorort sandbox', () => {
  /** Starts `command`, waits for the sandbox's URL, sends SIGINT to the pid of npm/npx itself. */
  async function stopWithSigint(command: string, args: readonly string[]) {
    const child = spawn(command, args, { cwd: process.cwd(), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const match = /API base URL\s+(http:\/\/\S+)/.exec(stdout);
          if (match && stdout.includes('Ctrl+C to stop')) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited (${code}) early:\n${stderr}`)));
      });
      expect((await fetch(`${baseUrl}/personal/selbst`)).status).toBe(401);
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      child.kill('SIGINT');
      const [code, signal] = await Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no exit after SIGINT:\n${stderr}`)), 15_000).unref(),
        ),
      ]);
      // The sandbox stopped itself cleanly (exit 0); npm then ends as after Ctrl+C on a terminal.
      expect(stderr).toContain('vorort sandbox: SIGINT received, stopping');
      expect(stderr).not.toContain('could not stop cleanly');
      expect(code === 0 || code === 130 || signal === 'SIGINT', `${code} ${signal}`).toBe(true);
      await expect(fetch(`${baseUrl}/personal/selbst`)).rejects.toThrow();
      return { baseUrl, stderr };
    } finally {
      child.kill('SIGKILL');
    }
  }

  it('npm start -- --sandbox takes the next free port when 8787 is taken, says so, and stops on a SIGINT to npm', async () => {
    const holder = createServer();
    const held = await new Promise<boolean>((resolve) => {
      holder.once('error', () => resolve(false)); // taken already: as good for this test
      holder.listen({ port: 8787, host: '127.0.0.1' }, () => resolve(true));
    });
    try {
      const { baseUrl, stderr } = await stopWithSigint('npm', [
        'start',
        '--silent',
        '--',
        '--sandbox',
      ]);
      expect(stderr).toMatch(/Port 8787 is taken, so the sandbox uses (port \d+|a free port)/);
      expect(baseUrl).not.toBe('http://127.0.0.1:8787');
    } finally {
      if (held) holder.close();
    }
  });

  it('npx vorort sandbox stops on a SIGINT to npx', async () => {
    await stopWithSigint('npx', ['--no-install', 'vorort', 'sandbox', '--port', '0']);
  });
});
