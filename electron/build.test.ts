// `npm run build:electron`: the main process as an ES module whose packages come from
// node_modules, the workers as ES modules with their packages inside but better-sqlite3, the
// preload as CommonJS that needs nothing but Electron (a sandboxed window cannot load more). The
// built worker is run here in Node against the sandbox: the Electron app's syncs use this very
// file, and learn better-sqlite3's build from the environment.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../sandbox/server';
import { SQLITE_BINDING_ENV } from '../sync/db/open';
import { runSyncInWorker } from '../sync/pull/worker';
import { sandboxDemo } from './demo';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'electron');
const require = createRequire(join(ROOT, 'package.json'));
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dir: string;

beforeAll(async () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['run', '--silent', 'build:electron'], { cwd: ROOT, stdio: 'pipe' });
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 3 });
  dir = mkdtempSync(join(tmpdir(), 'vorort-build-'));
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The packages an ES module bundle imports by name. */
const packagesOf = (code: string) =>
  [...code.matchAll(/^\s*import\s[^'"]*?from\s+"([^".][^"]*)"/gm)].map(
    (match) => match[1] as string,
  );

describe('the Electron build', () => {
  it('is package.json’s main, and its packages all resolve from node_modules', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(resolve(ROOT, pkg.main)).toBe(join(OUT, 'main.mjs'));
    for (const file of ['main.mjs', 'sync-worker.mjs', 'demo-worker.mjs']) {
      const names = packagesOf(readFileSync(join(OUT, file), 'utf8'));
      expect(names.length, file).toBeGreaterThan(0);
      for (const name of names) {
        if (name.startsWith('node:') || name === 'electron') continue;
        expect(() => require.resolve(name), `${file}: ${name}`).not.toThrow();
      }
    }
    // Nothing of the TypeScript runner: the app runs the built code only.
    expect(readFileSync(join(OUT, 'main.mjs'), 'utf8')).not.toContain('tsx');
    // The demo's sandbox runs in its own worker: the main bundle finds it beside itself.
    expect(readFileSync(join(OUT, 'main.mjs'), 'utf8')).toContain('"./demo-worker.mjs"');
    expect(readFileSync(join(OUT, 'main.mjs'), 'utf8')).not.toContain('function startSandbox');
  });

  it('builds workers that need no package but better-sqlite3, and no source maps', () => {
    // The installers keep the workers outside the ASAR (build/electron-builder.yml's asarUnpack),
    // where node_modules is not beside them: only better-sqlite3 is unpacked with them.
    for (const file of ['sync-worker.mjs', 'demo-worker.mjs']) {
      const code = readFileSync(join(OUT, file), 'utf8');
      const names = [...new Set(packagesOf(code).filter((name) => !name.startsWith('node:')))];
      expect(names, file).toEqual(['better-sqlite3']);
      const required = [...code.matchAll(/__require\("([^"]+)"\)/g)].map(
        (match) => match[1] as string,
      );
      for (const name of required)
        expect(builtinModules.includes(name.replace(/^node:/, '')), `${file}: ${name}`).toBe(true);
    }
    expect(readdirSync(OUT).filter((file) => file.endsWith('.map'))).toEqual([]);
  });

  it('runs the demo’s sandbox in the built worker, with better-sqlite3’s build named by the environment', async () => {
    const workerUrl = pathToFileURL(join(OUT, 'demo-worker.mjs'));
    const before = process.env[SQLITE_BINDING_ENV];
    try {
      process.env[SQLITE_BINDING_ENV] = join(
        require.resolve('better-sqlite3/package.json'),
        '..',
        'build',
        'Release',
        'better_sqlite3.node',
      );
      const running = await sandboxDemo({ workerUrl }).start(dir);
      try {
        const answer = await fetch(`${running.baseUrl}/personal/selbst`);
        expect(answer.status).toBe(401);
      } finally {
        await running.close();
      }
      // A build that is not there: the demo says so (the worker did use the environment's path).
      process.env[SQLITE_BINDING_ENV] = join(dir, 'missing', 'better_sqlite3.node');
      await expect(sandboxDemo({ workerUrl }).start(dir)).rejects.toThrow(
        /could not start: .*missing/,
      );
    } finally {
      if (before === undefined) delete process.env[SQLITE_BINDING_ENV];
      else process.env[SQLITE_BINDING_ENV] = before;
    }
  }, 60_000);

  it('makes the preload CommonJS needing only electron, exposing the contract alone', () => {
    const code = readFileSync(join(OUT, 'preload.cjs'), 'utf8');
    const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1] as string);
    expect(required).toEqual(['electron']);
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).toContain('exposeInMainWorld("vorort"');
    // Only the channel's calls: no ipcRenderer nor event object handed to the page.
    expect(code).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer\s*[,)]/);
  });

  it('runs a sync in the built worker, with better-sqlite3’s build named by the environment', async () => {
    const office = sandbox.users.find((user) => user.role === 'office')!;
    const workerUrl = pathToFileURL(join(OUT, 'sync-worker.mjs'));
    const binding = join(
      require.resolve('better-sqlite3/package.json'),
      '..',
      'build',
      'Release',
      'better_sqlite3.node',
    );
    const before = process.env[SQLITE_BINDING_ENV];
    try {
      process.env[SQLITE_BINDING_ENV] = binding;
      const summary = await runSyncInWorker({
        replicaFile: join(dir, 'built.sqlite'),
        token: office.accessToken,
        client: { baseUrl: sandbox.baseUrl },
        options: { profile: 'office' },
        workerUrl,
      });
      expect(summary.ok).toBe(true);
      expect(summary.records).toBeGreaterThan(0);
      // A build that is not there: the worker says so (it did load the environment's path).
      process.env[SQLITE_BINDING_ENV] = join(dir, 'missing', 'better_sqlite3.node');
      const refused = await runSyncInWorker({
        replicaFile: join(dir, 'other.sqlite'),
        token: office.accessToken,
        client: { baseUrl: sandbox.baseUrl },
        options: { profile: 'office' },
        workerUrl,
      }).catch((error: unknown) => error);
      expect(String(refused)).toContain('missing');
    } finally {
      if (before === undefined) delete process.env[SQLITE_BINDING_ENV];
      else process.env[SQLITE_BINDING_ENV] = before;
    }
  }, 120_000);
});
