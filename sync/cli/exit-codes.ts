// Exit codes of the CLI, so scripts can tell failures apart.
import { ApiError } from '../api';

export const EXIT = {
  ok: 0,
  /** The sync ran but some collections failed (service errors); the rest is applied. */
  partial: 1,
  badInput: 2,
  network: 3,
  auth: 4,
  /** Stopped by Ctrl+C (128 + SIGINT, as shells report it). */
  cancelled: 130,
} as const;

export class CliInputError extends Error {
  override name = 'CliInputError';
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof CliInputError) return EXIT.badInput;
  if (error instanceof ApiError) {
    if (error.kind === 'auth' || error.kind === 'forbidden') return EXIT.auth;
    if (error.kind === 'network' || error.kind === 'timeout') return EXIT.network;
    if (error.kind === 'cancelled') return EXIT.cancelled;
  }
  return EXIT.partial;
}
