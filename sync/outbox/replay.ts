// Replays the outbox against the service (DESIGN rules 3, 6, 7, 12): in order per record, unrelated
// records independent, an operation on a record created offline after its parent has its id.
// Each operation is marked in flight in the database before its request leaves; the answer and
// the state that follows are written in one transaction. Retries wait in the database with their
// time, re-armed by the loop's own timer while it runs and by the next push otherwise.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sqlite } from '../db/sqlite';
import { ApiError, retryDelayMs, type ApiClient } from '../api';
import { isLocalId } from '../contract';
import type { ServiceResource } from '../db/rows';
import { adoptAnswer, replaceTemporaryId } from './adopt';
import { refreshRecord, type StoredBase } from './local-truth';
import { lookForCreated } from './lookup';
import {
  finish,
  getOperation,
  markInFlight,
  openCountsByState,
  NEVER,
  parseArgs,
  recoverInFlight,
  setState,
  verbOf,
  type OperationError,
  type OutboxRow,
} from './operations';
import { TEMPORARY_IDS_IN_TEXT, writableType } from './records';
import { requestFor, type OutgoingRequest } from './requests';
import { prepared } from './statements';

export interface PushOptions {
  api: ApiClient;
  sqlite: Sqlite;
  signal?: AbortSignal;
  now?: () => Date;
  /** How long this push waits for retries that fall due (rule 12); later ones wait for the next push. Default 60 s. */
  maxWaitMs?: number;
  onProgress?: (event: { done: number; total: number }) => void;
  /** Operations of unrelated records sent side by side. Default 4 (the API client's default in flight). */
  concurrency?: number;
  random?: () => number;
}

export interface PushSummary {
  /** Requests sent for operations (lookups of unknown outcomes included). */
  requests: number;
  /** Operations the service accepted (or that needed no request) in this push. */
  done: number;
  parked: number;
  unknown: number;
  retrying: number;
  /** Operations still waiting for a record created offline. */
  waiting: number;
  /** The service refused the token even after a refresh: the queue waits for a login. */
  pausedForLogin: boolean;
  /**
   * The service could not be reached: the push stopped at once rather than wait for retries due
   * within it (the scheduler turns offline and tries again when the network is back).
   */
  unreachable: boolean;
}

const CLIENT_ID_REFUSED = 'client_generated_id';

export async function pushOutbox(options: PushOptions): Promise<PushSummary> {
  const { api, sqlite, signal } = options;
  const clock = () => options.now?.() ?? new Date();
  const iso = () => clock().toISOString();
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const deadline = clock().getTime() + maxWaitMs;
  const summary: PushSummary = {
    requests: 0,
    done: 0,
    parked: 0,
    unknown: 0,
    retrying: 0,
    waiting: 0,
    pausedForLogin: false,
    unreachable: false,
  };
  recoverInFlight(sqlite, iso());
  prepared(sqlite, "DELETE FROM replica_meta WHERE key = 'outbox_paused'").run();
  const total = () =>
    prepared(sqlite, "SELECT count(*) FROM outbox WHERE state <> 'done'").pluck().get() as number;
  const startTotal = total();
  const counted = api.observeRequests(() => {
    summary.requests += 1;
  });
  // Operations of unrelated records go side by side (rule 3), at most `concurrency` at a time;
  // the API client's own limits (in flight, rate) still hold for all of them together.
  const claimed = new Set<number>();
  let paused = false;
  let unreachable = false;
  let wake = () => {};
  let progressed = new Promise<void>((resolve) => (wake = resolve));
  const announce = () => {
    const woken = wake;
    progressed = new Promise<void>((resolve) => (wake = resolve));
    woken();
  };
  const lane = async (): Promise<void> => {
    for (;;) {
      if (signal?.aborted || paused || unreachable) return;
      const op = nextReady(sqlite, iso(), claimed);
      if (!op) {
        // What the others finish may free more (a parent's id, the next operation of a record).
        if (claimed.size > 0) {
          await progressed;
          continue;
        }
        const due = nextDue(sqlite);
        if (due === null) return;
        const waitMs = Math.max(0, Date.parse(due) - clock().getTime());
        if (clock().getTime() + waitMs > deadline) return;
        await sleep(Math.min(waitMs, 1000), undefined, signal ? { signal } : {}).catch(() => {});
        continue;
      }
      claimed.add(op.id);
      let outcome: Outcome;
      try {
        outcome = await replayOne(options, op);
      } finally {
        claimed.delete(op.id);
        announce();
      }
      if (outcome === 'unreachable') {
        unreachable = true;
        summary.unreachable = true;
        return;
      }
      if (outcome === 'paused') {
        paused = true;
        summary.pausedForLogin = true;
        return;
      }
      options.onProgress?.({ done: startTotal - total(), total: startTotal });
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, lane));
  } finally {
    counted();
  }
  const counts = openCountsByState(sqlite);
  summary.parked = counts.parked ?? 0;
  summary.unknown = counts.unknown ?? 0;
  summary.retrying = counts.retrying ?? 0;
  summary.waiting = waitingCount(sqlite);
  summary.done = Math.max(0, startTotal - total());
  return summary;
}

/**
 * The first operation of each record that may go now, oldest first. The scan starts at the oldest
 * open operation (found in the index of open ones): done operations stay in the table, and
 * walking past all of them for every request made a push slower the longer the outbox's history.
 */
function nextReady(
  sqlite: Sqlite,
  now: string,
  claimed: ReadonlySet<number>,
): OutboxRow | undefined {
  const candidates = prepared(
    sqlite,
    `SELECT * FROM outbox o WHERE state IN ('pending', 'retrying', 'unknown')
         AND o.id >= (SELECT min(id) FROM outbox INDEXED BY outbox_open WHERE state <> 'done')
         AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
         AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.record_type = o.record_type
           AND p.record_id = o.record_id AND p.state <> 'done' AND p.id < o.id)
         AND NOT EXISTS (SELECT 1 FROM conflicts c WHERE c.record_type = o.record_type
           AND c.record_id = o.record_id)
       ORDER BY id`,
  ).iterate(now) as IterableIterator<OutboxRow>;
  for (const op of candidates) {
    if (!claimed.has(op.id) && waitingFor(op) === null) return op;
  }
  return undefined;
}

/**
 * Whether the record has a conflict not yet resolved: its operations wait for the person's
 * decision (DESIGN rule 2), as sending them would decide it for "mine".
 */
export function inConflict(sqlite: Sqlite, type: string, id: string): boolean {
  return (
    prepared(sqlite, 'SELECT 1 FROM conflicts WHERE record_type = ? AND record_id = ? LIMIT 1').get(
      type,
      id,
    ) !== undefined
  );
}

/** A temporary id the operation needs the service id of first, or null. */
export function waitingFor(op: Pick<OutboxRow, 'args' | 'record_id' | 'command'>): string | null {
  const own = verbOf(op.command) === 'create' || verbOf(op.command) === 'upsert';
  for (const id of op.args.match(TEMPORARY_IDS_IN_TEXT) ?? []) {
    if (id !== op.record_id || !own) return id;
  }
  if (!own && isLocalId(op.record_id)) return op.record_id;
  return null;
}

function waitingCount(sqlite: Sqlite): number {
  const open = prepared(
    sqlite,
    "SELECT args, record_id, command FROM outbox WHERE state IN ('pending', 'retrying')",
  ).all() as Pick<OutboxRow, 'args' | 'record_id' | 'command'>[];
  return open.filter((op) => waitingFor(op) !== null).length;
}

/**
 * When the next operation waiting for its retry time is due; null when none waits for a time.
 * One held by a conflict waits for a person, not for a time.
 */
export function nextDue(sqlite: Sqlite): string | null {
  return (
    (prepared(
      sqlite,
      `SELECT min(next_attempt_at) FROM outbox o WHERE state IN ('retrying', 'unknown')
         AND next_attempt_at IS NOT NULL AND next_attempt_at < ?
         AND NOT EXISTS (SELECT 1 FROM conflicts c WHERE c.record_type = o.record_type
           AND c.record_id = o.record_id)`,
    )
      .pluck()
      .get(NEVER) as string | null) ?? null
  );
}

/** States from which an operation may be sent. */
const SENDABLE = new Set(['pending', 'retrying', 'unknown']);

type Outcome = 'done' | 'retry' | 'parked' | 'unknown' | 'paused' | 'unreachable';

async function replayOne(options: PushOptions, op: OutboxRow): Promise<Outcome> {
  const { api, sqlite, signal } = options;
  const iso = () => (options.now?.() ?? new Date()).toISOString();
  const verb = verbOf(op.command);
  const creates = verb === 'create';
  const clientId = creates ? clientIdFor(sqlite, op) : null;
  // With a client-generated id the service itself tells a repeat (409): no need to look first.
  if (op.state === 'unknown' && creates && !(clientId && op.client_id === clientId)) {
    const settled = await settleUnknownCreate(options, op);
    if (settled !== 'send again') return settled;
  }
  // Read again and marked in flight in one write transaction: a local write of another process
  // that folds into this operation lands before (and goes with it) or after (a new operation).
  const request = sqlite
    .transaction(() => {
      const fresh = getOperation(sqlite, op.id);
      if (!fresh || !SENDABLE.has(fresh.state)) return 'taken' as const;
      const built = requestFor(sqlite, fresh, clientId);
      if (!built) {
        finish(sqlite, op.id, iso());
        refreshRecord(sqlite, op.record_type, op.record_id);
        return 'nothing to send' as const;
      }
      markInFlight(sqlite, fresh, iso(), {
        fingerprint: creates ? JSON.stringify(built.body) : null,
        clientId,
      });
      return built;
    })
    .immediate();
  if (request === 'taken') return 'retry';
  if (request === 'nothing to send') return 'done';
  try {
    const answer = await api.send(request.method, request.path, {
      body: request.body,
      ...(signal ? { signal } : {}),
    });
    if (clientId) rememberClientIds(sqlite, op.record_type, true, iso());
    sqlite.transaction(() =>
      accept(sqlite, op, answer?.data ?? null, answer?.included ?? [], iso()),
    )();
    return 'done';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return failed(options, op, request, error, clientId);
  }
}

/** The service took the operation: done, its answer as the base, a temporary id replaced. */
function accept(
  sqlite: Sqlite,
  op: OutboxRow,
  data: ServiceResource | ServiceResource[] | null,
  included: readonly ServiceResource[],
  now: string,
): void {
  finish(sqlite, op.id, now);
  const resource = data && !Array.isArray(data) ? data : null;
  const verb = verbOf(op.command);
  if (verb === 'delete') {
    refreshRecord(sqlite, op.record_type, op.record_id);
    const { table } = writableType(op.record_type);
    const still = prepared(sqlite, `SELECT local_state FROM ${table} WHERE id = ?`)
      .pluck()
      .get(op.record_id) as string | null | undefined;
    if (still === null) prepared(sqlite, `DELETE FROM ${table} WHERE id = ?`).run(op.record_id);
    return;
  }
  // The service answers a cancellation (or 409: cancelled before), not the participation: its
  // status is cancelled now, so the base says so until the course's list comes again.
  if (op.command === 'participation.cancel') cancelledInBase(sqlite, op.record_type, op.record_id);
  if (!resource || resource.type === 'cancellation') {
    refreshRecord(sqlite, op.record_type, op.record_id);
    return;
  }
  const args = parseArgs(op);
  const template = args.courseId ? { course_id: args.courseId } : {};
  if (isLocalId(op.record_id) && resource.id !== op.record_id) {
    replaceTemporaryId(sqlite, op.record_type, op.record_id, resource.id, now);
  }
  adoptAnswer(sqlite, resource, included, op.record_type, now, template);
}

function cancelledInBase(sqlite: Sqlite, type: string, id: string): void {
  const { table } = writableType(type);
  const text = prepared(sqlite, `SELECT base FROM ${table} WHERE id = ?`).pluck().get(id) as
    string | null | undefined;
  if (!text) return;
  const base = JSON.parse(text) as StoredBase;
  base.attributes = { ...base.attributes, status: 'cancelled' };
  prepared(sqlite, `UPDATE ${table} SET base = ? WHERE id = ?`).run(JSON.stringify(base), id);
}

async function settleUnknownCreate(
  options: PushOptions,
  op: OutboxRow,
): Promise<'done' | 'retry' | 'unknown' | 'paused' | 'send again'> {
  const { api, sqlite } = options;
  const iso = () => (options.now?.() ?? new Date()).toISOString();
  try {
    const result = await lookForCreated(api, sqlite, op, options.signal);
    if ('found' in result) {
      sqlite.transaction(() => accept(sqlite, op, result.found, result.included, iso()))();
      return 'done';
    }
    if ('absent' in result) return 'send again';
    setState(sqlite, op.id, 'unknown', iso(), {
      error: {
        status: null,
        code: 'outcome_unknown',
        message: {
          de: `Keine Antwort des Dienstes, und nachsehen lässt es sich nicht (${result.cannotTell}). Bitte im Dienst prüfen: erneut senden oder verwerfen.`,
          en: `The service did not answer, and this cannot be checked (${result.cannotTell}). Check the service, then retry or discard.`,
        },
      },
      // Parked in effect: only a person's retry (or discard) moves it on.
      nextAttemptAt: NEVER,
    });
    return 'unknown';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.kind === 'auth') {
      // Not even the lookup may read: the queue waits for a login (else it would ask again at once).
      prepared(
        sqlite,
        "INSERT OR REPLACE INTO replica_meta (key, value) VALUES ('outbox_paused', 'login')",
      ).run();
      return 'paused';
    }
    setState(sqlite, op.id, 'unknown', iso(), {
      nextAttemptAt: later(options, op.attempts, error.retryAfterSeconds),
      error: describeError(error),
    });
    return 'unknown';
  }
}

function later(options: PushOptions, attempts: number, retryAfterSeconds?: number): string {
  const delay = retryDelayMs(
    Math.max(0, attempts - 1),
    retryAfterSeconds,
    { baseMs: 500, maxMs: 5 * 60_000 },
    options.random,
  );
  return new Date((options.now?.() ?? new Date()).getTime() + delay).toISOString();
}

async function failed(
  options: PushOptions,
  op: OutboxRow,
  request: OutgoingRequest,
  error: ApiError,
  clientId: string | null,
): Promise<Outcome> {
  const { sqlite } = options;
  const now = (options.now?.() ?? new Date()).toISOString();
  const isPost = request.method === 'POST';
  switch (error.kind) {
    case 'cancelled':
    case 'network':
    case 'timeout':
    case 'interrupted':
    case 'malformed':
      // The request may have reached the service: a POST is looked for before it goes again.
      // Not when the connection was never made: then it certainly did not arrive.
      if (isPost && !neverConnected(error)) {
        setState(sqlite, op.id, 'unknown', now, {
          nextAttemptAt: error.kind === 'cancelled' ? null : later(options, op.attempts),
          error: describeError(error),
        });
      } else {
        setState(sqlite, op.id, 'retrying', now, {
          nextAttemptAt: error.kind === 'cancelled' ? null : later(options, op.attempts),
          error: describeError(error),
        });
      }
      // The whole service out of reach: no other operation would get through now either.
      if (error.kind === 'network') return 'unreachable';
      return isPost && !neverConnected(error) ? 'unknown' : 'retry';
    case 'server':
      // A 502 or 504 may come after the service committed: a create is looked for first.
      if (isPost && verbOf(op.command) === 'create' && !clientId) {
        setState(sqlite, op.id, 'unknown', now, {
          nextAttemptAt: later(options, op.attempts, error.retryAfterSeconds),
          error: describeError(error),
        });
        return 'unknown';
      }
      setState(sqlite, op.id, 'retrying', now, {
        nextAttemptAt: later(options, op.attempts, error.retryAfterSeconds),
        error: describeError(error),
      });
      return 'retry';
    case 'throttled':
      setState(sqlite, op.id, 'retrying', now, {
        nextAttemptAt: later(options, op.attempts, error.retryAfterSeconds),
        error: describeError(error),
      });
      return 'retry';
    case 'auth':
      // Refused even after one refresh: not carried out. The queue waits for a login.
      setState(sqlite, op.id, 'pending', now, { error: describeError(error) });
      prepared(
        sqlite,
        "INSERT OR REPLACE INTO replica_meta (key, value) VALUES ('outbox_paused', 'login')",
      ).run();
      return 'paused';
    case 'not_found':
      if (request.method === 'DELETE') {
        sqlite.transaction(() => accept(sqlite, op, null, [], now))();
        return 'done';
      }
      break;
    case 'conflict':
      if (op.command === 'participation.cancel') {
        sqlite.transaction(() => accept(sqlite, op, null, [], now))();
        return 'done';
      }
      if (clientId) {
        // 409 to a client-generated id: created before (an earlier attempt's answer was lost).
        const settled = await settleUnknownCreate(options, op);
        if (settled !== 'send again') return settled;
        // Created then, and deleted on the service since: nothing left to send.
        sqlite.transaction(() => accept(sqlite, op, null, [], now))();
        return 'done';
      }
      break;
    case 'forbidden':
      if (clientId && error.errors.some((e) => e.code === CLIENT_ID_REFUSED || !e.code)) {
        // The probe: this service assigns its own ids. Remembered; sent again without one.
        rememberClientIds(sqlite, op.record_type, false, now);
        setState(sqlite, op.id, 'pending', now);
        return 'retry';
      }
      break;
    default:
      break;
  }
  setState(sqlite, op.id, 'parked', now, { error: describeError(error) });
  return 'parked';
}

/** Errors of the connection attempt itself (undici nests them in `cause`): nothing was sent. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function neverConnected(error: ApiError): boolean {
  if (error.kind !== 'network') return false;
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    if (NOT_CONNECTED.has((cause as NodeJS.ErrnoException).code ?? '')) return true;
    cause = cause.cause;
  }
  return false;
}

function clientIdFor(sqlite: Sqlite, op: OutboxRow): string | null {
  const accepted = prepared(sqlite, 'SELECT accepted FROM client_ids WHERE record_type = ?')
    .pluck()
    .get(op.record_type) as number | undefined;
  if (accepted === 0) return null;
  return op.client_id ?? randomUUID();
}

function rememberClientIds(sqlite: Sqlite, type: string, accepted: boolean, now: string): void {
  prepared(
    sqlite,
    'INSERT OR REPLACE INTO client_ids (record_type, accepted, probed_at) VALUES (?, ?, ?)',
  ).run(type, accepted ? 1 : 0, now);
}

/** The service's own words where it gave some, in both languages' frames. */
export function describeError(error: ApiError): OperationError {
  const detail =
    error.errors
      .map((e) => e.detail ?? e.title)
      .filter(Boolean)
      .join('; ') || error.message;
  const status = error.status ?? null;
  const reason: Record<string, { de: string; en: string }> = {
    network: { de: 'Dienst nicht erreichbar', en: 'service unreachable' },
    timeout: { de: 'keine Antwort in der Zeit', en: 'no answer in time' },
    interrupted: { de: 'Verbindung abgebrochen', en: 'connection lost' },
    malformed: { de: 'unlesbare Antwort', en: 'unreadable answer' },
    throttled: { de: 'Dienst drosselt', en: 'service throttles' },
    server: { de: 'Fehler im Dienst', en: 'service error' },
    auth: { de: 'Anmeldung nötig', en: 'login needed' },
    cancelled: { de: 'abgebrochen', en: 'cancelled' },
  };
  const words = reason[error.kind];
  if (words) {
    return {
      status,
      code: error.kind,
      message: { de: `${words.de}: ${detail}`, en: `${words.en}: ${detail}` },
    };
  }
  const code = error.errors.find((e) => e.code)?.code;
  return {
    status,
    ...(code ? { code } : {}),
    message: {
      de: `Der Dienst hat abgelehnt${status ? ` (${status})` : ''}: ${detail}`,
      en: `The service refused${status ? ` (${status})` : ''}: ${detail}`,
    },
  };
}
