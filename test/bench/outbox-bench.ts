// The `outbox` case: offline writes and their replay, on a replica of the sandbox at scale `large`
// (BENCH_SCALE to change), pulled once and used for the whole case.
//   writeP50Ms/writeP95Ms/writeMaxMs = one local write through the dispatcher (validation, the row
//                      and its outbox entry committed in one transaction, the record it answers),
//                      over every write queued below: a mix of helferstunden.create,
//                      participation.update, kalender.create and user.update, each of a different
//                      record (nothing coalesces); writeP50MsByCommand/writeP95MsByCommand per command
//   ratio            = pushOutbox replaying OPERATIONS queued operations (no faults) ÷ sending the
//                      very same requests (method, path, body, headers) raw with fetch, one after
//                      the other, answers read and parsed, from this process to the same sandbox
// The probe for client-generated ids (one 403 per resource type) is done by a warm-up push, so
// both sides send exactly OPERATIONS requests. BENCH_ROUNDS rounds (default 3) each queue a fresh
// set of operations, then time both sides, alternating which goes first; the ratio is the median
// of the rounds' ratios. The requests the push sent are checked against those the raw side sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApiClient, staticToken, type ApiClient } from '../../sync/api';
import { buildUrl, normalizeBase } from '../../sync/api/urls';
import { openReplica, type Replica } from '../../sync/db/open';
import { createDispatcher } from '../../sync/dispatch';
import type { OutboxRow } from '../../sync/outbox/operations';
import { pushOutbox } from '../../sync/outbox/replay';
import { requestFor, type OutgoingRequest } from '../../sync/outbox/requests';
import { runSync } from '../../sync/pull/engine';
import { spawnSandbox } from '../support/sandbox-process';

const OPERATIONS = 1000;
/** The commands of the mix, in turn. */
const MIX = ['helferstunden.create', 'participation.update', 'kalender.create', 'user.update'];

interface Pools {
  anlass: string[];
  typ: string[];
  participations: { id: string; courseId: string }[];
  users: string[];
}

interface Round {
  pushSeconds: number;
  rawSeconds: number;
  requests: number;
  ratio: number;
}

export async function outboxBench(): Promise<Record<string, unknown>> {
  const scale = process.env.BENCH_SCALE ?? 'large';
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  if (!(rounds >= 1)) throw new Error('BENCH_ROUNDS must be at least 1');
  const dir = mkdtempSync(join(tmpdir(), 'vorort-bench-outbox-'));
  const sandbox = await spawnSandbox(['--scale', scale, '--seed', '1']);
  let replica: Replica | undefined;
  try {
    const office = sandbox.users.find((u) => u.role === 'office');
    if (!office) throw new Error('the sandbox printed no office user');
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
    });
    replica = openReplica(join(dir, 'replica.sqlite'));
    let started = performance.now();
    // The whole replica at once (a budgeted first sync would leave most pools empty).
    const pulled = await runSync({ api, replica, options: { profile: 'office', full: true } });
    if (!pulled.ok) throw new Error(`the pull failed: ${JSON.stringify(pulled.collections)}`);
    const pullSeconds = (performance.now() - started) / 1000;
    const records = replica.sqlite.prepare('SELECT count(*) FROM outbox').pluck().get() as number;
    if (records !== 0) throw new Error('a fresh replica has an empty outbox');

    const pools = poolsOf(replica, rounds * (OPERATIONS / MIX.length) + MIX.length);
    const dispatcher = createDispatcher(replica);
    const writeMs: number[] = [];
    const writeMsByCommand: Record<string, number[]> = {};
    let next = 0;
    const queue = async (count: number, label: string) => {
      for (let i = 0; i < count; i += 1, next += 1) {
        const [name, args] = operation(next, pools, label);
        started = performance.now();
        const outcome = await dispatcher.call(name, args);
        const ms = performance.now() - started;
        if (!outcome.ok) throw new Error(`${name} failed: ${JSON.stringify(outcome.error)}`);
        writeMs.push(ms);
        (writeMsByCommand[name] ??= []).push(ms);
      }
    };

    // Warm-up: one operation of each command, pushed (the probe of client-generated ids, one
    // 403 per created type, happens here), and the raw side's connection and code paths.
    await queue(MIX.length, 'warm');
    const warmRequests = pendingRequests(replica);
    const warm = await pushOutbox({ api, sqlite: replica.sqlite });
    if (warm.done !== MIX.length || warm.parked || warm.unknown || warm.retrying)
      throw new Error(`the warm-up push did not go through: ${JSON.stringify(warm)}`);
    await sendRaw(sandbox.baseUrl, office.accessToken, warmRequests.slice(0, 1));
    writeMs.splice(0);
    for (const name of Object.keys(writeMsByCommand)) writeMsByCommand[name] = [];

    const measured: Round[] = [];
    for (let round = 0; round < rounds; round += 1) {
      await queue(OPERATIONS, `r${round}`);
      const expected = pendingRequests(replica);
      if (expected.length !== OPERATIONS)
        throw new Error(`${expected.length} requests for ${OPERATIONS} operations`);
      const sent: OutgoingRequest[] = [];
      const recording: ApiClient = {
        ...api,
        send: (method, path, options) => {
          sent.push({ method, path, body: options?.body });
          return api.send(method, path, options);
        },
      };
      const push = async () => {
        const begin = performance.now();
        const summary = await pushOutbox({ api: recording, sqlite: replica!.sqlite });
        const seconds = (performance.now() - begin) / 1000;
        if (summary.done !== OPERATIONS || summary.requests !== OPERATIONS)
          throw new Error(`the push did not send each operation once: ${JSON.stringify(summary)}`);
        return seconds;
      };
      const raw = () => sendRaw(sandbox.baseUrl, office.accessToken, expected);
      let pushSeconds: number;
      let rawSeconds: number;
      if (round % 2 === 0) {
        pushSeconds = await push();
        rawSeconds = await raw();
      } else {
        rawSeconds = await raw();
        pushSeconds = await push();
      }
      if (JSON.stringify(sent) !== JSON.stringify(expected))
        throw new Error('the push sent other requests than the raw side');
      measured.push({
        pushSeconds,
        rawSeconds,
        requests: sent.length,
        ratio: pushSeconds / rawSeconds,
      });
    }

    const round = (value: number, digits = 3) => Number(value.toFixed(digits));
    const middle = [...measured].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds / 2)]!;
    const byCommand = (p: number) =>
      Object.fromEntries(
        Object.entries(writeMsByCommand).map(([name, times]) => [
          name,
          round(percentile(times, p), 2),
        ]),
      );
    return {
      ratio: round(middle.ratio, 2),
      operations: OPERATIONS,
      requests: middle.requests,
      pushSeconds: round(middle.pushSeconds),
      rawSeconds: round(middle.rawSeconds),
      ratios: measured.map((r) => round(r.ratio, 2)),
      writeP50Ms: round(percentile(writeMs, 0.5), 2),
      writeP95Ms: round(percentile(writeMs, 0.95), 2),
      writeMaxMs: round(Math.max(...writeMs), 2),
      writes: writeMs.length,
      writeP50MsByCommand: byCommand(0.5),
      writeP95MsByCommand: byCommand(0.95),
      scale,
      rounds,
      pullSeconds: round(pullSeconds, 1),
    };
  } finally {
    await replica?.close();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Records of the replica to write to: enough distinct ones that no two operations coalesce. */
function poolsOf(replica: Replica, perCommand: number): Pools {
  const column = (sql: string) => replica.sqlite.prepare(sql).pluck().all() as string[];
  const pools: Pools = {
    anlass: column('SELECT id FROM helferstunden_anlaesse ORDER BY id LIMIT 50'),
    typ: column('SELECT id FROM helferstunden_typen WHERE aktiv = 1 ORDER BY id'),
    participations: replica.sqlite
      .prepare(
        `SELECT id, course_id AS courseId FROM participations WHERE status <> 'cancelled'
         ORDER BY id LIMIT ?`,
      )
      .all(perCommand) as { id: string; courseId: string }[],
    users: column(`SELECT id FROM users ORDER BY id LIMIT ${perCommand}`),
  };
  if (!pools.anlass.length || !pools.typ.length)
    throw new Error('the replica has no occasion or no active hour type');
  if (pools.participations.length < perCommand || pools.users.length < perCommand)
    throw new Error(`the replica has fewer than ${perCommand} participations or persons`);
  return pools;
}

/** The n-th operation of the mix; each update names a record no other operation names. */
function operation(n: number, pools: Pools, label: string): [string, unknown] {
  const name = MIX[n % MIX.length]!;
  const k = Math.floor(n / MIX.length);
  switch (name) {
    case 'helferstunden.create':
      return [
        name,
        {
          attributes: {
            von: new Date(Date.UTC(2026, 0, 1, 8) + n * 3_600_000)
              .toISOString()
              .replace(/\.\d{3}Z$/, '+00:00'),
            stunden: 1 + (n % 8) / 2,
            bemerkung: `bench ${label} ${n}`,
          },
          relationships: {
            anlass: {
              data: { type: 'helferstunden_anlass', id: pools.anlass[k % pools.anlass.length] },
            },
            typ: { data: { type: 'helferstunden_typ', id: pools.typ[k % pools.typ.length] } },
          },
        },
      ];
    case 'participation.update': {
      const participation = pools.participations[k]!;
      return [
        name,
        {
          courseId: participation.courseId,
          id: participation.id,
          attributes: { comment: `bench ${label} ${n}` },
        },
      ];
    }
    case 'kalender.create':
      return [name, { attributes: { name: `Bench ${label} ${n}`, farbe: '#1a2b3c' } }];
    default:
      return [name, { id: pools.users[k]!, attributes: { ort: `Bench ${label} ${n}` } }];
  }
}

/** The requests the open operations would send now, in the outbox's order. */
function pendingRequests(replica: Replica): OutgoingRequest[] {
  const ops = replica.sqlite
    .prepare("SELECT * FROM outbox WHERE state = 'pending' ORDER BY id")
    .all() as OutboxRow[];
  return ops.map((op) => {
    const request = requestFor(replica.sqlite, op, null);
    if (!request) throw new Error(`operation ${op.id} would send nothing`);
    return request;
  });
}

/** The physical limit: the same requests with fetch, one after the other, answers read and parsed. */
async function sendRaw(
  baseUrl: string,
  token: string,
  requests: readonly OutgoingRequest[],
): Promise<number> {
  const base = normalizeBase(baseUrl);
  const started = performance.now();
  for (const request of requests) {
    const response = await fetch(buildUrl(base, request.path), {
      method: request.method,
      headers: {
        accept: 'application/vnd.api+json',
        authorization: `Bearer ${token}`,
        'user-agent': 'Vorort',
        ...(request.body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      redirect: 'manual',
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`raw ${request.method} ${request.path}: ${response.status} ${text}`);
    if (text.trim() !== '') JSON.parse(text);
  }
  return (performance.now() - started) / 1000;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
