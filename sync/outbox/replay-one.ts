// Sends one operation (DESIGN rules 6, 7, 12): claimed and marked in flight in the write
// transaction that reads it, its answer written in one; a failure becomes a retry with its time,
// an unknown outcome to look for before sending again, a pause for a login, or a parked operation.
// Operations sent side by side share those transactions (sync/db/group-commit.ts): a replayed
// operation cost two commits of its own, now a share of two.
import { ApiError, retryDelayMs } from '../api';
import type { GroupCommit } from '../db/group-commit';
import { refreshRecord } from './local-truth';
import { lookForCreated } from './lookup';
import {
  finish,
  getOperation,
  markInFlight,
  NEVER,
  setState,
  verbOf,
  type OutboxRow,
} from './operations';
import { nextReady } from './ready';
import { requestFor, type OutgoingRequest } from './requests';
import { upsertRow } from '../db/upsert';
import { accept } from './accept';
import { CLIENT_ID_REFUSED, clientIdFor, rememberClientIds } from './client-ids';
import type { PushOptions } from './replay';
import { describeError, neverConnected } from './service-errors';

/** States from which an operation may be sent. */
const SENDABLE = new Set(['pending', 'retrying', 'unknown']);

export type Outcome = 'done' | 'retry' | 'parked' | 'unknown' | 'paused' | 'unreachable';

/** An operation taken for sending by one lane of the push. */
export type Claim = { op: OutboxRow; clientId: string | null } & (
  | { request: OutgoingRequest } // marked in flight: sent once the claim's transaction committed
  | { lookFirst: true } // a create of unknown outcome: looked for on the service before anything
  | { nothingToSend: true } // nothing differs from the service's version: done without a request
);

/**
 * The next operation that may go and no lane holds, marked in flight; null when none may go now.
 * Call inside a write transaction: the operation is read and marked in it, so a local write of
 * another process that folds into it lands before (and goes with it) or after (a new operation).
 */
export function claimNext(
  sqlite: PushOptions['sqlite'],
  now: string,
  claimed: ReadonlySet<number>,
): Claim | null {
  const op = nextReady(sqlite, now, claimed);
  if (!op) return null;
  const creates = verbOf(op.command) === 'create';
  const clientId = creates ? clientIdFor(sqlite, op) : null;
  // With a client-generated id the service itself tells a repeat (409): no need to look first.
  if (op.state === 'unknown' && creates && !(clientId && op.client_id === clientId))
    return { op, clientId, lookFirst: true };
  const request = markForSending(sqlite, op, clientId, now);
  return request ? { op, clientId, request } : { op, clientId, nothingToSend: true };
}

/** The operation's request, marked in flight (rule 7); null, and done, when nothing differs. */
function markForSending(
  sqlite: PushOptions['sqlite'],
  op: OutboxRow,
  clientId: string | null,
  now: string,
): OutgoingRequest | null {
  const request = requestFor(sqlite, op, clientId);
  if (!request) {
    finish(sqlite, op.id, now);
    refreshRecord(sqlite, op.record_type, op.record_id);
    return null;
  }
  markInFlight(sqlite, op, now, {
    fingerprint: verbOf(op.command) === 'create' ? JSON.stringify(request.body) : null,
    clientId,
  });
  return request;
}

/**
 * Carries a claimed operation through: its lookup, request and answer (each write via `commit`).
 * `afterAnswer` is called as the answer's write is asked for, with whether it was written, so that
 * the lane can claim its next operation in the same transaction.
 */
export async function replayClaimed(
  options: PushOptions,
  claim: Claim,
  commit: GroupCommit,
  afterAnswer?: (written: () => boolean) => void,
): Promise<Outcome> {
  const { api, sqlite, signal } = options;
  const iso = () => (options.now?.() ?? new Date()).toISOString();
  const { op, clientId } = claim;
  if ('nothingToSend' in claim) return 'done';
  let request: OutgoingRequest;
  if ('lookFirst' in claim) {
    const settled = await settleUnknownCreate(options, op, commit);
    if (settled !== 'send again') return settled;
    // Read again: the lookup took a while, and a local write may have folded in meanwhile.
    const marked = await commit(() => {
      const fresh = getOperation(sqlite, op.id);
      if (!fresh || !SENDABLE.has(fresh.state)) return 'taken' as const;
      return markForSending(sqlite, fresh, clientId, iso()) ?? ('nothing to send' as const);
    });
    if (marked === 'taken') return 'retry';
    if (marked === 'nothing to send') return 'done';
    request = marked;
  } else {
    request = claim.request;
  }
  try {
    const answer = await api.send(request.method, request.path, {
      body: request.body,
      ...(signal ? { signal } : {}),
    });
    let written = false;
    const accepted = commit(() => {
      if (clientId) rememberClientIds(sqlite, op.record_type, true, iso());
      accept(sqlite, op, answer?.data ?? null, answer?.included ?? [], iso());
      written = true;
    });
    afterAnswer?.(() => written);
    await accepted;
    return 'done';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return failed(options, op, request, error, clientId, commit);
  }
}

async function settleUnknownCreate(
  options: PushOptions,
  op: OutboxRow,
  commit: GroupCommit,
): Promise<'done' | 'retry' | 'unknown' | 'paused' | 'send again'> {
  const { api, sqlite } = options;
  const iso = () => (options.now?.() ?? new Date()).toISOString();
  try {
    const result = await lookForCreated(api, sqlite, op, options.signal);
    if ('found' in result) {
      await commit(() => accept(sqlite, op, result.found, result.included, iso()));
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
      upsertRow(sqlite, 'replica_meta', ['key'], { key: 'outbox_paused', value: 'login' });
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
  commit: GroupCommit,
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
      upsertRow(sqlite, 'replica_meta', ['key'], { key: 'outbox_paused', value: 'login' });
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
        const settled = await settleUnknownCreate(options, op, commit);
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
