// The client's pace and the service's limit: the default pace by host (no network), and against
// the sandbox's rate limit and throttle faults, a 429 holds every request of the client at once.
import { afterAll, describe, expect, it } from 'vitest';
// Tests, unlike sync/ code, may start the real sandbox (DESIGN "Testing": no mocks of the service).
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server';
import { createApiClient, type ApiClient, type ApiClientOptions } from './client';
import { DEFAULT_PACE_PER_MINUTE, defaultPace, effectivePace, isLoopbackHost } from './pace';
import { CAREFUL_AFTER_LIMIT_MS, createServiceGate } from './service-gate';
import { staticToken } from './token-source';
import type { RequestEvent, WaitEvent } from './transport';

const ANCHOR = { scale: 'small', seed: 7, anchorDate: '2026-03-01' } as const;

const running: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(running.map((sandbox) => sandbox.close()));
});

async function sandboxWith(options: SandboxOptions): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, ...ANCHOR, ...options });
  running.push(sandbox);
  return sandbox;
}

function officeClient(sandbox: RunningSandbox, options: Partial<ApiClientOptions> = {}): ApiClient {
  const office = sandbox.users.find((user) => user.role === 'office');
  if (!office) throw new Error('The sandbox has no office account');
  return createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens: staticToken(office.accessToken),
    backoff: { baseMs: 5, maxMs: 20 },
    ...options,
  });
}

const arrival = (at: string) => Date.parse(at);

describe('default pace', () => {
  it('is none on loopback and 30 a minute for any other host', () => {
    for (const local of [
      'http://127.0.0.1:8787/core/v1',
      'http://127.45.6.7/',
      'http://localhost:3000',
      'http://sandbox.localhost/',
      'http://[::1]:8787/core/v1',
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/', // 127.0.0.1 as one number
    ])
      expect(defaultPace(local), local).toBeUndefined();
    for (const remote of [
      'https://api.hiorg-server.de/core/v1',
      'http://10.0.0.5:8787',
      'http://128.0.0.1/',
      'http://[2001:db8::1]/',
      'http://localhost.example.org/',
      'http://[::ffff:10.0.0.1]/',
    ])
      expect(defaultPace(remote), remote).toBe(DEFAULT_PACE_PER_MINUTE);
    expect(DEFAULT_PACE_PER_MINUTE).toBe(30);
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
  });

  it('is the client’s pace unless given; none and numbers override it', () => {
    const tokens = staticToken('t');
    // Creating a client sends nothing, so a service that does not exist is fine here.
    const remote = 'https://api.example.org/core/v1';
    expect(createApiClient({ baseUrl: remote, tokens }).pace).toBe(30);
    expect(createApiClient({ baseUrl: remote, tokens, pace: 'none' }).pace).toBeUndefined();
    expect(createApiClient({ baseUrl: remote, tokens, pace: 12 }).pace).toBe(12);
    expect(createApiClient({ baseUrl: remote, tokens, requestsPerMinute: 20 }).pace).toBe(20);
    expect(createApiClient({ baseUrl: 'http://127.0.0.1:9/', tokens }).pace).toBeUndefined();
    expect(createApiClient({ baseUrl: 'http://127.0.0.1:9/', tokens, pace: 60 }).pace).toBe(60);
    expect(effectivePace('none', remote)).toBeUndefined();
    expect(() => effectivePace(0, remote)).toThrow(RangeError);
    expect(() => effectivePace(Number.NaN, remote)).toThrow(RangeError);
  });
});

describe('service gate', () => {
  it('tells a new closing once, and is careful one request at a time after a limit', async () => {
    let now = 1_000_000;
    const gate = createServiceGate(() => now);
    expect(gate.closedForMs()).toBe(0);
    expect(gate.close(now + 1000, true)).toBe(true);
    // The same limit seen by requests in flight: a few milliseconds later, not a new wait.
    expect(gate.close(now + 1040, true)).toBe(false);
    expect(gate.close(now + 500, true)).toBe(false);
    expect(gate.closedForMs()).toBe(1040);
    expect(gate.close(now + 2100, true)).toBe(true); // a second or more later: said again
    now += 2100;
    expect(gate.closedForMs()).toBe(0);
    await gate.waitOpen();

    const first = await gate.turn();
    let secondHasTurn = false;
    const second = gate.turn().then((release) => {
      secondHasTurn = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(secondHasTurn).toBe(false);
    first();
    (await second)();
    expect(secondHasTurn).toBe(true);

    // A minute after the gate, requests go side by side again (the turn is free at once).
    now += CAREFUL_AFTER_LIMIT_MS;
    const a = await gate.turn();
    const b = await gate.turn();
    a();
    b();
  });

  it('passes a cancelled waiter’s turn on', async () => {
    const gate = createServiceGate();
    gate.close(Date.now(), true);
    const first = await gate.turn();
    const controller = new AbortController();
    const cancelled = gate.turn(controller.signal);
    const third = gate.turn();
    controller.abort();
    await expect(cancelled).rejects.toThrow('cancelled');
    first();
    (await third)();
  });
});

describe('against the sandbox', () => {
  it('a burst into the rate limit: the first 429 holds every request, said once, none reaches the caller', async () => {
    const sandbox = await sandboxWith({ rateLimit: '4/s' });
    const waits: WaitEvent[] = [];
    const api = officeClient(sandbox, { onWait: (event) => waits.push(event) });
    expect(api.pace).toBeUndefined(); // the sandbox is on loopback
    const answers = await Promise.all(Array.from({ length: 12 }, () => api.getOrganisation()));
    expect(answers).toHaveLength(12);

    const log = sandbox.requests;
    const refused = log.filter((entry) => entry.status === 429);
    expect(log.filter((entry) => entry.status === 200)).toHaveLength(12);
    // Only the requests already in flight when the first 429 came (at most 4), then one a window.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(6);
    // Nothing arrives while the service's Retry-After (1 s) runs.
    const first = arrival(refused[0]?.at ?? '');
    const during = log.filter(
      (entry) => arrival(entry.at) > first + 200 && arrival(entry.at) < first + 950,
    );
    expect(during).toEqual([]);
    expect(waits.filter((wait) => wait.reason === 'service-limit').length).toBeLessThanOrEqual(
      refused.length,
    );
    expect(waits.every((wait) => wait.reason === 'service-limit')).toBe(true);
  });

  it('a wave of 429s from one limit is waited out once and said once', async () => {
    const sandbox = await sandboxWith({ rateLimit: '4/s' });
    const waits: WaitEvent[] = [];
    const api = officeClient(sandbox, { onWait: (event) => waits.push(event) });
    await Promise.all(Array.from({ length: 8 }, () => api.getOrganisation()));
    const statuses = sandbox.requests.map((entry) => entry.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    expect(statuses.filter((status) => status === 429).length).toBeLessThanOrEqual(4);
    expect(waits).toEqual([
      { seconds: 1, reason: 'service-limit', url: expect.stringContaining('/organisation') },
    ]);
  });

  it('throttle faults: while a Retry-After runs nothing leaves, and every caller gets its answer', async () => {
    const sandbox = await sandboxWith({ faults: 'throttle=0.2', seed: 3 });
    const events: RequestEvent[] = [];
    const api = officeClient(sandbox, { maxRetries: 8, onRequest: (event) => events.push(event) });
    await Promise.all(Array.from({ length: 10 }, () => api.getOrganisation()));
    const log = sandbox.requests;
    const refused = log.filter((entry) => entry.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(log.filter((entry) => entry.status === 200)).toHaveLength(10);
    for (const entry of refused) {
      const at = arrival(entry.at);
      const during = log.filter(
        (other) => arrival(other.at) > at + 200 && arrival(other.at) < at + 950,
      );
      expect(during, `requests during the Retry-After of the 429 at ${entry.at}`).toEqual([]);
    }
    expect(events.map((event) => event.status).filter((status) => status === 429)).toHaveLength(
      refused.length,
    );
  });

  it("every attempt carries the service's clock, for the skew against this computer", async () => {
    const sandbox = await sandboxWith({});
    const events: RequestEvent[] = [];
    const api = officeClient(sandbox, { onRequest: (event) => events.push(event) });
    await api.getOrganisation();
    const [event] = events;
    expect(event?.serverDate).toBeInstanceOf(Date);
    // HTTP dates have whole seconds; the sandbox runs on this computer's clock.
    expect(Math.abs((event?.serverDate?.getTime() ?? 0) - Date.now())).toBeLessThan(5000);
  });
});
