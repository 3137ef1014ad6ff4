#!/usr/bin/env node
// `npm run build:native-electron`: better-sqlite3 compiled for the installed Electron's ABI, kept
// beside the Node build (node_modules/.cache/vorort-electron/better_sqlite3.node), so one install
// serves Node (tests, CLI, browser mode: the package's own build) and the Electron app (this one,
// loaded through better-sqlite3's nativeBinding option, see electron/main.ts).
//
//   npm run build:native-electron [-- --arch x64|arm64] [--force]
//
// Each build is also kept per platform and architecture (vorort-electron/<platform>-<arch>/),
// where the installers take it from (build/electron-builder.yml's extraResources): a Windows
// runner builds x64 and arm64, a macOS one both halves of the universal app. --arch defaults to
// this machine's; the app run from the sources loads the build for it.
//
// Works in a copy of the package (the Node build stays untouched), trying in turn:
//   1. prebuild-install: better-sqlite3's prebuilt binary for this Electron (needs the download);
//   2. node-gyp: compiled from the package's sources against Electron's headers (needs the headers,
//      downloaded, or a folder given as VORORT_ELECTRON_HEADERS, and a C++ toolchain).
// Where neither can work (no network, as on the project's build machines) it says what is needed
// and exits 1; nothing else depends on it (the Node build, the tests and browser mode go on).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));
const OUT_DIR = join(ROOT, 'node_modules', '.cache', 'vorort-electron');
const OUT = join(OUT_DIR, 'better_sqlite3.node');
const STAMP = join(OUT_DIR, 'built-for.json');
const force = process.argv.includes('--force');
const archIndex = process.argv.indexOf('--arch');
const arch = archIndex > 0 ? process.argv[archIndex + 1] : process.arch;
if (!arch || !['x64', 'arm64', 'ia32', 'armv7l'].includes(arch)) {
  process.stderr.write(`build:native-electron: unknown --arch ${arch}\n`);
  process.exit(1);
}
/** The build for one platform and architecture, as the installers take it. */
const ARCH_DIR = join(OUT_DIR, `${process.platform}-${arch}`);
const ARCH_OUT = join(ARCH_DIR, 'better_sqlite3.node');
const ARCH_STAMP = join(ARCH_DIR, 'built-for.json');

const say = (text) => process.stderr.write(`build:native-electron: ${text}\n`);

function version(name) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    return null;
  }
}

const electron = version('electron');
const sqlite = version('better-sqlite3');
if (!electron) {
  say(
    'Electron is not installed (a development dependency): run npm install first. Nothing to build.',
  );
  process.exit(1);
}
if (!sqlite) {
  say('better-sqlite3 is not installed: run npm install first.');
  process.exit(1);
}
const target = { electron, betterSqlite3: sqlite, platform: process.platform, arch };
if (!force && existsSync(ARCH_OUT) && existsSync(ARCH_STAMP)) {
  try {
    if (JSON.stringify(JSON.parse(readFileSync(ARCH_STAMP, 'utf8'))) === JSON.stringify(target)) {
      if (arch === process.arch && !existsSync(OUT)) {
        copyFileSync(ARCH_OUT, OUT);
        copyFileSync(ARCH_STAMP, STAMP);
      }
      say(`up to date (${ARCH_OUT}, Electron ${electron}, better-sqlite3 ${sqlite}).`);
      process.exit(0);
    }
  } catch {
    // Rebuild.
  }
}

const packageDir = dirname(require.resolve('better-sqlite3/package.json'));
const work = mkdtempSync(join(tmpdir(), 'vorort-native-electron-'));
const copy = join(work, 'better-sqlite3');
cpSync(packageDir, copy, {
  recursive: true,
  filter: (source) => !source.startsWith(join(packageDir, 'build')),
});
const built = join(copy, 'build', 'Release', 'better_sqlite3.node');
const attempts = [];

function run(what, command, args, env = {}) {
  say(`${what}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, {
    cwd: copy,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
    timeout: 15 * 60_000,
  });
  const ok = result.status === 0 && existsSync(built);
  attempts.push(
    `${what}: ${ok ? 'ok' : result.error ? result.error.message : `exit ${result.status}`}`,
  );
  return ok;
}

let ok = false;
// 1. The prebuilt binary for this Electron.
try {
  const prebuildInstall = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js');
  ok = run('prebuilt binary (prebuild-install)', process.execPath, [
    prebuildInstall,
    '--runtime=electron',
    `--target=${electron}`,
    `--arch=${arch}`,
    `--platform=${process.platform}`,
    '--verbose',
  ]);
} catch {
  attempts.push('prebuilt binary: prebuild-install is not installed');
}

// 2. Compiled against Electron's headers with node-gyp (npm's own).
if (!ok) {
  const nodeGyp = [
    process.env.npm_config_node_gyp,
    join(
      dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  ].find((path) => path && existsSync(path));
  if (!nodeGyp) attempts.push('compile: node-gyp not found (it comes with npm)');
  else {
    const headers = process.env.VORORT_ELECTRON_HEADERS;
    ok = run(
      'compile (node-gyp)',
      process.execPath,
      [
        nodeGyp,
        'rebuild',
        '--release',
        `--target=${electron}`,
        `--arch=${arch}`,
        '--runtime=electron',
        ...(headers
          ? [`--nodedir=${resolve(headers)}`]
          : ['--dist-url=https://electronjs.org/headers']),
      ],
      // npm's user config may point node-gyp at Node's own headers: not the ones for Electron.
      { npm_config_nodedir: headers ? resolve(headers) : '' },
    );
  }
}

if (ok) {
  mkdirSync(ARCH_DIR, { recursive: true });
  copyFileSync(built, ARCH_OUT);
  writeFileSync(ARCH_STAMP, `${JSON.stringify(target)}\n`);
  if (arch === process.arch) {
    copyFileSync(built, OUT);
    writeFileSync(STAMP, `${JSON.stringify(target)}\n`);
  }
  rmSync(work, { recursive: true, force: true });
  say(`built ${ARCH_OUT} for Electron ${electron} (${process.platform}-${arch}).`);
  process.exit(0);
}
rmSync(work, { recursive: true, force: true });
say(
  [
    `could not build better-sqlite3 ${sqlite} for Electron ${electron}:`,
    ...attempts.map((line) => `  - ${line}`),
    'It needs one of:',
    "  - network access to better-sqlite3's prebuilt binaries (prebuild-install downloads the one for this Electron), or",
    "  - Electron's headers (downloaded by node-gyp, or unpacked into a folder named by VORORT_ELECTRON_HEADERS)",
    '    and a C++ toolchain (python3, make, g++ / Xcode / Visual Studio Build Tools).',
    'Without it the Electron app cannot open its database; browser mode (npm start -- --browser), the CLI and the tests do not need it.',
  ].join('\n'),
);
process.exit(1);
