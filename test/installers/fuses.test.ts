// Electron's fuses in the installers: build/electron-builder.yml runs build/after-pack.mjs, which
// hands electron-builder the fuse configuration of build/fuses.mjs for every packaged binary. Each
// fuse the security checklist asks for is checked in that configuration, for each platform the
// installers are built for, and then flipped by @electron/fuses in a stand-in binary carrying
// Electron's fuse wire (Electron's own binary cannot be downloaded here).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { flipFuses, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '..', '..');
const config = parse(readFileSync(join(ROOT, 'build', 'electron-builder.yml'), 'utf8')) as {
  afterPack?: string;
  electronFuses?: unknown;
};

/** What each fuse must be in the packaged app: off for a way in, on for a check. */
const REQUIRED: [keyof typeof FuseV1Options & string, boolean][] = [
  ['RunAsNode', false],
  ['EnableNodeOptionsEnvironmentVariable', false],
  ['EnableNodeCliInspectArguments', false],
  ['EnableCookieEncryption', true],
  ['EnableEmbeddedAsarIntegrityValidation', true],
  ['OnlyLoadAppFromAsar', true],
];

/** electron-builder's Arch numbers (builder-util) for the packs the configuration makes. */
const PACKS = [
  { platform: 'win32', arch: 1 }, // x64
  { platform: 'win32', arch: 3 }, // arm64
  { platform: 'darwin', arch: 1 }, // the universal app's halves, then the app itself
  { platform: 'darwin', arch: 3 },
  { platform: 'darwin', arch: 4 },
  { platform: 'linux', arch: 1 },
];

type FuseConfig = Record<string | number, unknown>;

/** Runs the configured afterPack hook for one pack; answers what it asked electron-builder to flip. */
async function fusesOfPack(pack: { platform: string; arch: number }): Promise<FuseConfig[]> {
  const hook = (await import(pathToFileURL(resolve(ROOT, config.afterPack!)).href)) as {
    default: (context: unknown) => Promise<void>;
  };
  const flipped: FuseConfig[] = [];
  await hook.default({
    electronPlatformName: pack.platform,
    arch: pack.arch,
    appOutDir: '/nowhere',
    packager: {
      addElectronFuses: async (_context: unknown, fuses: FuseConfig) => void flipped.push(fuses),
    },
  });
  return flipped;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('Electron’s fuses at packaging', () => {
  it('are flipped by the configuration’s afterPack hook, and only there', () => {
    expect(config.afterPack).toBe('./build/after-pack.mjs');
    expect(existsSync(resolve(ROOT, config.afterPack!))).toBe(true);
    // electron-builder's own electronFuses would flip them a second time, perhaps otherwise.
    expect(config.electronFuses).toBeUndefined();
  });

  describe.each(PACKS)('for $platform, arch $arch', (pack) => {
    it.each(REQUIRED)('%s is %s', async (name, state) => {
      const flipped = await fusesOfPack(pack);
      expect(flipped).toHaveLength(1);
      expect(flipped[0]![FuseV1Options[name]], name).toBe(state);
    });
  });

  it('re-signs an arm64 or universal macOS binary ad hoc once its fuses changed, and no other', async () => {
    for (const pack of PACKS) {
      const [fuses] = await fusesOfPack(pack);
      expect(fuses!.resetAdHocDarwinSignature, JSON.stringify(pack)).toBe(
        pack.platform === 'darwin' && pack.arch !== 1,
      );
    }
  });

  it('sets them in a binary with Electron’s fuse wire, as @electron/fuses flips it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vorort-fuses-'));
    dirs.push(dir);
    // Electron's wire: the sentinel, version 1, its length, one byte a fuse ('1' on, '0' off),
    // here with Electron's defaults (RunAsNode, NODE_OPTIONS, --inspect on; the checks off).
    const binary = join(dir, 'vorort');
    writeFileSync(
      binary,
      Buffer.concat([
        Buffer.from('\x7fELF...code...'),
        Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
        Buffer.from([1, 8]),
        Buffer.from('10110001'),
        Buffer.from('...more code'),
      ]),
    );
    const [fuses] = await fusesOfPack({ platform: 'linux', arch: 1 });
    await flipFuses(binary, fuses as Parameters<typeof flipFuses>[1]);
    const wire = await getCurrentFuseWire(binary);
    for (const [name, state] of REQUIRED)
      expect(wire[FuseV1Options[name]], name).toBe((state ? '1' : '0').charCodeAt(0));
  });
});
