// The child process's entry in test/host/electron-main.test.ts: `node electron-stand-in-register.mjs
// MAIN [args…]` maps `electron` to the stand-in (electron-stand-in-hooks.ts), then runs MAIN (the
// built main.mjs) with the arguments Electron would give it (argv[1] the app, then its own). Done
// here, not with --import, so that the host's worker threads (which inherit execArgv) load none
// of it: they never import Electron.
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

register(new URL('./electron-stand-in-hooks.mjs', import.meta.url));
const main = process.argv[2];
if (!main) throw new Error('usage: electron-stand-in-register.mjs MAIN [args…]');
process.argv.splice(1, 1);
await import(pathToFileURL(resolve(main)).href);
