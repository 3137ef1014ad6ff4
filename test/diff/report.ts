// The differential tester's words: the summary line, the first divergence with its seed, and
// the shortened sequence that still shows it (to paste into a regression test).
import type { Divergence } from './compare';
import type { DiffResult, FirstDivergence } from './run';
import { describeStep, type Step } from './steps';

export function summaryLine(result: DiffResult): string {
  return `steps ${result.steps}, syncs ${result.syncs}, compared ${result.compared}, divergences ${result.divergences}`;
}

export function describeDivergence(divergence: Divergence): string {
  const fields = divergence.fields
    ?.map(
      (f) =>
        `${f.field}: replica ${JSON.stringify(f.replica)}, service ${JSON.stringify(f.service)}`,
    )
    .join('; ');
  return `${divergence.table} ${divergence.id} ${divergence.kind}${fields ? ` (${fields})` : ''}: ${divergence.why}`;
}

export function firstDivergenceReport(
  seed: number,
  result: DiffResult,
  shortened?: readonly Step[],
): string[] {
  const first = result.first;
  if (!first) return [];
  const lines = [
    `first divergence: seed ${seed}, step ${first.step + 1}, after a sync of the ${first.profile} replica`,
    ...first.divergences.slice(0, 10).map((d) => `  ${describeDivergence(d)}`),
  ];
  if (first.divergences.length > 10) lines.push(`  ... and ${first.divergences.length - 10} more`);
  if (shortened) {
    lines.push(`shortened sequence (${shortened.length} of ${first.sequence.length} steps):`);
    shortened.forEach((step, index) => lines.push(`  ${index + 1}. ${describeStep(step)}`));
  }
  return lines;
}

/** A shortened replay must show the divergence it set out from (its table and kind), not just any. */
export function sameDivergence(
  original: FirstDivergence,
  replay: FirstDivergence | undefined,
): boolean {
  const signature = (d: Divergence) => `${d.table}:${d.kind}`;
  const wanted = new Set(original.divergences.map(signature));
  return replay?.divergences.some((d) => wanted.has(signature(d))) ?? false;
}
