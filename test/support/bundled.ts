// What the tests start in child processes and worker threads: the bundles of this test run
// (test/support/bundles.ts), or the sources outside vitest (the benches run bin/vorort.mjs, and
// the host its default workers).
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The `vorort` command line, run as `node CLI args…`. */
export const CLI =
  process.env.VORORT_TEST_CLI ?? fileURLToPath(new URL('../../bin/vorort.mjs', import.meta.url));

const bundledUrl = (variable: string) => {
  const path = process.env[variable];
  return path ? { workerUrl: pathToFileURL(path) } : {};
};

/** Options for an app session or browser mode: the sync's worker. */
export const syncWorker: { workerUrl?: URL } = bundledUrl('VORORT_TEST_SYNC_WORKER');

/** Options for electron/demo.ts's sandboxDemo: the demo sandbox's worker. */
export const demoWorker: { workerUrl?: URL } = bundledUrl('VORORT_TEST_DEMO_WORKER');
