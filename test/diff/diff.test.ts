// The differential tester's short seeded form, in every `npm test`: a few hundred steps over both
// profiles, paging on and off, clocks moved minutes to weeks. The long form is `npm run test:diff`.
import { describe, expect, it } from 'vitest';
import { firstDivergenceReport, summaryLine } from './report';
import { runDiff } from './run';

describe('differential tester (short form)', () => {
  it.each([11, 12])(
    'seed %i: the replicas never drift from the service',
    async (seed) => {
      const result = await runDiff({ seed, steps: 150 });
      console.log(summaryLine(result));
      expect(result.syncs).toBeGreaterThan(10);
      expect(result.compared).toBeGreaterThan(1000);
      expect(firstDivergenceReport(seed, result)).toEqual([]);
    },
    240_000,
  );
});
