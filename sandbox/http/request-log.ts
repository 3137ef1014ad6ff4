// The requests the interface received (not /oauth), for tests that look at what a client sent:
// method, path with query, the status answered, when it arrived, and the injected fault that
// met it. Entries are in order of arrival; the log keeps the latest `capacity` of them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestFaultKind } from './faults';

export interface LoggedRequest {
  method: string;
  /** As received: the interface prefix, path and query, e.g. `/kalender?x=1`. */
  path: string;
  /**
   * The status the service answered, null while it is still answering (or when the connection
   * closed before). With a `malformed` or `lost` fault the status of the request as carried
   * out (a write was committed), though the client saw a cut 200 body or nothing at all.
   */
  status: number | null;
  /** Arrival, ISO 8601 UTC with milliseconds. */
  at: string;
  /** The injected fault (--faults) that met this request, if any. */
  fault?: RequestFaultKind;
}

export const REQUEST_LOG_CAPACITY = 100_000;

export class RequestLog {
  /** A ring: `entries[(start + i) % capacity]` is the i-th oldest once full. */
  private entries: LoggedRequest[] = [];
  private start = 0;
  private readonly byRequest = new WeakMap<FastifyRequest, LoggedRequest>();

  constructor(private readonly capacity = REQUEST_LOG_CAPACITY) {
    if (!(Number.isInteger(capacity) && capacity > 0))
      throw new RangeError(`The request log capacity must be a positive whole number.`);
  }

  /** A copy of the entries, oldest first; later changes of status are not reflected. */
  list(): LoggedRequest[] {
    const ordered =
      this.start === 0
        ? this.entries
        : [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
    return ordered.map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.entries = [];
    this.start = 0;
  }

  arrived(request: FastifyRequest, at: number): void {
    const entry: LoggedRequest = {
      method: request.method,
      path: request.url,
      status: null,
      at: new Date(at).toISOString(),
    };
    this.byRequest.set(request, entry);
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
    } else {
      this.entries[this.start] = entry;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  fault(request: FastifyRequest, kind: RequestFaultKind): void {
    const entry = this.byRequest.get(request);
    if (entry) entry.fault = kind;
  }

  answered(request: FastifyRequest, status: number): void {
    const entry = this.byRequest.get(request);
    if (entry && entry.status === null) entry.status = status;
  }
}

/**
 * Adds the hooks to the interface's scope; register it before the rate limit and the faults so
 * that requests they answer are logged too, and the status is read before a fault spoils it.
 */
export function registerRequestLog(scope: FastifyInstance, log: RequestLog): void {
  scope.addHook('onRequest', async (request) => {
    log.arrived(request, Date.now());
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    log.answered(request, reply.statusCode);
    return payload;
  });
}
