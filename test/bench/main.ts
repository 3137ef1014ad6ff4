// `npm run bench [-- CASE...]`: performance as ratios against a baseline measured in the same run
// (the machines are shared and noisy, so bare times mean little). Each case ends with one JSON line.
import { exportBench } from './export-bench';
import { outboxBench } from './outbox-bench';
import { personnelBench } from './personnel-bench';
import { sandboxBench } from './sandbox-bench';
import { syncBench } from './sync-bench';
import { uiBench } from './ui-bench';
import { uiColdBench } from './ui-cold-bench';
import { uiHostBench } from './ui-host-bench';

const CASES: Record<string, () => Promise<Record<string, unknown>>> = {
  sync: syncBench,
  sandbox: sandboxBench,
  outbox: outboxBench,
  'ui-host': uiHostBench,
  ui: uiBench,
  'ui-cold': uiColdBench,
  export: exportBench,
  personnel: personnelBench,
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = wanted.filter((name) => !(name in CASES));
if (unknown.length) {
  console.error(
    `unknown bench case(s): ${unknown.join(', ')}; known: ${Object.keys(CASES).join(', ')}`,
  );
  process.exit(2);
}
for (const name of wanted.length ? wanted : Object.keys(CASES)) {
  const figures = await CASES[name]!();
  console.log(JSON.stringify({ case: name, ...figures }));
}
