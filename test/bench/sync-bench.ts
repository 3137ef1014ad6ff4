// The `sync` case: an office sync of the sandbox at scale `large` (BENCH_SCALE to change),
// compared with the physical limits measured in the same run:
//   initialRatio     = initial sync time ÷ (raw fetch + JSON.parse of the same URLs, same concurrency
//                      + bulk insert of the same rows with plain prepared statements in one transaction)
//   incrementalRatio = no-change sync time ÷ raw fetch + JSON.parse of its URLs
// Both sides are measured warm: a first sync into a scratch replica warms the sandbox and this
// process (its time is reported as coldInitialSeconds), then BENCH_ROUNDS rounds each measure a
// first sync into a fresh replica, a no-change sync, and right after them their baselines. The
// ratios are the median of the rounds' ratios, so one noisy moment does not decide them.
// Also: requests, records per second, peak memory, the longest event-loop block during a first
// sync (in-process, and on the main thread while the same sync runs in a worker thread), and the
// p95 of two local reads (personnel by name prefix and status; a trainer's courses).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import pLimit from 'p-limit';
import { createApiClient, staticToken, type ApiClient } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { runSync } from '../../sync/pull/engine';
import { runSyncInWorker } from '../../sync/pull/worker';
import { createDispatcher, typedCaller } from '../../sync/dispatch';
import { spawnSandbox } from '../support/sandbox-process';

const MAX_IN_FLIGHT = 4;

interface Round {
  initialSeconds: number;
  initialRequests: number;
  records: number;
  maxEventLoopBlockMs: number;
  rawFetchSeconds: number;
  rawInsertSeconds: number;
  initialRatio: number;
  incrementalSeconds: number;
  incrementalRequests: number;
  incrementalRecords: number;
  rawIncrementalFetchSeconds: number;
  incrementalRatio: number;
}

export async function syncBench(): Promise<Record<string, unknown>> {
  const scale = process.env.BENCH_SCALE ?? 'large';
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'vorort-bench-'));
  const sandbox = await spawnSandbox(['--scale', scale, '--seed', '1']);
  try {
    const office = sandbox.users.find((u) => u.role === 'office');
    const trainer = sandbox.users.find((u) => u.role === 'trainer');
    if (!office || !trainer) throw new Error('the sandbox printed no office or trainer user');
    const urls: string[] = [];
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
      maxInFlight: MAX_IN_FLIGHT,
      onRequest: (event) => urls.push(event.url),
    });

    let started = performance.now();
    const scratch = openReplica(join(dir, 'warm-up.sqlite'));
    await syncOrThrow(api, scratch, 'warm-up sync');
    await scratch.close();
    removeDatabase(join(dir, 'warm-up.sqlite'));
    const coldInitialSeconds = (performance.now() - started) / 1000;
    urls.splice(0);

    const measured: Round[] = [];
    let replica: Replica | undefined;
    for (let round = 0; round < rounds; round += 1) {
      await replica?.close();
      removeDatabase(join(dir, `replica-${round - 1}.sqlite`));
      replica = openReplica(join(dir, `replica-${round}.sqlite`));
      measured.push(await measureRound(api, replica, urls, office.accessToken, dir));
    }
    if (!replica) throw new Error('BENCH_ROUNDS must be at least 1');

    const queries = typedCaller(createDispatcher(replica));
    const prefixes = ['M', 'Sch', 'K', 'Be', 'Wa', 'Ho', 'Fr', 'L'];
    const personnelP95 = await p95(200, (i) =>
      queries.query('personnel.list', {
        search: prefixes[i % prefixes.length],
        status: ['aktiv'],
        limit: 50,
      }),
    );
    const trainerCoursesP95 = await p95(200, () =>
      queries.query('courses.list', { trainerId: trainer.id, limit: 200 }),
    );
    await replica.close();

    // The same first sync in a worker thread, as the desktop app runs it: how long the main
    // thread's event loop is ever blocked meanwhile (DESIGN rule 13: at most 50 ms).
    const mainLoop = monitorEventLoopDelay({ resolution: 10 });
    mainLoop.enable();
    started = performance.now();
    const inWorker = await runSyncInWorker({
      replicaFile: join(dir, 'worker.sqlite'),
      token: office.accessToken,
      client: { baseUrl: sandbox.baseUrl, maxInFlight: MAX_IN_FLIGHT },
      options: { profile: 'office' },
    });
    const workerSeconds = (performance.now() - started) / 1000;
    mainLoop.disable();
    if (!inWorker.ok)
      throw new Error(`sync in a worker failed: ${JSON.stringify(inWorker.collections)}`);

    const round = (value: number, digits = 3) => Number(value.toFixed(digits));
    const middle = median(measured, (r) => r.initialSeconds);
    return {
      scale,
      rounds,
      coldInitialSeconds: round(coldInitialSeconds),
      initialSeconds: round(middle.initialSeconds),
      initialRequests: middle.initialRequests,
      records: middle.records,
      recordsPerSecond: Math.round(middle.records / middle.initialSeconds),
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      maxEventLoopBlockMs: round(Math.max(...measured.map((r) => r.maxEventLoopBlockMs)), 1),
      rawFetchSeconds: round(middle.rawFetchSeconds),
      rawInsertSeconds: round(middle.rawInsertSeconds),
      initialRatio: round(median(measured, (r) => r.initialRatio).initialRatio, 2),
      initialRatios: measured.map((r) => round(r.initialRatio, 2)),
      incrementalSeconds: round(median(measured, (r) => r.incrementalSeconds).incrementalSeconds),
      incrementalRequests: middle.incrementalRequests,
      incrementalRecords: middle.incrementalRecords,
      rawIncrementalFetchSeconds: round(
        median(measured, (r) => r.rawIncrementalFetchSeconds).rawIncrementalFetchSeconds,
      ),
      incrementalRatio: round(median(measured, (r) => r.incrementalRatio).incrementalRatio, 2),
      incrementalRatios: measured.map((r) => round(r.incrementalRatio, 2)),
      workerInitialSeconds: round(workerSeconds),
      workerMainThreadMaxBlockMs: round(mainLoop.max / 1e6, 1),
      personnelQueryP95Ms: round(personnelP95, 2),
      trainerCoursesQueryP95Ms: round(trainerCoursesP95, 2),
    };
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One round: a first sync into the empty `replica`, a no-change sync, and their baselines right after. */
async function measureRound(
  api: ApiClient,
  replica: Replica,
  urls: string[],
  token: string,
  dir: string,
): Promise<Round> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let started = performance.now();
  const initial = await syncOrThrow(api, replica, 'initial sync');
  const initialSeconds = (performance.now() - started) / 1000;
  loop.disable();
  const initialUrls = urls.splice(0);

  started = performance.now();
  const incremental = await syncOrThrow(api, replica, 'no-change sync');
  const incrementalSeconds = (performance.now() - started) / 1000;
  const incrementalUrls = urls.splice(0);

  const rawFetch = await rawFetchSeconds(initialUrls, token);
  const rawInsert = bulkInsertSeconds(replica, join(dir, 'baseline.sqlite'));
  const rawIncremental = await rawFetchSeconds(incrementalUrls, token);
  return {
    initialSeconds,
    initialRequests: initialUrls.length,
    records: initial.records,
    maxEventLoopBlockMs: loop.max / 1e6,
    rawFetchSeconds: rawFetch,
    rawInsertSeconds: rawInsert,
    initialRatio: initialSeconds / (rawFetch + rawInsert),
    incrementalSeconds,
    incrementalRequests: incrementalUrls.length,
    incrementalRecords: incremental.records,
    rawIncrementalFetchSeconds: rawIncremental,
    incrementalRatio: incrementalSeconds / rawIncremental,
  };
}

async function syncOrThrow(api: ApiClient, replica: Replica, what: string) {
  const summary = await runSync({ api, replica, options: { profile: 'office' } });
  if (!summary.ok) throw new Error(`${what} failed: ${JSON.stringify(summary.collections)}`);
  return summary;
}

/** A SQLite file with its WAL and shared-memory files (several 100 MB at scale large). */
function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

/** The round whose figure `of` is the median (the upper one for an even count). */
function median<T>(items: readonly T[], of: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => of(a) - of(b));
  return sorted[Math.floor(sorted.length / 2)] as T;
}

/** The physical limit of the network side: the same GETs, same concurrency, body parsed, nothing else. */
async function rawFetchSeconds(urls: readonly string[], token: string): Promise<number> {
  const limit = pLimit(MAX_IN_FLIGHT);
  const started = performance.now();
  await Promise.all(
    urls.map((url) =>
      limit(async () => {
        const response = await fetch(url, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' },
        });
        JSON.parse(await response.text());
      }),
    ),
  );
  return (performance.now() - started) / 1000;
}

/** The physical limit of the storage side: every row of the replica into an empty copy of its schema, one transaction. */
function bulkInsertSeconds(replica: Replica, file: string): number {
  const target = new BetterSqlite3(file);
  target.pragma('journal_mode = WAL');
  const schema = (type: string) =>
    replica.sqlite
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = ? AND sql IS NOT NULL AND name NOT LIKE 'sqlite_%'",
      )
      .all(type) as {
      name: string;
      sql: string;
    }[];
  const tables = schema('table');
  // The same schema, indexes included: they are part of what an insert costs.
  for (const entry of [...tables, ...schema('index')]) target.exec(entry.sql);
  const data = tables.map((table) => ({
    table,
    rows: replica.sqlite.prepare(`SELECT * FROM ${table.name}`).raw().all() as unknown[][],
  }));
  const started = performance.now();
  target.transaction(() => {
    for (const { table, rows } of data) {
      const first = rows[0];
      if (!first) continue;
      const insert = target.prepare(
        `INSERT INTO ${table.name} VALUES (${first.map(() => '?').join(',')})`,
      );
      for (const row of rows) insert.run(...row);
    }
  })();
  const seconds = (performance.now() - started) / 1000;
  target.close();
  removeDatabase(file);
  return seconds;
}

async function p95(runs: number, query: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await query(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs * 0.95)] ?? 0;
}
