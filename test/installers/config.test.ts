// The installers' configuration (build/electron-builder.yml), where electron-builder cannot run
// (its Electron download): valid against electron-builder's own schema, as electron-builder checks
// it; what the organisation's installers must be (issue 24); every file it names there, the icons
// made from their one source; and the native build the beforePack hook asks for.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
const CONFIG_FILE = join(ROOT, 'build', 'electron-builder.yml');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

type Target = { target: string; arch: string[] };
interface Config {
  appId: string;
  productName: string;
  directories: { buildResources: string; output: string };
  files: string[];
  asar: boolean;
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
  npmRebuild: boolean;
  beforePack: string;
  afterPack: string;
  publish: { provider: string; url: string };
  win: { target: Target[]; icon: string };
  nsis: Record<string, unknown>;
  mac: Record<string, unknown> & { target: Target[] };
  linux: { target: Target[]; icon: string };
}
const config = parse(readFileSync(CONFIG_FILE, 'utf8')) as Config;

/** electron-builder's validation: its schema, with the options it compiles it with. */
function validator() {
  const schema = JSON.parse(
    readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'),
  ) as object;
  return new Ajv({ allErrors: true, strict: false }).compile(schema);
}

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vorort-installers-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the installers’ configuration', () => {
  it('is valid against electron-builder’s schema', () => {
    const validate = validator();
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The check is alive: a misspelt option is refused.
    expect(validate({ ...config, nsis: { ...config.nsis, oneclick: false } })).toBe(false);
  });

  it('is what npm run dist builds with, after the renderer, the bundles and the icons', () => {
    expect(pkg.scripts.dist).toBe(
      'npm run build:renderer && npm run build:electron && npm run build:icons && ' +
        'electron-builder --config build/electron-builder.yml --publish never',
    );
    for (const script of ['build:renderer', 'build:electron', 'build:icons'])
      expect(pkg.scripts[script], script).toBeDefined();
    for (const [script, file] of [
      ['build:electron', 'electron/build-bundles.mjs'],
      ['build:icons', 'build/make-icons.mjs'],
      ['build:native-electron', 'electron/build-native.mjs'],
    ] as const) {
      expect(pkg.scripts[script]).toBe(`node ${file}`);
      expect(existsSync(join(ROOT, file)), file).toBe(true);
    }
    // electron-builder refuses Electron among the dependencies it packages.
    expect(pkg.devDependencies.electron).toBeDefined();
    expect(pkg.dependencies.electron).toBeUndefined();
    expect(pkg.optionalDependencies?.electron).toBeUndefined();
  });

  it('makes the installers the organisation needs', () => {
    expect(config.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Vorort');
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64', 'arm64'] }]);
    expect(config.nsis).toMatchObject({
      oneClick: false,
      perMachine: false,
      allowToChangeInstallationDirectory: true,
      deleteAppDataOnUninstall: false,
    });
    expect(config.mac.target).toEqual([
      { target: 'dmg', arch: ['universal'] },
      { target: 'zip', arch: ['universal'] },
    ]);
    expect(config.mac.hardenedRuntime).toBe(true);
    // Notarized where the environment holds the credentials (never switched off here).
    expect(config.mac.notarize).toBe(true);
    expect(config.linux.target.map((target) => target.target)).toEqual(['AppImage', 'deb']);
    expect(config.publish.provider).toBe('generic');
  });

  it('grants macOS’s hardened runtime V8’s JIT and nothing else', () => {
    for (const key of ['entitlements', 'entitlementsInherit']) {
      const plist = readFileSync(join(ROOT, config.mac[key] as string), 'utf8');
      const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
      expect(keys, key).toEqual(['com.apple.security.cs.allow-jit']);
      expect(plist).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
    }
  });

  it('ships no source maps, no TypeScript runner, no esbuild, and native code outside the ASAR', () => {
    expect(config.files).toContain('!**/*.map');
    for (const name of ['tsx', 'esbuild', '@esbuild'])
      expect(config.files).toContain(`!**/node_modules/${name}{,/**}`);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        '**/*.node',
        'dist/electron/sync-worker.mjs',
        'dist/electron/demo-worker.mjs',
        'node_modules/better-sqlite3/**',
      ]),
    );
    // electron-builder must not rebuild node_modules for Electron: the tests' Node build stays.
    expect(config.npmRebuild).toBe(false);
  });

  it('names only files that exist, the icons as npm run build:icons makes them from one source', async () => {
    for (const hook of [config.beforePack, config.afterPack])
      expect(existsSync(resolve(ROOT, hook)), hook).toBe(true);
    for (const file of [config.mac.entitlements, config.mac.entitlementsInherit] as string[])
      expect(existsSync(join(ROOT, file)), file).toBe(true);
    const { makeIcons, ICON_SOURCE, ICON_DIR } = (await import(
      pathToFileURL(join(ROOT, 'build', 'make-icons.mjs')).href
    )) as {
      makeIcons: (options: { outDir: string }) => Promise<string[]>;
      ICON_SOURCE: string;
      ICON_DIR: string;
    };
    expect(existsSync(ICON_SOURCE)).toBe(true);
    const out = tempDir();
    const made = (await makeIcons({ outDir: out })).map((file) => relative(out, file));
    const named = [
      config.win.icon,
      config.nsis.installerIcon,
      config.nsis.uninstallerIcon,
      config.mac.icon,
    ] as string[];
    for (const icon of named)
      expect(made, icon).toContain(relative(ICON_DIR, join(ROOT, icon)).replaceAll('\\', '/'));
    // Linux takes the folder: its sizes by name.
    expect(join(ROOT, config.linux.icon)).toBe(ICON_DIR);
    for (const size of [16, 32, 48, 64, 128, 256, 512])
      expect(made).toContain(`${size}x${size}.png`);
    // The containers are what Windows and macOS read.
    const ico = readFileSync(join(out, 'icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 7]);
    const icns = readFileSync(join(out, 'icon.icns'));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.includes(Buffer.from('ic10'))).toBe(true);
    const png = readFileSync(join(out, '1024x1024.png'));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
  }, 60_000);

  describe('better-sqlite3’s build for Electron', () => {
    let hook: {
      nativeBuildDir: (root: string, platform: string, arch: string) => string;
      nativeBuildProblem: (options: {
        root: string;
        platform: string;
        arch: string;
      }) => string | null;
    };
    beforeAll(async () => {
      hook = await import(pathToFileURL(resolve(ROOT, config.beforePack)).href);
    });

    it('is taken from where build:native-electron keeps it, into resources/native', () => {
      const [resource] = config.extraResources;
      expect(resource!.to).toBe('native/better_sqlite3.node');
      const from = resource!.from.replace('${platform}', 'win32').replace('${arch}', 'arm64');
      expect(join(ROOT, from)).toBe(
        join(hook.nativeBuildDir(ROOT, 'win32', 'arm64'), 'better_sqlite3.node'),
      );
      const buildNative = readFileSync(join(ROOT, 'electron', 'build-native.mjs'), 'utf8');
      expect(buildNative).toContain('join(OUT_DIR, `${process.platform}-${arch}`)');
    });

    it('must be there, for this Electron, before a pack', () => {
      const root = tempDir();
      writeFileSync(join(root, 'package.json'), '{}');
      mkdirSync(join(root, 'node_modules', 'electron'), { recursive: true });
      writeFileSync(
        join(root, 'node_modules', 'electron', 'package.json'),
        JSON.stringify({ name: 'electron', version: '44.1.0' }),
      );
      const problem = () => hook.nativeBuildProblem({ root, platform: 'linux', arch: 'x64' });
      expect(problem()).toMatch(/npm run build:native-electron -- --arch x64/);
      const dir = hook.nativeBuildDir(root, 'linux', 'x64');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'better_sqlite3.node'), 'stand-in');
      writeFileSync(join(dir, 'built-for.json'), JSON.stringify({ electron: '43.0.0' }));
      expect(problem()).toMatch(/is for Electron 43\.0\.0, not 44\.1\.0/);
      writeFileSync(join(dir, 'built-for.json'), JSON.stringify({ electron: '44.1.0' }));
      expect(problem()).toBeNull();
      // The universal macOS app is merged from its halves, each checked on its own.
      expect(hook.nativeBuildProblem({ root, platform: 'darwin', arch: 'universal' })).toBeNull();
    });
  });
});
