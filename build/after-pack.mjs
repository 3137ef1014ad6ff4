// electron-builder's afterPack hook (build/electron-builder.yml): flips Electron's fuses
// (build/fuses.mjs) in the packaged binary, after packing and before signing, through
// electron-builder's own call of @electron/fuses (it knows where each platform keeps the binary).
import { archName } from './before-pack.mjs';
import { fuseConfig } from './fuses.mjs';

export default async function afterPack(context) {
  const platform = context.electronPlatformName;
  const arch = archName(context.arch);
  await context.packager.addElectronFuses(context, fuseConfig({ platform, arch }));
}
