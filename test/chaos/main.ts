// `npm run test:chaos [-- --seed N --operations N --minutes N]`: the full chaos run. Prints
// `operations N, faults N, kills N, lost N, duplicated N` (and unverifiable and timing on other
// lines); exits 1 on any loss or duplicate, 2 when the run itself failed.
import { runChaos } from './run';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
  return value;
}

const seed = option('seed', 42);
const operations = option('operations', 1000);
const minutes = option('minutes', 10);
const cap = setTimeout(
  () => {
    console.error(`chaos: no result after ${minutes + 2} minutes; stopping`);
    process.exit(2);
  },
  (minutes + 2) * 60_000,
);
cap.unref();

try {
  const result = await runChaos({
    seed,
    operations,
    wallClockMs: minutes * 60_000,
    log: (line) => console.error(`chaos: ${line}`),
  });
  for (const line of result.problems) console.error(`chaos: ${line}`);
  console.log(
    `operations ${result.operations}, faults ${result.faults}, kills ${result.kills}, lost ${result.lost}, duplicated ${result.duplicated}`,
  );
  console.log(
    `unverifiable ${result.unverifiable} (occasions whose POST answer was lost: the service has no list of occasions to look them up; each exists at most once; they and ${result.excluded - result.unverifiable} dependent records are excluded from the comparison)`,
  );
  console.log(
    `refused ${result.refused}, sync runs ${result.syncRuns}, expired tokens ${result.expiredTokens}, logins again ${result.relogins}, seed ${seed}, ${result.seconds.toFixed(1)} s${result.capped ? ' (wall-clock cap reached)' : ''}`,
  );
  console.log(`by command ${JSON.stringify(result.byCommand)}`);
  if (result.refused) console.log(`refused by ${JSON.stringify(result.refusedBy)}`);
  process.exit(result.lost > 0 || result.duplicated > 0 ? 1 : 0);
} catch (error) {
  console.error(`chaos: the run failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(2);
}
