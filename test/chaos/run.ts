// One chaos run: a first pull into a fresh replica, then batches of seeded operations applied
// through the dispatcher (in this process, on the replica file), interleaved with `vorort sync
// --push-only` as a child process that is killed with SIGKILL at seeded moments, against the
// sandbox with injected faults and access tokens that expire after a few seconds. Then the
// faults go off and the push runs until the outbox is empty (or holds only occasions whose
// outcome the core cannot look up), and the service's store is compared with the model.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OutboxEntry } from '../../sync/contract';
import { openReplica, type Replica } from '../../sync/db/open';
import { createDispatcher } from '../../sync/dispatch';
import { compareWithService } from './compare';
import { login, spawnSync, startChaosSandbox, type SyncChild } from './environment';
import { ChaosModel, type ModelRecord } from './generator';

export interface ChaosOptions {
  seed: number;
  /** Operations the core accepts (refused ones are counted apart). */
  operations: number;
  faults?: string;
  tokenTtlSeconds?: number;
  slowMs?: number;
  /** The whole run stops generating at this wall-clock budget and drains. */
  wallClockMs?: number;
  /** Chance that a run of the syncing process is killed (at a seeded moment). */
  killProbability?: number;
  log?: (line: string) => void;
}

export interface ChaosResult {
  operations: number;
  refused: number;
  refusedBy: Record<string, number>;
  faults: number;
  kills: number;
  syncRuns: number;
  relogins: number;
  /** Requests refused with 401 (an expired access token: the child refreshed it from the token file). */
  expiredTokens: number;
  lost: number;
  duplicated: number;
  unverifiable: number;
  /** Records excluded because they wait for an unverifiable occasion. */
  excluded: number;
  problems: string[];
  byCommand: Record<string, number>;
  seconds: number;
  /** The wall-clock cap ended the generation before all operations were applied. */
  capped: boolean;
}

export const DEFAULT_FAULTS = 'error=0.1,throttle=0.05,slow=0.02,lost=0.05';

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const wallClockMs = options.wallClockMs ?? 10 * 60_000;
  const killProbability = options.killProbability ?? 0.6;
  const dir = mkdtempSync(join(tmpdir(), 'vorort-chaos-'));
  const db = join(dir, 'replica.db');
  const tokenFile = join(dir, 'tokens.json');
  const env = await startChaosSandbox({
    seed: options.seed,
    faults: options.faults ?? DEFAULT_FAULTS,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 5,
    slowMs: options.slowMs ?? 1500,
  });
  const { sandbox } = env;
  let replica: Replica | undefined;
  let running: SyncChild | undefined;
  const result: ChaosResult = {
    operations: 0,
    refused: 0,
    refusedBy: {},
    faults: 0,
    kills: 0,
    syncRuns: 0,
    relogins: 0,
    expiredTokens: 0,
    lost: 0,
    duplicated: 0,
    unverifiable: 0,
    excluded: 0,
    problems: [],
    byCommand: {},
    seconds: 0,
    capped: false,
  };
  try {
    await login(sandbox, tokenFile);
    const sync = (pushOnly: boolean) => {
      result.syncRuns += 1;
      return spawnSync({ db, server: sandbox.baseUrl, tokenFile, pushOnly });
    };
    const first = await sync(false).ended;
    if (first.code !== 0) throw new Error(`the first pull failed (${first.code}): ${first.last}`);
    replica = openReplica(db);
    const dispatcher = createDispatcher(replica);
    const model = new ChaosModel(replica.sqlite, options.seed, new Date());
    let index = 0;

    const applyOne = async () => {
      for (let tries = 0; tries < 50; tries += 1) {
        index += 1;
        const op = model.next(index);
        if (!op) continue;
        const outcome = await dispatcher.call(op.name, op.args);
        if (outcome.ok) {
          op.accepted((outcome.value as { id: string }).id);
          result.operations += 1;
          result.byCommand[op.name] = (result.byCommand[op.name] ?? 0) + 1;
        } else {
          result.refused += 1;
          const why = `${op.name}: ${outcome.error.code}`;
          result.refusedBy[why] = (result.refusedBy[why] ?? 0) + 1;
          if (result.refused <= 5) log(`refused ${op.name}: ${outcome.error.message.en}`);
        }
        return;
      }
    };
    /** Whether the login is gone (a kill between a refresh and writing its answer): log in again. */
    const afterRun = async (ended: Awaited<SyncChild['ended']>) => {
      let summary: { outbox?: { pausedForLogin?: boolean }; exitCode?: number } = {};
      try {
        summary = JSON.parse(ended.last) as typeof summary;
      } catch {
        // killed before its summary
      }
      if (ended.code === 4 || summary.exitCode === 4 || summary.outbox?.pausedForLogin) {
        result.relogins += 1;
        log(`login lost (exit ${ended.code}); logging in again`);
        await login(sandbox, tokenFile);
      } else if (ended.code !== null && ended.code !== 0 && ended.code !== 1) {
        result.problems.push(
          `sync exited ${ended.code}: ${ended.last} ${ended.stderr.slice(-500)}`,
        );
      }
    };

    env.faults(true);
    sandbox.clearRequests();
    const generateUntil = started + wallClockMs * 0.75;
    while (result.operations < options.operations) {
      if (Date.now() > generateUntil) {
        result.capped = true;
        break;
      }
      const batch = 3 + Math.floor(model.draw() * 25);
      for (let i = 0; i < batch && result.operations < options.operations; i += 1) await applyOne();
      running = sync(true);
      const child = running;
      let ended = false;
      void child.ended.then(() => {
        ended = true;
      });
      const kill = model.draw() < killProbability;
      const killAfter = 50 + Math.floor(model.draw() * 2500);
      const runStart = Date.now();
      // Local writes go on while the push runs, as in the app.
      const during = Math.floor(model.draw() * 6);
      for (let i = 0; i < during && !ended && result.operations < options.operations; i += 1) {
        await sleep(Math.floor(model.draw() * 200));
        await applyOne();
      }
      if (kill) {
        const wait = killAfter - (Date.now() - runStart);
        if (wait > 0) await Promise.race([sleep(wait), child.ended]);
        if (!ended) {
          child.child.kill('SIGKILL');
          result.kills += 1;
        }
      } else {
        await Promise.race([child.ended, sleep(120_000)]);
        if (!ended) child.child.kill('SIGKILL');
      }
      await afterRun(await child.ended);
      running = undefined;
    }
    const requests = sandbox.requests;
    result.faults = requests.filter((request) => request.fault !== undefined).length;
    result.expiredTokens = requests.filter((request) => request.status === 401).length;
    log(
      `generated ${result.operations} operations (${result.refused} refused), ${result.kills} kills, ${result.faults} faults in ${((Date.now() - started) / 1000).toFixed(1)} s; draining`,
    );

    // The drain: no faults, no kills; whatever waits for a later time is asked to go now.
    env.faults(false);
    let open: OutboxEntry[] = [];
    for (let round = 0; round < 8; round += 1) {
      const ended = await sync(true).ended;
      await afterRun(ended);
      open = await outboxEntries(dispatcher);
      const movable = open.filter((entry) => !unverifiable(entry));
      if (movable.every((entry) => entry.state === 'parked' || waitsForUnverifiable(entry, open)))
        break;
      for (const entry of movable) {
        // Parked ones stay: the generator writes nothing the service should refuse.
        if (entry.state === 'retrying' || entry.state === 'unknown')
          await dispatcher.call('outbox.retry', { id: entry.id });
      }
    }

    const stuck = open.filter(
      (entry) => !unverifiable(entry) && !waitsForUnverifiable(entry, open),
    );
    for (const entry of stuck.slice(0, 20))
      result.problems.push(
        `left in the outbox: #${entry.id} ${entry.command} ${entry.recordId} ${entry.state} ${entry.error?.message.en ?? ''}`,
      );
    const unverifiableIds = new Set(open.filter(unverifiable).map((entry) => entry.recordId));
    result.unverifiable = unverifiableIds.size;
    const unverifiableRecords = new Set<ModelRecord>(
      model.records.filter((record) => unverifiableIds.has(record.handle)),
    );
    const comparison = compareWithService(sandbox.store, model, unverifiableRecords);
    result.lost = comparison.lost + stuck.length;
    result.duplicated = comparison.duplicated;
    result.excluded = comparison.excluded;
    result.problems.push(...comparison.problems);
    result.seconds = (Date.now() - started) / 1000;
    return result;
  } finally {
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
    await replica?.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function outboxEntries(
  dispatcher: ReturnType<typeof createDispatcher>,
): Promise<OutboxEntry[]> {
  const outcome = await dispatcher.call('outbox.list', {});
  if (!outcome.ok) throw new Error(`outbox.list: ${outcome.error.message.en}`);
  return outcome.value as OutboxEntry[];
}

/** An occasion whose POST answer was lost: the service has no list to look it up in. */
function unverifiable(entry: OutboxEntry): boolean {
  return entry.command === 'helferstunden_anlass.create' && entry.state === 'unknown';
}

function waitsForUnverifiable(entry: OutboxEntry, open: OutboxEntry[]): boolean {
  if (unverifiable(entry)) return true;
  const waitedFor = new Set(open.filter(unverifiable).map((e) => e.recordId));
  if (entry.waitingFor && waitedFor.has(entry.waitingFor)) return true;
  // Behind an operation of the same record that waits.
  return open.some(
    (other) =>
      other.id < entry.id &&
      other.recordType === entry.recordType &&
      other.recordId === entry.recordId &&
      other !== entry &&
      waitsForUnverifiable(other, open),
  );
}
