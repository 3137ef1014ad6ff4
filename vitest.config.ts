import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The order test files start in: the ones that take minutes first, so that with two workers none
// of them is left to run alone at the end (vitest orders by the last run's times only where it
// has them, and a fresh clone in CI has none). The rest in vitest's own order.
/** The slowest files, slowest first (seconds in a full run with two workers on the 2-core machine). */
const SLOW = [
  'test/sync/freshness-week.test.ts', // 253
  'test/sync/real-world.test.ts', // 101
  'test/e2e/trainer-workspace.test.ts', // 79
  'test/diff/diff.test.ts', // 78
  'test/e2e/office-day.test.ts', // about 80 alone
  'sync/host/session.test.ts', // 63
  'test/e2e/office-personnel.test.ts', // 60
  'test/sync/drift-rotation.test.ts', // 60
  'test/sync/cli.test.ts', // 59
  'test/e2e/trainer-laptop.test.ts', // 46
  'test/e2e/sign-in-and-demo-offline.test.ts', // 45
  'test/sync/budget.test.ts', // 33
];

const rankOf = (spec: TestSpecification) => {
  const path = spec.moduleId.replaceAll('\\', '/');
  const index = SLOW.findIndex((slow) => path.endsWith(slow));
  return index < 0 ? SLOW.length : index;
};

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rankOf(a) - rankOf(b));
  }
}

export default defineConfig({
  test: {
    include: [
      'sync/**/*.test.ts',
      'sandbox/**/*.test.ts',
      'electron/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for what a browser and the core do: vitest's 1 s is too short on a loaded
    // machine (a fresh clone's CI run lost a 2.5 s note that way). Waiting costs only on failure.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // A worker's modules are kept from one test file to the next (evaluating the sandbox and the
    // core again for each of some 120 files took 270 s of the workers' time). No file mocks a
    // module or stubs globals; files clean up what they start.
    isolate: false,
    globalSetup: ['./test/support/bundles.ts'],
    // vitest's default is one worker less than the cores: a single one on a 2-core machine, where
    // most files wait on the sandbox, a browser or a child process more than they compute.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
