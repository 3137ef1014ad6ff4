// Electron's fuses for the packaged app (build/after-pack.mjs flips them in each packaged
// Electron binary, right before electron-builder signs it). What each closes:
//   - RunAsNode off: ELECTRON_RUN_AS_NODE cannot turn the signed app into a plain Node runtime;
//   - EnableNodeOptionsEnvironmentVariable off: NODE_OPTIONS cannot inject code at start;
//   - EnableNodeCliInspectArguments off: --inspect cannot attach a debugger to the main process;
//   - EnableCookieEncryption on: Chromium's cookie store is encrypted with the OS's keys;
//   - EnableEmbeddedAsarIntegrityValidation on: app.asar is checked against the hash
//     electron-builder embeds (macOS, Windows);
//   - OnlyLoadAppFromAsar on: the app code is taken from app.asar only, never from a folder
//     placed beside it;
//   - GrantFileProtocolExtraPrivileges off: the pages come over app://, file:// needs nothing.
// test/installers/fuses.test.ts holds this table to Electron's security checklist.
import fuses from '@electron/fuses';

const { FuseV1Options, FuseVersion } = fuses;

/** Each fuse by its name in @electron/fuses, with the state the packaged app must have. */
export const FUSES = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableCookieEncryption: true,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  GrantFileProtocolExtraPrivileges: false,
};

/**
 * The configuration @electron/fuses' flipFuses takes for one packaged binary. Flipping a fuse
 * changes the binary, which breaks the ad-hoc signature every arm64 macOS binary must have: it is
 * signed again (electron-builder's real signature follows where a certificate is given).
 */
export function fuseConfig({ platform, arch }) {
  const config = {
    version: FuseVersion.V1,
    resetAdHocDarwinSignature: platform === 'darwin' && (arch === 'arm64' || arch === 'universal'),
  };
  for (const [name, state] of Object.entries(FUSES)) {
    const option = FuseV1Options[name];
    if (option === undefined) throw new Error(`@electron/fuses knows no fuse ${name}`);
    config[option] = state;
  }
  return config;
}
