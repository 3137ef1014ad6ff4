// The short seeded form of the chaos test (the full one: `npm run test:chaos`): 150 operations
// over all write commands, pushed by `vorort sync --push-only` child processes that are killed
// at seeded moments, against the sandbox with faults and 5-second tokens. Nothing may be lost
// or duplicated. All 150 are applied however slow the machine: the run's wall-clock cap is far
// off (a fresh clone's CI run under load once generated only 96 in the old cap's 37.5 s).
import { describe, expect, it } from 'vitest';
import { runChaos } from './run';

describe('chaos (short form)', () => {
  it('loses and duplicates nothing through faults, kills and expiring tokens', async () => {
    const result = await runChaos({
      seed: 11,
      operations: 150,
      wallClockMs: 240_000,
      killProbability: 0.6,
    });
    const line = `operations ${result.operations}, faults ${result.faults}, kills ${result.kills}, lost ${result.lost}, duplicated ${result.duplicated}`;
    expect(result.problems, line).toEqual([]);
    expect(result.lost).toBe(0);
    expect(result.duplicated).toBe(0);
    expect(
      result.operations,
      `${line}${result.capped ? ' (the wall-clock cap ended it)' : ''}`,
    ).toBe(150);
    expect(result.kills).toBeGreaterThan(0);
    expect(result.faults).toBeGreaterThan(0);
  }, 300_000);
});
