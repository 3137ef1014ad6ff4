// Times demo-data generation, persistence and reload per scale:
//   node bin/run-ts.mjs sandbox/data/measure.ts [small|medium|large ...]
// Reload is also shown against reading the same rows with no parsing, the floor for a reload.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { generateDemoData, SCALES, type Scale } from './generate';
import { openStore } from './memory-store';
import { RESOURCE_TYPES } from './store';

const ANCHOR = '2026-03-15';

interface Took {
  wall: number;
  /** CPU of all threads (GC helpers included): steadier than wall time on a shared machine. */
  cpu: number;
}

function timed<T>(fn: () => T): [T, Took] {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const result = fn();
  const cpu = process.cpuUsage(cpuStart);
  return [result, { wall: performance.now() - start, cpu: (cpu.user + cpu.system) / 1000 }];
}

function measure(scale: Scale, folder: string): void {
  const file = join(folder, `${scale}.sqlite`);
  const [, inMemory] = timed(() =>
    generateDemoData(openStore(), { scale, seed: 1, anchorDate: ANCHOR }),
  );
  const [written, persisted] = timed(() => {
    const store = openStore({ file });
    generateDemoData(store, { scale, seed: 1, anchorDate: ANCHOR });
    store.close();
    return store;
  });
  const records = RESOURCE_TYPES.reduce((sum, type) => sum + written.count(type), 0);
  const [, rawRead] = timed(() => {
    const db = new Database(file, { readonly: true });
    db.prepare('SELECT type, id, json FROM resources').raw().all();
    db.close();
  });
  const [reopened, reload] = timed(() => openStore({ file }));
  const [, firstList] = timed(() => reopened.all('helferstunden'));
  const someUser = reopened.all('user')[0]!.id;
  const [, firstRelated] = timed(() => reopened.related('helferstunden', 'user', someUser));
  reopened.close();

  const ms = (took: Took): string => `${Math.round(took.wall)} ms (cpu ${Math.round(took.cpu)} ms)`;
  console.log(
    [
      `${scale}: ${records} records, file ${(statSync(file).size / 1e6).toFixed(0)} MB`,
      `generate in memory ${ms(inMemory)}`,
      `generate + persist ${ms(persisted)}`,
      `reload ${ms(reload)}: ${(reload.wall / rawRead.wall).toFixed(1)}× the raw row read, ${ms(rawRead)}`,
      `first sorted list of hours ${ms(firstList)}, first related() incl. index ${ms(firstRelated)}`,
    ].join('\n  '),
  );
}

const scales = (
  process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(SCALES)
) as Scale[];
const folder = mkdtempSync(join(tmpdir(), 'vorort-measure-'));
try {
  for (const scale of scales) measure(scale, folder);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
