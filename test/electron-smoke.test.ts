// The Electron app opens its window: where Electron's binary, better-sqlite3's build for it
// (npm run build:native-electron) and a display are present, the built app starts with a fresh
// user data folder, loads the renderer from app://vorort, and its page reports what it sees of
// the bridge (window.vorort with invoke and on only, no Node, app.state answered); then it quits
// cleanly. Elsewhere skipped, saying which of them is missing.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(join(ROOT, 'package.json'));

/** Why the smoke test cannot run here, or null when it can. */
function missing(): { reason: string } | { binary: string } {
  try {
    require.resolve('electron');
  } catch {
    return { reason: 'Electron is not installed (a development dependency: npm install)' };
  }
  let binary: unknown;
  try {
    // The package answers its binary's path, and throws when the binary was never downloaded.
    binary = require('electron');
  } catch {
    binary = null;
  }
  if (typeof binary !== 'string' || !existsSync(binary))
    return {
      reason:
        "Electron's binary is not downloaded (installs skip it: node node_modules/electron/install.js fetches it)",
    };
  if (!existsSync(join(ROOT, 'node_modules', '.cache', 'vorort-electron', 'better_sqlite3.node')))
    return {
      reason: 'better-sqlite3 is not built for Electron (npm run build:native-electron)',
    };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { reason: 'there is no display (DISPLAY or WAYLAND_DISPLAY) for a window' };
  return { binary };
}

const found = missing();
if ('reason' in found) process.stderr.write(`Electron smoke test skipped: ${found.reason}.\n`);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf('reason' in found)(
  'reason' in found ? `the Electron app (skipped: ${found.reason})` : 'the Electron app',
  () => {
    it('opens its window from app://, the page reaches the core through the preload only, and quits', async () => {
      const binary = (found as { binary: string }).binary;
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      execFileSync(npm, ['run', '--silent', 'build:electron'], { cwd: ROOT, stdio: 'pipe' });
      if (!existsSync(join(ROOT, 'dist', 'renderer', 'index.html')))
        execFileSync(npm, ['run', '--silent', 'build:renderer'], { cwd: ROOT, stdio: 'pipe' });
      const userData = mkdtempSync(join(tmpdir(), 'vorort-electron-'));
      dirs.push(userData);
      // Chromium refuses its OS sandbox to root; the window's own sandbox (webPreferences) stays.
      const asRoot = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
      const child = spawn(binary, [ROOT, ...asRoot, '--user-data', userData], {
        env: { ...process.env, VORORT_SMOKE: '1', ELECTRON_ENABLE_LOGGING: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += String(chunk)));
      child.stderr.on('data', (chunk) => (output += String(chunk)));
      const code = await new Promise<number | null>((done) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.once('exit', (exit) => {
          clearTimeout(timer);
          done(exit);
        });
      });
      const line = output.split('\n').find((text) => text.startsWith('VORORT_SMOKE '));
      expect(line, output).toBeDefined();
      const report = JSON.parse(line!.slice('VORORT_SMOKE '.length)) as {
        keys: string[];
        node: boolean;
        state: { ok: boolean; value?: { phase: string } };
        evalBlocked: boolean;
      };
      expect(report.keys).toEqual(['invoke', 'on']);
      expect(report.node).toBe(false);
      expect(report.evalBlocked).toBe(true);
      expect(report.state).toMatchObject({ ok: true, value: { phase: 'first-run' } });
      expect(code, output).toBe(0);
      // The session ran in this folder and closed it: the replica 0600.
      expect(statSync(join(userData, 'replica.sqlite')).mode & 0o777).toBe(0o600);
    }, 120_000);
  },
);
