// Injected faults (each kind at rate 1, so the outcome is certain), their reproducibility with
// the seed, the rate limit, and the parsers of both specs.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import { parseFaultSpec } from './faults';
import { parseRateLimit } from './rate-limit';
import { ApiClient, expectError, JSON_API } from './test-client';

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function sandboxWith(options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ scale: 'small', seed: 4, ...options });
  running.push(sandbox);
  return sandbox;
}

const kalenderDoc = (name: string) => ({ data: { type: 'kalender', attributes: { name } } });
const calendarsNamed = (sandbox: RunningSandbox, name: string) =>
  sandbox.store.all('kalender').filter((calendar) => calendar.attributes.name === name);

async function rawPost(sandbox: RunningSandbox, path: string, body: unknown): Promise<Response> {
  return fetch(sandbox.baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.users[0]!.accessToken}`, 'content-type': JSON_API },
    body: JSON.stringify(body),
  });
}

describe('faults', () => {
  it('error: a 500 JSON:API error, nothing changed, OAuth untouched', async () => {
    const sandbox = await sandboxWith({ faults: 'error=1' });
    const client = ApiClient.as(sandbox, 'office');
    expect(expectError(await client.get('/personal/selbst'), 500).code).toBe('injected_error');
    expectError(await client.post('/kalender', kalenderDoc('Fehler')), 500);
    expect(calendarsNamed(sandbox, 'Fehler')).toHaveLength(0);
    const userinfo = await fetch(`${sandbox.origin}/oauth/v1/userinfo`, {
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(userinfo.status).toBe(200);
  });

  it('throttle: 429 with Retry-After', async () => {
    const sandbox = await sandboxWith({ faults: 'throttle=1' });
    const answer = await ApiClient.as(sandbox, 'office').get('/personal/selbst');
    expectError(answer, 429);
    expect(answer.headers.get('retry-after')).toBe('1');
  });

  it('slow: the normal answer, late', async () => {
    const sandbox = await sandboxWith({ faults: 'slow=1', slowMs: 300 });
    const started = performance.now();
    const answer = await ApiClient.as(sandbox, 'office').get('/personal/selbst');
    expect(answer.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('malformed: 200 with a broken body, the write committed', async () => {
    const sandbox = await sandboxWith({ faults: 'malformed=1' });
    const response = await rawPost(sandbox, '/kalender', kalenderDoc('Kaputt'));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(calendarsNamed(sandbox, 'Kaputt')).toHaveLength(1);
  });

  it('lost: the connection closes without an answer, the write committed', async () => {
    const sandbox = await sandboxWith({ faults: 'lost=1' });
    await expect(rawPost(sandbox, '/kalender', kalenderDoc('Verloren'))).rejects.toThrow();
    expect(calendarsNamed(sandbox, 'Verloren')).toHaveLength(1);
    await expect(fetch(`${sandbox.baseUrl}/personal/selbst`)).rejects.toThrow();
  });

  it('is reproducible with the seed', async () => {
    const statuses = async (seed: number) => {
      const sandbox = await sandboxWith({ seed, faults: 'error=0.3,throttle=0.3' });
      const client = ApiClient.as(sandbox, 'office');
      const result: number[] = [];
      for (let i = 0; i < 24; i += 1)
        result.push((await client.get('/organisation/selbst/stammdaten')).status);
      return result;
    };
    const first = await statuses(8);
    expect(await statuses(8)).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 500]));
    expect(await statuses(9)).not.toEqual(first);
  });

  it('parses and checks the spec', () => {
    expect(parseFaultSpec('error=0.1,throttle=0.05,slow=0.05,malformed=0.02,lost=0.05')).toEqual({
      error: 0.1,
      throttle: 0.05,
      slow: 0.05,
      malformed: 0.02,
      lost: 0.05,
    });
    expect(() => parseFaultSpec('boom=0.1')).toThrow(/Unknown fault kind/);
    expect(() => parseFaultSpec('error=2')).toThrow(RangeError);
    expect(() => parseFaultSpec('error=0.6,lost=0.6')).toThrow(/add up/);
    expect(() => parseFaultSpec('error')).toThrow(/kind=rate/);
    expect(() => parseFaultSpec('error=0.1,error=0.2')).toThrow(/twice/);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past the limit, per token, not on OAuth', async () => {
    const sandbox = await sandboxWith({ rateLimit: '3/min' });
    const office = ApiClient.as(sandbox, 'office');
    for (let i = 0; i < 3; i += 1)
      expect((await office.get('/organisation/selbst/stammdaten')).status).toBe(200);
    const refused = await office.get('/organisation/selbst/stammdaten');
    expect(expectError(refused, 429).code).toBe('rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(
      (await ApiClient.as(sandbox, 'member').get('/organisation/selbst/stammdaten')).status,
    ).toBe(200);
    const userinfo = await fetch(`${sandbox.origin}/oauth/v1/userinfo`, {
      headers: { authorization: `Bearer ${office.token}` },
    });
    expect(userinfo.status).toBe(200);
  });

  it('lets requests through again once the window has passed', async () => {
    const sandbox = await sandboxWith({ rateLimit: '2/s' });
    const office = ApiClient.as(sandbox, 'office');
    await office.get('/kalender');
    await office.get('/kalender');
    const refused = await office.get('/kalender');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await office.get('/kalender')).status).toBe(200);
  });

  it('parses and checks the spec', () => {
    expect(parseRateLimit('30/min')).toEqual({ limit: 30, windowMs: 60_000 });
    expect(parseRateLimit('5/s')).toEqual({ limit: 5, windowMs: 1000 });
    expect(parseRateLimit('1000/hour')).toEqual({ limit: 1000, windowMs: 3_600_000 });
    for (const bad of ['30', '0/min', '30/fortnight', 'x/min'])
      expect(() => parseRateLimit(bad)).toThrow(RangeError);
  });
});
