// vitest's global setup: the `vorort` command line bundled once per test run (esbuild, the
// transform tsx applies too), which the tests' child processes run instead of bin/vorort.mjs.
// Through tsx every child process loaded some 280 TypeScript files and a few thousand module
// files of its packages one by one: seconds per start, with hundreds of starts in a run.
// bin/vorort.mjs itself still runs in test/cli-sandbox.test.ts (npx vorort sandbox, npm start).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Packages left to node_modules: a native module, and those that read files beside their code. */
const UNBUNDLED = ['better-sqlite3', 'pdfkit', 'fontkit'];

export default async function bundleCli(): Promise<() => void> {
  // Inside the repository, so that the bundle finds node_modules as the sources do; one
  // directory per run, so that runs side by side never share a half-written file.
  const parent = join(ROOT, 'dist', 'test-cli');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'run-'));
  const outfile = join(dir, 'vorort.mjs');
  await build({
    entryPoints: [join(ROOT, 'bin', 'vorort.ts')],
    outfile,
    bundle: true,
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
  process.env.VORORT_TEST_CLI = outfile;
  return () => rmSync(dir, { recursive: true, force: true });
}
