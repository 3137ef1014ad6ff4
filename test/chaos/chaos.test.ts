// The short seeded form of the chaos test (the full one: `npm run test:chaos`): 150 operations
// over all write commands, pushed by `vorort sync --push-only` child processes that are killed
// at seeded moments, against the sandbox with faults and 5-second tokens. Nothing may be lost
// or duplicated.
import { describe, expect, it } from 'vitest';
import { runChaos } from './run';

describe('chaos (short form)', () => {
  it('loses and duplicates nothing through faults, kills and expiring tokens', async () => {
    const result = await runChaos({
      seed: 11,
      operations: 150,
      wallClockMs: 50_000,
      killProbability: 0.6,
    });
    const line = `operations ${result.operations}, faults ${result.faults}, kills ${result.kills}, lost ${result.lost}, duplicated ${result.duplicated}`;
    expect(result.problems, line).toEqual([]);
    expect(result.lost).toBe(0);
    expect(result.duplicated).toBe(0);
    expect(result.operations).toBeGreaterThanOrEqual(100);
    expect(result.kills).toBeGreaterThan(0);
    expect(result.faults).toBeGreaterThan(0);
  }, 120_000);
});
