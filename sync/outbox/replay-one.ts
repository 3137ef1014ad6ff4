// Sends one operation (DESIGN rules 6, 7, 12): marked in flight in the same write transaction
// that reads it, its answer written in one transaction; a failure becomes a retry with its time,
// an unknown outcome to look for before sending again, a pause for a login, or a parked operation.
import { ApiError, retryDelayMs } from '../api';
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
import { requestFor, type OutgoingRequest } from './requests';
import { upsertRow } from '../db/upsert';
import { accept } from './accept';
import { CLIENT_ID_REFUSED, clientIdFor, rememberClientIds } from './client-ids';
import type { PushOptions } from './replay';
import { describeError, neverConnected } from './service-errors';

/** States from which an operation may be sent. */
const SENDABLE = new Set(['pending', 'retrying', 'unknown']);

export type Outcome = 'done' | 'retry' | 'parked' | 'unknown' | 'paused' | 'unreachable';

export async function replayOne(options: PushOptions, op: OutboxRow): Promise<Outcome> {
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
