// The request log of the handle (sandbox.requests, clearRequests): every interface request in
// order of arrival with its status, the injected fault that met it, not /oauth; bounded.
import type { FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import { RequestLog } from './request-log';
import { ApiClient, JSON_API } from './test-client';

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function sandboxWith(options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ scale: 'small', seed: 6, ...options });
  running.push(sandbox);
  return sandbox;
}

const kalenderDoc = (name: string) => ({ data: { type: 'kalender', attributes: { name } } });

describe('sandbox.requests', () => {
  it('lists method, path with query, status and arrival of each request, oldest first', async () => {
    const sandbox = await sandboxWith({ prefix: '/core/v1' });
    const office = ApiClient.as(sandbox, 'office');
    expect(sandbox.requests).toEqual([]);
    const started = Date.now();
    const created = await office.post('/kalender', kalenderDoc('Log'));
    const id = (created.doc.data as { id: string }).id;
    await office.patch(`/kalender/${id}`, kalenderDoc('x'));
    await office.get('/personal?filter[status]=aktiv');
    await office.delete(`/kalender/${id}`);
    await office.get('/nowhere');
    await fetch(`${sandbox.origin}/oauth/v1/userinfo`, {
      headers: { authorization: `Bearer ${office.token}` },
    });
    const log = sandbox.requests;
    expect(log.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'POST', path: '/core/v1/kalender', status: 201 },
      { method: 'PATCH', path: `/core/v1/kalender/${id}`, status: 404 },
      { method: 'GET', path: '/core/v1/personal?filter[status]=aktiv', status: 200 },
      { method: 'DELETE', path: `/core/v1/kalender/${id}`, status: 204 },
      { method: 'GET', path: '/core/v1/nowhere', status: 404 },
    ]);
    for (const entry of log) {
      expect(entry.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(started - 5);
      expect(entry).not.toHaveProperty('fault');
    }
    // A copy: changing it changes nothing.
    log.length = 0;
    expect(sandbox.requests).toHaveLength(5);
    sandbox.clearRequests();
    expect(sandbox.requests).toEqual([]);
    await office.get('/personal/selbst');
    expect(sandbox.requests.map((entry) => entry.path)).toEqual(['/core/v1/personal/selbst']);
  });

  it('logs refusals before any route: no token, bad media type, rate limit', async () => {
    const sandbox = await sandboxWith({ rateLimit: '2/min' });
    const office = ApiClient.as(sandbox, 'office');
    await office.get('/personal/selbst', { token: null });
    await office.post('/kalender', 'name=x', { contentType: 'text/plain' });
    await office.get('/personal/selbst');
    await office.get('/personal/selbst');
    expect(sandbox.requests.map((entry) => entry.status)).toEqual([401, 415, 200, 429]);
  });

  it('notes the injected fault of each request, with the status as carried out', async () => {
    const post = (sandbox: RunningSandbox) =>
      fetch(`${sandbox.baseUrl}/kalender`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sandbox.users[0]!.accessToken}`,
          'content-type': JSON_API,
        },
        body: JSON.stringify(kalenderDoc('Fehler')),
      });
    const expected = {
      error: 500,
      throttle: 429,
      slow: 201,
      malformed: 201,
      lost: 201,
    } as const;
    for (const [kind, status] of Object.entries(expected)) {
      const sandbox = await sandboxWith({ faults: `${kind}=1`, slowMs: 10 });
      await post(sandbox).then(
        (response) => response.text(),
        () => undefined,
      );
      // A lost answer is logged as the connection is destroyed; let that settle.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(sandbox.requests, kind).toEqual([
        { method: 'POST', path: '/kalender', status, at: expect.any(String), fault: kind },
      ]);
    }
  });

  it('tells apart requests with and without a fault at a partial rate', async () => {
    const sandbox = await sandboxWith({ faults: 'error=0.5', seed: 3 });
    const office = ApiClient.as(sandbox, 'office');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await office.get('/personal/selbst')).status);
    const log = sandbox.requests;
    expect(log.map((entry) => entry.status)).toEqual(statuses);
    expect(log.filter((entry) => entry.fault === 'error').length).toBe(
      statuses.filter((status) => status === 500).length,
    );
    expect(log.every((entry) => (entry.fault === 'error') === (entry.status === 500))).toBe(true);
  });
});

describe('RequestLog', () => {
  const request = (url: string) => ({ method: 'GET', url }) as FastifyRequest;

  it('keeps the latest entries up to its capacity, oldest first', () => {
    const log = new RequestLog(3);
    const requests = ['/a', '/b', '/c', '/d', '/e'].map(request);
    requests.forEach((each, index) => log.arrived(each, Date.UTC(2026, 0, 1, 0, 0, index)));
    log.answered(requests[4]!, 200);
    log.fault(requests[3]!, 'slow');
    log.answered(requests[0]!, 500);
    expect(log.list()).toEqual([
      { method: 'GET', path: '/c', status: null, at: '2026-01-01T00:00:02.000Z' },
      { method: 'GET', path: '/d', status: null, at: '2026-01-01T00:00:03.000Z', fault: 'slow' },
      { method: 'GET', path: '/e', status: 200, at: '2026-01-01T00:00:04.000Z' },
    ]);
    log.clear();
    expect(log.list()).toEqual([]);
    expect(() => new RequestLog(0)).toThrow(RangeError);
  });
});
