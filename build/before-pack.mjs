// electron-builder's beforePack hook (build/electron-builder.yml): refuses to pack an app
// without better-sqlite3's build for Electron of that platform and architecture, which the
// configuration's extraResources take from node_modules/.cache/vorort-electron/<platform>-<arch>/
// (`npm run build:native-electron -- --arch <arch>` makes it). Without it the app would install
// and then stop at its first start ("Vorort konnte nicht starten").
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** electron-builder's Arch enum (builder-util) by name. */
const ARCHES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

export function archName(arch) {
  return typeof arch === 'string' ? arch : (ARCHES[arch] ?? String(arch));
}

/** Where build:native-electron keeps the build for one platform and architecture. */
export function nativeBuildDir(root, platform, arch) {
  return join(root, 'node_modules', '.cache', 'vorort-electron', `${platform}-${arch}`);
}

/** What is wrong with the native build for this pack, or null. */
export function nativeBuildProblem({ root = ROOT, platform = process.platform, arch }) {
  // A universal macOS app is merged from its x64 and arm64 packs, each checked on its own.
  if (arch === 'universal') return null;
  const dir = nativeBuildDir(root, platform, arch);
  const how = `run npm run build:native-electron -- --arch ${arch}`;
  if (!existsSync(join(dir, 'better_sqlite3.node')))
    return `better-sqlite3 is not built for Electron on ${platform}-${arch} (${dir}): ${how}`;
  const require = createRequire(join(root, 'package.json'));
  const electron = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8'));
  let stamp = null;
  try {
    stamp = JSON.parse(readFileSync(join(dir, 'built-for.json'), 'utf8'));
  } catch {
    // Said below.
  }
  if (stamp?.electron !== electron.version)
    return `better-sqlite3's build in ${dir} is for Electron ${stamp?.electron ?? '(unknown)'}, not ${electron.version}: ${how} --force`;
  return null;
}

export default async function beforePack(context) {
  // A native module is built on the OS it runs on: each OS's installers are built there.
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  if (platform !== process.platform)
    throw new Error(
      `Vorort's ${platform} installers are built on ${platform}, not ${process.platform}`,
    );
  const problem = nativeBuildProblem({ platform, arch: archName(context.arch) });
  if (problem) throw new Error(problem);
}
