#!/usr/bin/env node
// `npm start`: the desktop app. The Electron app where Electron's binary is installed (and the app
// is built, and there is a display); otherwise browser mode (electron/browser-main.ts), which
// prints the page's address with this run's token and opens the default browser. The app's pages
// (dist/renderer/) are built first when missing or older than their sources.
//   npm start -- --browser            browser mode even where Electron could run
//   npm start -- --user-data DIR      another user data folder (default: the OS's usual place)
//   npm start -- --port N             browser mode's port (default: any free one)
//   npm start -- --no-open            browser mode without opening a browser
//   npm start -- --sandbox            only the sandbox service with demo data (as before the app)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { electronNativeState } from './electron-native.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const has = (flag) => args.includes(flag);
const without = (...flags) => args.filter((arg) => !flags.includes(arg));

if (has('--sandbox')) await startSandbox(without('--sandbox'));
else {
  const electron = has('--browser') ? { why: 'asked for (--browser)' } : findElectronApp();
  buildRendererIfStale();
  register();
  // Under npm through `sh -c`, a SIGINT or SIGTERM to npm reaches us only this way.
  const { watchParentShell } = await import('./parent-shell.ts');
  watchParentShell();
  if (electron.binary) await startElectron(electron.binary, args);
  else {
    if (!has('--browser')) process.stderr.write(`Vorort: browser mode, as ${electron.why}.\n`);
    const { main } = await import('../electron/browser-main.ts');
    await main(without('--browser'));
  }
}

/**
 * The app's pages (dist/renderer/, `npm run build:renderer`), built when missing or older than
 * their sources, so `npm install && npm start` from a clean clone shows the app. A failed build
 * is said and not fatal: the server then answers with how to build it.
 */
function buildRendererIfStale() {
  const built = join(ROOT, 'dist', 'renderer', 'index.html');
  const sources = [
    join(ROOT, 'renderer'),
    join(ROOT, 'vite.config.ts'),
    join(ROOT, 'sync', 'contract'),
  ];
  if (!existsSync(join(ROOT, 'renderer'))) return;
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (builtAt > 0 && newest(sources) <= builtAt) return;
  process.stderr.write(`Vorort: building the app's pages (npm run build:renderer) ...\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', '--silent', 'build:renderer'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (result.status !== 0)
    process.stderr.write(
      'Vorort: building the pages failed (see above); run npm run build:renderer.\n',
    );
}

/** The newest modification time of the files under these paths. */
function newest(paths) {
  let latest = 0;
  const visit = (path) => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      return;
    }
    if (stats.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules') visit(join(path, name));
    } else latest = Math.max(latest, stats.mtimeMs);
  };
  for (const path of paths) visit(path);
  return latest;
}

/**
 * Electron's binary (its package exports the path; the file must exist: installs skip the
 * download where it cannot be fetched), the app's built main process and a display; else why not.
 */
function findElectronApp() {
  const require = createRequire(import.meta.url);
  try {
    require.resolve('electron');
  } catch {
    return { why: 'Electron is not installed (a development dependency: npm install)' };
  }
  let binary;
  try {
    // The package answers its binary's path, and throws when the binary was never downloaded.
    binary = require('electron');
  } catch {
    binary = null;
  }
  if (typeof binary !== 'string' || !existsSync(binary))
    return {
      why: "Electron's binary is not downloaded (npm install skips it; node node_modules/electron/install.js fetches it)",
    };
  const main = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).main;
  if (typeof main !== 'string' || !existsSync(join(ROOT, main)))
    return { why: 'the Electron app is not built (npm run build:electron)' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { why: 'there is no display for a window' };
  const native = buildNativeIfNeeded(require);
  if (native) return { why: native };
  return { binary };
}

/**
 * better-sqlite3's build for the installed Electron (`npm run build:native-electron`), built when
 * missing or made for another version: without it the app stops at its start. Null when it is
 * there; else why the app cannot run (browser mode then, which uses Node's own build).
 */
function buildNativeIfNeeded(require) {
  const version = (name) => {
    try {
      return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
    } catch {
      return '';
    }
  };
  const target = { electron: version('electron'), betterSqlite3: version('better-sqlite3') };
  if (electronNativeState(ROOT, target) === 'ok') return null;
  process.stderr.write(
    "Vorort: building better-sqlite3 for Electron's ABI (npm run build:native-electron) ...\n",
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  spawnSync(npm, ['run', '--silent', 'build:native-electron'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (electronNativeState(ROOT, target) === 'ok') return null;
  return (
    'better-sqlite3 is not built for Electron: npm run build:native-electron could not build it ' +
    "(see above; it needs the network, or Electron's headers and a C++ toolchain); " +
    'run it again, then npm start'
  );
}

/** Runs the Electron app (this checkout: package.json's main) until it exits; signals passed on. */
async function startElectron(binary, forwarded) {
  const child = spawn(binary, [ROOT, ...forwarded], { stdio: 'inherit', windowsHide: false });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  const code = await new Promise((done) => {
    child.once('error', (error) => {
      process.stderr.write(`Vorort: Electron could not start: ${error.message}\n`);
      done(1);
    });
    child.once('exit', (exitCode, signal) => done(exitCode ?? (signal ? 0 : 1)));
  });
  process.exit(code);
}

// ---------------------------------------------------------------------------------------------
// `npm start -- --sandbox`: the sandbox service with demo data, as `npm start` ran before the app.
// Port 8787 unless taken (another sandbox still running, say): then the next free one of
// 8788–8797, else any free port; it says which. `--port` (npm start -- --sandbox --port 9000) is
// used as given.

async function startSandbox(rest) {
  const FIRST_PORT = 8787;
  const TRIES = 11;
  const option = (name) => {
    const index = rest.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
    if (index === -1) return undefined;
    return rest[index].includes('=') ? rest[index].split('=')[1] : rest[index + 1];
  };
  /** Whether the port can be listened on at this host now (it may be taken a moment later). */
  const isFree = (port, host) =>
    new Promise((done) => {
      const probe = createServer();
      probe.once('error', () => done(false));
      probe.listen({ port, host, exclusive: true }, () => probe.close(() => done(true)));
    });

  process.stderr.write(
    'Vorort: `npm start -- --sandbox` runs only the sandbox service with demo data.\n' +
      'Sync it into a replica with `npx vorort sync --server <base URL> --token <token> --db replica.sqlite`.\n',
  );
  const portArgs = [];
  if (option('--port') === undefined) {
    const host = option('--host') ?? '127.0.0.1';
    let port = 0;
    for (let candidate = FIRST_PORT; candidate < FIRST_PORT + TRIES; candidate += 1) {
      if (await isFree(candidate, host)) {
        port = candidate;
        break;
      }
    }
    if (port !== FIRST_PORT)
      process.stderr.write(
        `Port ${FIRST_PORT} is taken, so the sandbox uses ${port === 0 ? 'a free port' : `port ${port}`}: see the URLs below.\n`,
      );
    portArgs.push('--port', String(port));
  }
  process.stderr.write('\n');
  process.argv = [
    process.argv[0],
    process.argv[1],
    'sandbox',
    '--scale',
    'small',
    '--seed',
    '1',
    ...portArgs,
    ...rest,
  ];
  register();
  await import('./vorort.ts');
}
