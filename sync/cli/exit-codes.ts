// Exit codes of the CLI, so scripts can tell failures apart (docs/command-line.md, `--help`).
import { ApiError } from '../api';
import { ReplicaError } from '../db/open';
import { SyncLockedError } from '../db/sync-lock';

export const EXIT = {
  ok: 0,
  /** The sync ran but some collections failed (service errors), or the office profile was refused the staff; the rest is applied. */
  partial: 1,
  /** Bad options or arguments, or a --db that is not a replica (or not one this Vorort can use). */
  badInput: 2,
  network: 3,
  auth: 4,
  /** Another sync is using the replica; nothing was done. Try again once it has finished. */
  busy: 5,
  /** Stopped by Ctrl+C (128 + SIGINT, as shells report it). */
  cancelled: 130,
  /** Stopped by SIGTERM (128 + SIGTERM), as cleanly as by Ctrl+C. */
  terminated: 143,
} as const;

/** The exit codes as `vorort sync --help` and docs/command-line.md list them. */
export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    some collections or items failed, or the office profile may not read
       the staff (a hint names --profile trainer); the rest is applied
  2    bad input: options, arguments, or a --db that is not a usable replica
  3    network failure: the service could not be reached
  4    login refused (401; a 403 for one area is reported, not failed)
  5    another sync is using the replica (nothing was done)
  130  cancelled with Ctrl+C (SIGINT); what was synced is kept
  143  stopped by SIGTERM; what was synced is kept`;

export class CliInputError extends Error {
  override name = 'CliInputError';
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof CliInputError || error instanceof ReplicaError) return EXIT.badInput;
  if (error instanceof SyncLockedError) return EXIT.busy;
  if (error instanceof ApiError) {
    if (error.kind === 'auth' || error.kind === 'forbidden') return EXIT.auth;
    if (error.kind === 'network' || error.kind === 'timeout') return EXIT.network;
    if (error.kind === 'cancelled') return EXIT.cancelled;
  }
  return EXIT.partial;
}

/**
 * One line for a person: the message of an error the CLI expects, or the message of an
 * unexpected one (its stack only with VORORT_DEBUG=1).
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error).split('\n')[0] ?? '';
  const expected =
    error instanceof CliInputError ||
    error instanceof ReplicaError ||
    error instanceof SyncLockedError ||
    error instanceof ApiError;
  if (process.env.VORORT_DEBUG && error.stack) return error.stack;
  const line = error.message.split('\n')[0] ?? '';
  return expected ? line : `unexpected error: ${line} (VORORT_DEBUG=1 shows where)`;
}
