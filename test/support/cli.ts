// The `vorort` command line as the tests run it in a child process (`node CLI args…`): the bundle
// of this test run (test/support/cli-bundle.ts), or bin/vorort.mjs outside vitest (the benches).
import { fileURLToPath } from 'node:url';

export const CLI =
  process.env.VORORT_TEST_CLI ?? fileURLToPath(new URL('../../bin/vorort.mjs', import.meta.url));
