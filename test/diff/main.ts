// `npm run test:diff [-- --seed N --steps N --minutes N --schedule mixed|steady --replay FILE]`: the long differential
// run. Prints `steps N, syncs N, compared N, divergences N`; on a divergence also its seed, the
// records, and a shortened sequence (written as JSON beside, to replay with --replay). Exits 1
// on a divergence, 2 when the run itself failed.
import { readFileSync, writeFileSync } from 'node:fs';
import { firstDivergenceReport, sameDivergence, summaryLine } from './report';
import { runDiff } from './run';
import { shrink } from './shrink';
import type { Step } from './steps';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function numberOption(name: string, fallback: number): number {
  const text = option(name);
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number, got ${text}`);
    process.exit(2);
  }
  return value;
}

const seed = numberOption('seed', 1);
const steps = numberOption('steps', 2000);
const minutes = numberOption('minutes', 30);
const replayFile = option('replay');
const schedule = option('schedule') ?? 'mixed';
if (schedule !== 'mixed' && schedule !== 'steady') {
  console.error(`--schedule must be mixed or steady, got ${schedule}`);
  process.exit(2);
}
const log = (line: string) => console.error(`diff: ${line}`);

try {
  const replay = replayFile ? (JSON.parse(readFileSync(replayFile, 'utf8')) as Step[]) : undefined;
  const result = await runDiff({
    schedule,
    seed,
    steps,
    wallClockMs: minutes * 60_000,
    log,
    ...(replay ? { replay } : {}),
  });
  let shortened: Step[] | undefined;
  if (result.first && !replay) {
    log(`divergence at step ${result.first.step + 1}; shortening the sequence`);
    shortened = await shrink(result.first.sequence, {
      fails: async (candidate) =>
        sameDivergence(result.first!, (await runDiff({ seed, steps: 0, replay: candidate })).first),
      log,
    });
    const file = `diff-seed-${seed}.json`;
    writeFileSync(file, JSON.stringify(shortened, null, 1));
    log(
      `the shortened sequence is in ${file} (replay: npm run test:diff -- --seed ${seed} --replay ${file})`,
    );
  }
  for (const line of firstDivergenceReport(seed, result, shortened)) console.log(line);
  console.log(
    `allowed stale ${result.allowed}, syncs catching up ${result.catchingUp}, changes between pages ${result.betweenPages}, refused requests ${result.refused}, seed ${seed}, ${result.seconds.toFixed(1)} s`,
  );
  console.log(`by step ${JSON.stringify(result.byLabel)}`);
  console.log(summaryLine(result));
  process.exit(result.divergences > 0 ? 1 : 0);
} catch (error) {
  console.error(`diff: the run failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(2);
}
