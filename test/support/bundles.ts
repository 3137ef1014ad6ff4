// vitest's global setup: the programs the tests start in child processes and worker threads,
// bundled once per test run (esbuild, the transform tsx applies too): the `vorort` command line,
// the sync's worker and the demo sandbox's worker. From the sources, every child process and
// every worker thread loaded some 280 TypeScript files through tsx and a few thousand module
// files of its packages one by one: about 2 s a start on the 2-core machine, and the tests start
// them hundreds of times. test/support/bundled.ts hands them to the tests. The sources' own
// entries still run where they are the subject: bin/vorort.mjs in test/cli-sandbox.test.ts (npx
// vorort sandbox, npm start), the demo's in electron/demo.test.ts, the sync's in
// test/sync/worker.test.ts.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Packages left to node_modules: a native module, and those that read files beside their code. */
const UNBUNDLED = ['better-sqlite3', 'pdfkit', 'fontkit'];

/** Entry → the environment variable that names its bundle for test/support/bundled.ts. */
const ENTRIES = {
  'bin/vorort.ts': 'VORORT_TEST_CLI',
  'sync/pull/sync-worker.ts': 'VORORT_TEST_SYNC_WORKER',
  'electron/demo-worker.ts': 'VORORT_TEST_DEMO_WORKER',
} as const;

export default async function bundle(): Promise<() => void> {
  // Inside the repository, so that the bundles find node_modules as the sources do; one
  // directory per run, so that runs side by side never share a half-written file.
  const parent = join(ROOT, 'dist', 'test-cli');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'run-'));
  await build({
    entryPoints: Object.keys(ENTRIES).map((entry) => join(ROOT, entry)),
    outdir: dir,
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // What a program imports on demand (the PDF export) stays in chunks of its own, loaded then.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: UNBUNDLED,
    // The CommonJS packages inside call require() for Node's own modules.
    banner: {
      js: "import { createRequire as bundledRequire } from 'node:module'; const require = bundledRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  for (const [entry, variable] of Object.entries(ENTRIES))
    process.env[variable] = join(dir, `${entry.split('/').pop()!.replace(/\.ts$/, '')}.mjs`);
  return () => rmSync(dir, { recursive: true, force: true });
}
