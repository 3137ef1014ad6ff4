// Browser mode's entry: where the user data lives on each OS, the options, the page that opens the
// browser without the token in a command line, and `npm start -- --browser` end to end: the
// address with the token printed, the contract over the WebSocket, "Demo" signing in, and a clean
// stop on SIGINT sent to npm's own pid.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  browserAddress,
  defaultUserDataDir,
  hasDisplay,
  openerFor,
  parseArguments,
  UsageError,
  writeLauncher,
} from './browser-main';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vorort-browser-main-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the user data folder, options and the opener', () => {
  it("is the OS's usual place for an app's data", () => {
    expect(defaultUserDataDir('linux', {}, '/home/anna')).toBe('/home/anna/.config/Vorort');
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/anna')).toBe(
      '/cfg/Vorort',
    );
    // A relative XDG_CONFIG_HOME is invalid by the spec: ignored.
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: 'cfg' }, '/home/anna')).toBe(
      '/home/anna/.config/Vorort',
    );
    expect(defaultUserDataDir('darwin', {}, '/Users/anna')).toBe(
      '/Users/anna/Library/Application Support/Vorort',
    );
    expect(
      defaultUserDataDir(
        'win32',
        { APPDATA: 'C:\\Users\\anna\\AppData\\Roaming' },
        'C:\\Users\\anna',
      ),
    ).toMatch(/AppData.Roaming.Vorort$/);
  });

  it('takes --user-data, --port, --no-open; refuses what it does not know', () => {
    const args = parseArguments(
      ['--user-data', '/tmp/x', '--port=9000', '--no-open', '--browser'],
      {},
    );
    expect(args).toMatchObject({ userDataDir: '/tmp/x', port: 9000, open: false });
    expect(parseArguments([], { VORORT_USER_DATA: '/tmp/y' }).userDataDir).toBe('/tmp/y');
    expect(() => parseArguments(['--port', 'abc'], {})).toThrow(UsageError);
    expect(() => parseArguments(['--port', '70000'], {})).toThrow(/0 to 65535/);
    expect(() => parseArguments(['--user-data'], {})).toThrow(/needs a value/);
    expect(() => parseArguments(['--bogus'], {})).toThrow(/unknown option --bogus/);
    expect(parseArguments([], {}).demoScale).toBe('small');
    expect(parseArguments(['--demo-scale', 'large'], {}).demoScale).toBe('large');
    expect(() => parseArguments(['--demo-scale=huge'], {})).toThrow(/small, medium or large/);
  });

  it('opens a browser only where there is a display, with the system opener', () => {
    expect(hasDisplay('linux', {})).toBe(false);
    expect(hasDisplay('linux', { DISPLAY: ':0' })).toBe(true);
    expect(hasDisplay('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(hasDisplay('darwin', {})).toBe(true);
    expect(openerFor('file:///x', 'linux')).toEqual(['xdg-open', ['file:///x']]);
    expect(openerFor('file:///x', 'darwin')).toEqual(['open', ['file:///x']]);
  });

  it("opens an address with & on Windows as one argument, never through cmd's parsing", () => {
    // `cmd /c start "" <url>` read each & as a command separator: `…&calc` ran calc.
    const address = 'https://id.example/authorize?client_id=a&state=b&calc&redirect_uri=x';
    const [command, args] = openerFor(address, 'win32', { SystemRoot: 'C:\\Windows' });
    expect(command).toBe('C:\\Windows\\System32\\rundll32.exe');
    expect(args).toEqual(['url.dll,FileProtocolHandler', address]);
    expect([command, ...args].some((part) => /(^|\\)cmd(\.exe)?$/i.test(part))).toBe(false);
    expect(openerFor('file:///x', 'win32')[1]).toEqual([
      'url.dll,FileProtocolHandler',
      'file:///x',
    ]);
  });

  it('gives the browser only https or http on this computer, as the parser writes it', () => {
    expect(browserAddress('https://id.example/a?x=1&y=2')).toBe('https://id.example/a?x=1&y=2');
    expect(browserAddress('http://127.0.0.1:8787/oauth?a=1&b=2')).toBe(
      'http://127.0.0.1:8787/oauth?a=1&b=2',
    );
    // Spaces and quotes are percent-encoded: nothing an argument's quoting could change.
    expect(browserAddress('https://id.example/a b?q="x"')).toBe(
      'https://id.example/a%20b?q=%22x%22',
    );
    expect(browserAddress('http://id.example/authorize')).toBeNull();
    expect(browserAddress('file:///C:/Windows/System32/calc.exe')).toBeNull();
    expect(browserAddress('javascript:alert(1)')).toBeNull();
    expect(browserAddress('not a url')).toBeNull();
  });

  it('forwards the browser through a 0600 page, so the token stays out of command lines', () => {
    const dir = tempDir();
    const url = 'http://127.0.0.1:1234/#token=abc"<&';
    const path = writeLauncher(dir, url);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const page = readFileSync(path, 'utf8');
    expect(page).toContain('http-equiv="refresh"');
    expect(page).toContain('#token=abc&quot;&lt;&amp;');
    expect(page).not.toContain('abc"<');
  });
});

interface Answer {
  id?: number;
  ok?: boolean;
  value?: Record<string, unknown>;
  error?: { code: string };
  event?: { type: string; state?: { phase: string } };
}

describe('npm start -- --browser', () => {
  it('prints the address with the token, serves the contract, signs in to the demo, stops cleanly on SIGINT to npm', async () => {
    const userData = join(tempDir(), 'user data');
    const child = spawn(
      'npm',
      ['start', '--silent', '--', '--browser', '--no-open', '--user-data', userData],
      // Its own process group: whatever happens, the finally below ends npm, the shell and node.
      {
        cwd: process.cwd(),
        stdio: 'pipe',
        detached: true,
        env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const match = /(http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{64})/.exec(stdout);
          if (match && stdout.includes('Ctrl+C stops it')) resolve(new URL(match[1]!));
        });
        child.once('exit', (code) => reject(new Error(`exited (${code}) early:\n${stderr}`)));
      });
      expect(stdout).toContain(`User data: ${userData}`);
      const token = url.hash.slice('#token='.length);

      // The page: the renderer when built, else the words saying how to build it.
      const page = await fetch(`${url.origin}/`);
      expect([200, 404]).toContain(page.status);
      if (page.status === 404) expect(await page.text()).toContain('npm run build:renderer');
      // Without the token: refused before the upgrade.
      await expect(
        new Promise((resolve, reject) => {
          const ws = new WebSocket(`ws://${url.host}/core`, { origin: url.origin });
          ws.once('open', resolve);
          ws.once('error', reject);
        }),
      ).rejects.toThrow(/401/);

      const ws = new WebSocket(`ws://${url.host}/core`, [`vorort.${token}`], {
        origin: url.origin,
      });
      const received: Answer[] = [];
      const waiters: (() => void)[] = [];
      ws.on('message', (data) => {
        received.push(JSON.parse(String(data)) as Answer);
        for (const wake of waiters.splice(0)) wake();
      });
      await once(ws, 'open');
      const answerTo = async (id: number): Promise<Answer> => {
        for (;;) {
          const found = received.find((message) => message.id === id);
          if (found) return found;
          await new Promise<void>((resolve) => waiters.push(resolve));
        }
      };
      ws.send(JSON.stringify({ id: 1, call: 'app.state', args: {} }));
      expect(await answerTo(1)).toMatchObject({ ok: true, value: { phase: 'first-run' } });
      ws.send(JSON.stringify({ id: 2, call: 'account.demo', args: {} }));
      const demo = await answerTo(2);
      expect(demo, JSON.stringify(demo)).toMatchObject({ ok: true, value: { phase: 'signed-in' } });
      expect(received.some((m) => m.event?.type === 'app.state')).toBe(true);
      ws.send(JSON.stringify({ id: 3, call: 'personnel.countByStatus', args: {} }));
      expect(await answerTo(3)).toMatchObject({ ok: true });
      ws.close();

      // SIGINT to npm's own pid: browser mode stops cleanly (the session closed, exit 0).
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      child.kill('SIGINT');
      const [code, signal] = await Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no exit after SIGINT:\n${stderr}`)), 20_000).unref(),
        ),
      ]);
      expect(stderr).toContain('Vorort: stopping (SIGINT)');
      expect(stderr).toContain('Vorort: stopped.');
      expect(code === 0 || code === 130 || signal === 'SIGINT', `${code} ${signal}`).toBe(true);
      await expect(fetch(`${url.origin}/`)).rejects.toThrow();
      // The user data folder is the owner's alone; the replica too.
      expect(statSync(userData).mode & 0o777).toBe(0o700);
      expect(statSync(join(userData, 'replica.sqlite')).mode & 0o777).toBe(0o600);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 90_000);
});
