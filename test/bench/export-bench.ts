// The `export` case: 10,000 volunteer-hour entries (the sandbox at scale `medium`, every entry,
// synced once into a replica) exported as .ics and as CSV, against writing the very same bytes
// with plain fs.writeFile (the limit any export meets).
//   icsSeconds / csvSeconds        = exportData (read the replica, build the file) + writing it
//   icsWriteSeconds / csvWriteSeconds = fs.writeFile of the same bytes alone
//   icsRatio / csvRatio            = the first ÷ the second (the rounds' medians)
//   icsFirstSeconds                = the very first .ics export: it also records every entry's
//                                    UID and SEQUENCE (10,000 rows into export_uids)
// BENCH_ROUNDS rounds (default 5); the target is under 1 s for each export.
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { exportData, type ExportRequestInput } from '../../sync/export';
import { runSync } from '../../sync/pull/engine';
import { spawnSandbox } from '../support/sandbox-process';

const ENTRIES = 10_000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export async function exportBench(): Promise<Record<string, unknown>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  if (!(rounds >= 1)) throw new Error('BENCH_ROUNDS must be at least 1');
  const dir = mkdtempSync(join(tmpdir(), 'vorort-bench-export-'));
  const sandbox = await spawnSandbox(['--scale', 'medium', '--seed', '1']);
  let replica: Replica | undefined;
  try {
    const office = sandbox.users.find((u) => u.role === 'office');
    if (!office) throw new Error('the sandbox printed no office user');
    replica = openReplica(join(dir, 'replica.sqlite'));
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
    });
    const pulled = await runSync({ api, replica, options: { profile: 'office', full: true } });
    if (!pulled.ok) throw new Error(`the pull failed: ${JSON.stringify(pulled.collections)}`);
    const entries = replica.sqlite.prepare('SELECT count(*) FROM helferstunden').pluck().get();
    if (entries !== ENTRIES)
      throw new Error(`expected ${ENTRIES} hour entries, the replica has ${entries}`);

    const timed = async (request: ExportRequestInput, file: string) => {
      const started = performance.now();
      const result = await exportData(replica!, request);
      await writeFile(file, result.bytes);
      const seconds = (performance.now() - started) / 1000;
      if (result.count !== ENTRIES) throw new Error(`exported ${result.count} of ${ENTRIES}`);
      const plainStarted = performance.now();
      await writeFile(join(dir, `plain-${file.split('/').at(-1)}`), result.bytes);
      return {
        seconds,
        writeSeconds: (performance.now() - plainStarted) / 1000,
        bytes: result.bytes.byteLength,
      };
    };
    const ics = join(dir, 'helferstunden.ics');
    const csv = join(dir, 'helferstunden.csv');
    const first = await timed({ format: 'ics', what: 'hours' }, ics);
    await timed({ format: 'csv', what: 'hours' }, csv);
    const icsRounds: Awaited<ReturnType<typeof timed>>[] = [];
    const csvRounds: Awaited<ReturnType<typeof timed>>[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternating which goes first, so neither always finds the caches warm.
      if (round % 2) {
        csvRounds.push(await timed({ format: 'csv', what: 'hours' }, csv));
        icsRounds.push(await timed({ format: 'ics', what: 'hours' }, ics));
      } else {
        icsRounds.push(await timed({ format: 'ics', what: 'hours' }, ics));
        csvRounds.push(await timed({ format: 'csv', what: 'hours' }, csv));
      }
    }
    const figures = (list: typeof icsRounds) => ({
      seconds: round3(median(list.map((r) => r.seconds))),
      writeSeconds: round3(median(list.map((r) => r.writeSeconds))),
      ratio: Math.round(median(list.map((r) => r.seconds / r.writeSeconds)) * 10) / 10,
      bytes: list[0]!.bytes,
    });
    const [icsFigures, csvFigures] = [figures(icsRounds), figures(csvRounds)];
    const result = {
      entries: ENTRIES,
      rounds,
      icsFirstSeconds: round3(first.seconds),
      icsSeconds: icsFigures.seconds,
      icsWriteSeconds: icsFigures.writeSeconds,
      icsRatio: icsFigures.ratio,
      icsBytes: icsFigures.bytes,
      csvSeconds: csvFigures.seconds,
      csvWriteSeconds: csvFigures.writeSeconds,
      csvRatio: csvFigures.ratio,
      csvBytes: csvFigures.bytes,
    };
    console.log(
      `export: ${ENTRIES.toLocaleString('en-US')} hour entries as .ics in ${result.icsSeconds} s ` +
        `(${result.icsRatio}× fs.writeFile of its ${(first.bytes / 1e6).toFixed(1)} MB; the first, ` +
        `recording every UID, ${result.icsFirstSeconds} s), as CSV in ${result.csvSeconds} s ` +
        `(${result.csvRatio}× fs.writeFile)`,
    );
    return result;
  } finally {
    await replica?.close();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
