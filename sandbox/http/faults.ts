// Injected faults for testing clients (--faults error=0.1,throttle=0.05,...): each request to
// the interface draws one number from a PRNG seeded with the sandbox's seed, so the same
// sequence of requests meets the same faults. Never applied to /oauth.
//   error      500 with a JSON:API error; nothing was changed
//   throttle   429 with Retry-After: 1; nothing was changed
//   slow       the normal answer, after slowMs
//   malformed  the request is carried out (a write is committed), then answered 200 with the
//              body cut in half: what a client sees of a truncated transfer
//   lost       the request is carried out (a write is committed), then the connection is
//              destroyed without an answer: the client cannot know whether it happened
// One kind is drawn per resource object instead (see variation.ts), from a stream of its own
// seeded with the same seed, and does not count toward the per-request total:
//   unreadable in a list answer, each resource object is with this probability made
//              unreadable for a client (type and id kept, the envelope stays valid)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';
import { JSON_API } from './respond';

/** The kinds drawn once per request; their rates add up to at most 1. */
export const REQUEST_FAULT_KINDS = ['error', 'throttle', 'slow', 'malformed', 'lost'] as const;
export type RequestFaultKind = (typeof REQUEST_FAULT_KINDS)[number];
/** Every kind `--faults` knows: the request kinds and `unreadable`, drawn per resource object. */
export const FAULT_KINDS = [...REQUEST_FAULT_KINDS, 'unreadable'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** `unreadable` is present only when given (0 without). */
export type FaultRates = Readonly<Record<RequestFaultKind, number> & { unreadable?: number }>;

/** Parses `error=0.1,throttle=0.05`; throws a RangeError naming the problem. */
export function parseFaultSpec(spec: string): FaultRates {
  const rates: Record<RequestFaultKind, number> & { unreadable?: number } = {
    error: 0,
    throttle: 0,
    slow: 0,
    malformed: 0,
    lost: 0,
  };
  const seen = new Set<string>();
  for (const part of spec
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^([a-z]+)=(\d+(?:\.\d+)?)$/.exec(part);
    if (!match)
      throw new RangeError(`Fault "${part}" is not of the form kind=rate (e.g. error=0.1).`);
    const [, kind = '', rateText = ''] = match;
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new RangeError(`Unknown fault kind "${kind}"; known: ${FAULT_KINDS.join(', ')}.`);
    }
    if (seen.has(kind)) throw new RangeError(`Fault kind "${kind}" is given twice.`);
    seen.add(kind);
    const rate = Number(rateText);
    if (rate > 1)
      throw new RangeError(`Fault rate of "${kind}" must be between 0 and 1, got ${rateText}.`);
    rates[kind as FaultKind] = rate;
  }
  const total = REQUEST_FAULT_KINDS.reduce((sum, kind) => sum + rates[kind], 0);
  if (total > 1 + 1e-9)
    throw new RangeError(`Fault rates add up to ${total}; at most 1 is possible.`);
  return rates;
}

/** mulberry32: small, fast and good enough to spread faults; the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = (seed ^ 0x9e3779b9) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultPlan {
  private readonly random: () => number;

  constructor(
    private readonly rates: FaultRates,
    seed: number,
  ) {
    this.random = seededRandom(seed);
  }

  /** The fault of the next request, or undefined for a normal answer. */
  next(): RequestFaultKind | undefined {
    const draw = this.random();
    let threshold = 0;
    for (const kind of REQUEST_FAULT_KINDS) {
      threshold += this.rates[kind];
      if (draw < threshold) return kind;
    }
    return undefined;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Adds the hooks to an encapsulated scope: every route in it draws a fault per request.
 * `onFault` hears of each fault drawn (the request log notes it).
 */
export function registerFaults(
  scope: FastifyInstance,
  plan: FaultPlan,
  slowMs: number,
  onFault?: (request: FastifyRequest, kind: RequestFaultKind) => void,
): void {
  const pending = new WeakMap<FastifyRequest, 'malformed' | 'lost'>();

  scope.addHook('onRequest', async (request) => {
    const fault = plan.next();
    if (fault) onFault?.(request, fault);
    if (fault === 'error') {
      throw new ApiError(500, [
        {
          code: 'injected_error',
          detail: 'Injected fault: the service failed (sandbox --faults).',
        },
      ]);
    }
    if (fault === 'throttle') {
      throw new ApiError(
        429,
        [
          {
            code: 'injected_throttle',
            detail: 'Injected fault: too many requests (sandbox --faults).',
          },
        ],
        { 'retry-after': '1' },
      );
    }
    if (fault === 'slow') await sleep(slowMs);
    if (fault === 'malformed' || fault === 'lost') pending.set(request, fault);
  });

  scope.addHook('onSend', async (request, reply, payload) => {
    const fault = pending.get(request);
    if (fault === 'lost') {
      request.raw.socket.destroy();
      return payload;
    }
    if (fault === 'malformed') {
      const body =
        Buffer.isBuffer(payload) && payload.length > 1
          ? payload
          : Buffer.from('{"jsonapi":{"version":"1.0"},"data":{');
      reply.code(200);
      if (!reply.hasHeader('content-type')) reply.header('content-type', JSON_API);
      return body.subarray(0, Math.floor(body.length / 2));
    }
    return payload;
  });
}
