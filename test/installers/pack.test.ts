// The installed app as electron-builder lays it out, packed here for Linux (the `dir` target)
// from build/electron-builder.yml with a stand-in for Electron's binary (it cannot be downloaded
// here: a file carrying Electron's fuse wire) and a stand-in for better-sqlite3's Electron build.
// What is checked: the ASAR holds the app and its production packages but no source maps, no
// TypeScript runner, no esbuild, not better-sqlite3's Node build; the workers and better-sqlite3's
// JavaScript are unpacked, each worker's imports found there; the native build is a resource; the
// fonts the PDFs use are packed; the fuses are flipped in the binary. Only the bundles and the
// pages come from this test's own folders (other tests build dist/ at the same time); the hooks
// but beforePack (its check of the native build is tested in config.test.ts) run as configured.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getCurrentFuseWire, FuseV1Options } from '@electron/fuses';
import { Arch, build, Platform } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildRenderer } from '../e2e/support';

const ROOT = resolve(import.meta.dirname, '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
const asar = require('@electron/asar') as {
  listPackage(archive: string, options?: object): string[];
  extractFile(archive: string, file: string): Buffer;
  getRawHeader(archive: string): { header: AsarNode };
};
interface AsarNode {
  files?: Record<string, AsarNode>;
  size?: number;
  unpacked?: boolean;
}

const linux = process.platform === 'linux';
let work: string;
let app: string;
let removeRenderer: () => void = () => {};

/** Electron's Linux folder as electron-builder copies it, the binary carrying the fuse wire. */
function standInElectron(dir: string): void {
  mkdirSync(join(dir, 'locales'), { recursive: true });
  mkdirSync(join(dir, 'resources'));
  const wire = Buffer.concat([
    Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
    Buffer.from([1, 8]),
    Buffer.from('10110001'), // Electron's defaults
  ]);
  writeFileSync(join(dir, 'electron'), Buffer.concat([Buffer.from('\x7fELF'), wire]));
  chmodSync(join(dir, 'electron'), 0o755);
  for (const file of ['chrome-sandbox', 'icudtl.dat', 'resources.pak', 'locales/en-US.pak'])
    writeFileSync(join(dir, file), 'stand-in');
  const electron = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as {
    version: string;
  };
  writeFileSync(join(dir, 'version'), electron.version);
}

beforeAll(async () => {
  if (!linux) return;
  work = mkdtempSync(join(tmpdir(), 'vorort-pack-'));
  const renderer = await buildRenderer();
  removeRenderer = renderer.remove;
  const bundles = join(work, 'bundles');
  execFileSync(process.execPath, [join(ROOT, 'electron', 'build-bundles.mjs'), bundles], {
    cwd: ROOT,
    stdio: 'pipe',
  });
  standInElectron(join(work, 'electron'));
  writeFileSync(join(work, 'better_sqlite3.node'), 'stand-in for the Electron build');
  const config = parse(readFileSync(join(ROOT, 'build', 'electron-builder.yml'), 'utf8'));
  const files = (config.files as string[]).filter(
    (pattern) => pattern !== 'dist/electron/**' && pattern !== 'dist/renderer/**',
  );
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    publish: 'never',
    config: {
      ...config,
      beforePack: null,
      electronDist: join(work, 'electron'),
      directories: { ...config.directories, output: join(work, 'out') },
      files: [
        { from: bundles, to: 'dist/electron' },
        { from: renderer.dir, to: 'dist/renderer' },
        ...files,
      ],
      extraResources: [
        { from: join(work, 'better_sqlite3.node'), to: config.extraResources[0].to },
      ],
    },
  });
  app = join(work, 'out', 'linux-unpacked');
}, 240_000);

afterAll(() => {
  removeRenderer();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!linux)('the packed app (Linux, with a stand-in Electron)', () => {
  const archive = () => join(app, 'resources', 'app.asar');
  const packed = () => asar.listPackage(archive()).map((file) => file.replaceAll('\\', '/'));

  it('holds the app and its production packages, and nothing that should not ship', () => {
    const files = packed();
    for (const file of [
      '/package.json',
      '/dist/electron/main.mjs',
      '/dist/electron/preload.cjs',
      '/dist/renderer/index.html',
      '/node_modules/kysely/package.json',
      '/node_modules/electron-updater/package.json',
    ])
      expect(files, file).toContain(file);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    for (const name of ['tsx', 'esbuild', '@esbuild', 'electron', 'vitest', 'electron-builder'])
      expect(
        files.filter((file) => file.startsWith(`/node_modules/${name}/`)),
        name,
      ).toEqual([]);
    expect(
      files.filter((file) => /^\/node_modules\/better-sqlite3\/(build|deps|src)\//.test(file)),
    ).toEqual([]);
    expect(files.some((file) => file.startsWith('/dist/test-cli'))).toBe(false);
  });

  it('has every package the main process imports', () => {
    const main = asar.extractFile(archive(), 'dist/electron/main.mjs').toString('utf8');
    const names = [...main.matchAll(/(?:^\s*import\s[^'"]*?from\s+|import\()"([^".][^"]*)"/gm)].map(
      (match) => match[1]!,
    );
    const files = packed();
    for (const name of new Set(names)) {
      if (name.startsWith('node:') || name === 'electron') continue;
      expect(files, name).toContain(`/node_modules/${name}/package.json`);
    }
  });

  it('keeps the workers and better-sqlite3 outside the ASAR, where the workers find it', () => {
    const unpacked = join(app, 'resources', 'app.asar.unpacked');
    for (const worker of ['sync-worker.mjs', 'demo-worker.mjs']) {
      const file = join(unpacked, 'dist', 'electron', worker);
      const workerRequire = createRequire(file);
      expect(workerRequire.resolve('better-sqlite3'), worker).toBe(
        join(unpacked, 'node_modules', 'better-sqlite3', 'lib', 'index.js'),
      );
      // better-sqlite3's lookup of its compiled file, answered by electron/native-sqlite.ts.
      const sqlite = createRequire(join(unpacked, 'node_modules', 'better-sqlite3', 'lib', 'x.js'));
      expect(() => sqlite.resolve('bindings')).not.toThrow();
    }
    expect(readFileSync(join(app, 'resources', 'native', 'better_sqlite3.node'), 'utf8')).toBe(
      'stand-in for the Electron build',
    );
  });

  it('packs the fonts the PDFs use, and not the other weights', () => {
    const fonts = [
      ...readFileSync(join(ROOT, 'sync', 'export', 'pdf-text.ts'), 'utf8').matchAll(
        /'([^']+\.ttf)'/g,
      ),
    ].map((match) => `/node_modules/${match[1]}`);
    expect(fonts.length).toBeGreaterThan(0);
    const files = packed();
    for (const font of fonts) expect(files, font).toContain(font);
    expect(files.filter((file) => file.includes('NotoSansSC_900Black'))).toEqual([]);
    // Some 60 MB, not the 160 MB of every weight.
    const size = (node: AsarNode): number =>
      node.files
        ? Object.values(node.files).reduce((sum, inner) => sum + size(inner), 0)
        : node.unpacked
          ? 0
          : (node.size ?? 0);
    expect(size(asar.getRawHeader(archive()).header)).toBeLessThan(100_000_000);
  });

  it('flips Electron’s fuses in the packed binary', async () => {
    const wire = await getCurrentFuseWire(join(app, 'vorort'));
    const on = '1'.charCodeAt(0);
    const off = '0'.charCodeAt(0);
    expect(wire[FuseV1Options.RunAsNode]).toBe(off);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(off);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(off);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(on);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(on);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(on);
  });
});
