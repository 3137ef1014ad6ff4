#!/usr/bin/env node
// `npm run build:electron`: the Electron app's bundles in dist/electron/ (package.json's main).
//   - main.mjs: the main process as an ES module whose packages come from node_modules;
//   - sync-worker.mjs, demo-worker.mjs: the worker threads, each with its packages inside but
//     better-sqlite3 (native). The installers keep them outside the ASAR (app.asar.unpacked, see
//     build/electron-builder.yml), where node_modules is not beside them: they must need nothing
//     of it but better-sqlite3, which is unpacked with them;
//   - preload.cjs: CommonJS that needs nothing but Electron (a sandboxed window cannot load more).
// No source maps: the installers ship none.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
/** dist/electron/, or the folder given (test/installers/pack.test.ts builds into its own). */
const OUT = process.argv[2] ? resolve(process.argv[2]) : join(ROOT, 'dist', 'electron');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  logLevel: 'warning',
  absWorkingDir: ROOT,
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['electron/main.ts'],
    format: 'esm',
    packages: 'external',
    outfile: join(OUT, 'main.mjs'),
  }),
  build({
    ...common,
    entryPoints: ['sync/pull/sync-worker.ts', 'electron/demo-worker.ts'],
    format: 'esm',
    external: ['better-sqlite3'],
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    outdir: OUT,
    // The CommonJS packages inside call require() for Node's own modules.
    banner: {
      js: "import { createRequire as bundledRequire } from 'node:module'; const require = bundledRequire(import.meta.url);",
    },
  }),
  build({
    ...common,
    entryPoints: ['electron/preload.ts'],
    format: 'cjs',
    external: ['electron'],
    outfile: join(OUT, 'preload.cjs'),
  }),
]);
