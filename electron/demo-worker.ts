// The demo sandbox's worker thread (electron/demo.ts, sandboxDemo): built into the Electron bundle
// as demo-worker.mjs; from the TypeScript sources, demo-worker-source.mjs loads it. In the
// Electron app, better-sqlite3 must load the build for Electron's ABI in this thread too: the
// host names it in VORORT_SQLITE_BINDING, and the sandbox's own lookup of it is answered here.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { SQLITE_BINDING_ENV } from '../sync/db/open';
import { serveDemoSandbox } from './demo';
import { useSqliteBuild } from './native-sqlite';

const binding = process.env[SQLITE_BINDING_ENV];
if (binding) {
  // The folder holding node_modules (the app's root), found from better-sqlite3 itself.
  const sqlitePackage = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  useSqliteBuild(dirname(dirname(dirname(sqlitePackage))), binding);
}
await serveDemoSandbox();
