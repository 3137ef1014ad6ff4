import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer';

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
    pool: 'forks',
    // vitest's default is one worker less than the cores: a single one on a 2-core machine, where
    // most files wait on the sandbox, a browser or a child process more than they compute.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
