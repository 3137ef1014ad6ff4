// The client's HTTP behaviour against a local server that answers exactly what each case needs.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClientOptions } from './client';
import { MALFORMED_ANSWER_RETRIES } from './core';
import { isRetryable } from './errors';
import { apiError } from './test-support/api-error';
import { collectPages } from './pages';
import { staticToken } from './token-source';
import type { RequestEvent } from './transport';
import {
  startLocalServer,
  sendJsonApi,
  user,
  type Handler,
  type LocalServer,
} from './test-support/local-server';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler, options: Partial<ApiClientOptions> = {}) {
  server = await startLocalServer(handler);
  const client = createApiClient({
    baseUrl: `${server.origin}/core/v1`,
    tokens: staticToken('secret-token'),
    backoff: { baseMs: 5, maxMs: 20 },
    ...options,
  });
  return { server, client };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('requests', () => {
  it('stays below the base path, sends the bearer token and keeps filter keys and offsets', async () => {
    const { server, client } = await serve((_request, response) =>
      sendJsonApi(response, { jsonapi: { version: '1.0' }, data: [] }),
    );
    await collectPages(
      client.listPersonal({
        updatedSince: new Date('2026-03-01T08:00:00+01:00'),
        status: ['aktiv', 'extern'],
        include: ['organisation'],
      }),
    );
    const [request] = server.requests;
    const url = new URL(request?.url ?? '', server.origin);
    expect(url.pathname).toBe('/core/v1/personal');
    expect(url.searchParams.get('filter[updated_since]')).toBe('2026-03-01T07:00:00+00:00');
    expect(url.searchParams.get('filter[status]')).toBe('aktiv,extern');
    expect(url.searchParams.get('include')).toBe('organisation');
    expect(request?.headers.authorization).toBe('Bearer secret-token');
    expect(request?.headers.accept).toBe('application/vnd.api+json');
    expect(request?.headers['user-agent']).toBe('Vorort');
  });

  it('puts ids into one path segment each', async () => {
    const { server, client } = await serve((_request, response) =>
      sendJsonApi(response, {
        data: { type: 'customfield', id: '2', attributes: { name: 'x', field_type: 'text' } },
      }),
    );
    await client.getCustomField('17', 'a/b?c');
    expect(server.requests[0]?.url).toBe('/core/v1/courses/17/customfields/a%2Fb%3Fc');
  });

  it('reports every attempt with status, time and bytes', async () => {
    const events: RequestEvent[] = [];
    const body = JSON.stringify({ data: user('u1') });
    const { client } = await serve(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/vnd.api+json' });
        response.end(body);
      },
      { onRequest: (event) => events.push(event) },
    );
    await client.getOwnUser();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ method: 'GET', status: 200, bytes: Buffer.byteLength(body) });
    expect(events[0]?.url).toMatch(/\/core\/v1\/personal\/selbst$/);
    expect(events[0]?.ms).toBeGreaterThanOrEqual(0);
    expect(events[0]?.serverDate).toBeInstanceOf(Date);
  });

  it('reports no service clock where the answer has no Date header', async () => {
    const events: RequestEvent[] = [];
    const { client } = await serve(
      (_request, response) => {
        response.sendDate = false;
        sendJsonApi(response, { data: user('u1') });
      },
      { onRequest: (event) => events.push(event) },
    );
    await client.getOwnUser();
    expect(events[0]?.serverDate).toBeNull();
  });
});

describe('pages', () => {
  it('follows links.next (relative and absolute) and keeps the first page date', async () => {
    const { server, client } = await serve((request, response) => {
      const page = new URL(request.url, 'http://x').searchParams.get('page') ?? '1';
      // Each page its own date (a second boundary between two reads must not matter).
      if (page === '3') response.sendDate = false;
      else response.setHeader('Date', `Mon, 23 Nov 2026 10:00:0${page} GMT`);
      const next =
        page === '1'
          ? 'personal?page=2'
          : page === '2'
            ? `${server?.origin}/core/v1/personal?page=3`
            : undefined;
      sendJsonApi(response, {
        data: [user(`u${page}`)],
        included: [{ type: 'organisation', id: '1', attributes: { name: 'OV' } }],
        links: next ? { next } : { next: null },
      });
    });
    const pages = [];
    for await (const page of client.listPersonal()) pages.push(page);
    expect(pages.map((page) => page.data[0]?.id)).toEqual(['u1', 'u2', 'u3']);
    expect(pages[0]?.serverDate).toEqual(new Date('2026-11-23T10:00:01Z'));
    expect(pages[2]?.serverDate).toBeNull();
    expect(new URL(pages[1]?.url ?? '').pathname).toBe('/core/v1/personal');

    const all = await collectPages(client.listPersonal());
    expect(all.data).toHaveLength(3);
    expect(all.included).toHaveLength(1); // one organisation, however many pages carry it
    expect(all.serverDate).toEqual(pages[0]?.serverDate);
  });

  it('reads a paged answer a second time and gives what a deletion between two pages hid, each record once', async () => {
    // Offset paging, two a page: deleting "a" after the first page shifts "c" out of sight.
    let records = ['a', 'b', 'c', 'd', 'e'];
    let answered = 0;
    const { server, client } = await serve((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? '1');
      const start = (page - 1) * 2;
      // Each answer its own second, so that the date kept is shown to be the first page's.
      answered += 1;
      response.setHeader('Date', new Date(Date.UTC(2026, 10, 23, 10, 0, answered)).toUTCString());
      sendJsonApi(response, {
        data: records.slice(start, start + 2).map((id) => user(id)),
        included: [{ type: 'organisation', id: '1', attributes: { name: 'OV' } }],
        links: start + 2 < records.length ? { next: `personal?page=${page + 1}` } : { next: null },
      });
      if (page === 1 && records[0] === 'a') records = records.slice(1);
    });
    const pages = [];
    for await (const page of client.listPersonal()) pages.push(page);
    expect(pages.map((page) => [page.data.map((r) => r.id), page.verification])).toEqual([
      [['a', 'b'], undefined],
      [['d', 'e'], undefined],
      [['c'], true],
    ]);
    // The first pass: pages 1 and 2 (four records are left); the second: pages 1 and 2 again.
    expect(server.requests).toHaveLength(4);
    expect(pages[2]?.included).toEqual([]); // the organisation came with the first page
    expect(pages.map((page) => page.serverDate)).toEqual([
      new Date('2026-11-23T10:00:01Z'),
      new Date('2026-11-23T10:00:02Z'),
      new Date('2026-11-23T10:00:03Z'),
    ]);

    records = ['a', 'b', 'c', 'd', 'e'];
    const all = await collectPages(client.listPersonal());
    expect(all.data.map((r) => r.id)).toEqual(['a', 'b', 'd', 'e', 'c']);
    expect(all.included).toHaveLength(1);
    expect(all.digest).toBeUndefined();
    // Requests 5 to 8 made the second read: the date kept is its first page's.
    expect(all.serverDate).toEqual(new Date('2026-11-23T10:00:05Z'));
  });

  it('reads a one-page answer once, and a paged one once where the caller says so', async () => {
    let records = ['a', 'b'];
    const { server, client } = await serve((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? '1');
      const start = (page - 1) * 2;
      sendJsonApi(response, {
        data: records.slice(start, start + 2).map((id) => user(id)),
        links: start + 2 < records.length ? { next: `personal?page=${page + 1}` } : { next: null },
      });
    });
    const once = await collectPages(client.listPersonal({ withDigest: true }));
    expect(once.data).toHaveLength(2);
    expect(once.digest).toBeDefined();
    expect(server.requests).toHaveLength(1);

    records = ['a', 'b', 'c'];
    const unverified = await collectPages(client.listPersonal({ verifyPaged: false }));
    expect(unverified.data).toHaveLength(3);
    expect(server.requests).toHaveLength(3);
    // Verified: both passes, and nothing twice when nothing moved.
    const verified = await collectPages(client.listPersonal());
    expect(verified.data.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(server.requests).toHaveLength(7);
  });

  it('stops a links.next loop as malformed', async () => {
    const { client } = await serve((request, response) => {
      const page = new URL(request.url, 'http://x').searchParams.get('page') ?? '1';
      sendJsonApi(response, {
        data: [],
        links: { next: page === '1' ? 'personal?page=2' : 'personal?page=1' },
      });
    });
    const error = await apiError(collectPages(client.listPersonal()));
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/links\.next/);
  });

  it('refuses to follow links.next to another site (the token would go there)', async () => {
    const { client } = await serve((_request, response) =>
      sendJsonApi(response, {
        data: [],
        links: { next: { href: 'http://elsewhere.example/personal' } },
      }),
    );
    expect((await apiError(collectPages(client.listPersonal()))).kind).toBe('malformed');
  });
});

describe('malformed answers', () => {
  const brokenEnvelopes: [string, Handler][] = [
    ['a list where one resource is expected', (_q, r) => sendJsonApi(r, { data: [user('u1')] })],
    [
      'a resource of the wrong type',
      (_q, r) => sendJsonApi(r, { data: { ...user('u1'), type: 'course' } }),
    ],
    [
      'an included item without an id',
      (_q, r) =>
        sendJsonApi(r, { data: user('u1'), included: [{ type: 'whatever', attributes: {} }] }),
    ],
  ];
  it.each(brokenEnvelopes)('%s is an error, not data', async (_name, handler) => {
    const { client } = await serve(handler);
    const error = await apiError(client.getOwnUser());
    expect(error.kind).toBe('malformed');
    expect(error.status).toBe(200);
    expect(isRetryable(error)).toBe(false);
  });

  const cutOff: [string, Handler][] = [
    ['a body that is not JSON', (_q, r) => void r.end('{"data": [')],
    ['an empty body', (_q, r) => void r.end('')],
  ];
  it.each(cutOff)('%s is fetched again, boundedly, then an error', async (_name, handler) => {
    const { server, client } = await serve(handler, { backoff: { baseMs: 1 } });
    const error = await apiError(client.getOwnUser());
    expect(error.kind).toBe('malformed');
    expect(server.requests).toHaveLength(1 + MALFORMED_ANSWER_RETRIES);
  });

  it('a cut-off answer followed by a whole one is read', async () => {
    let calls = 0;
    const { server, client } = await serve(
      (_q, r) => {
        if (++calls === 1) r.end('{"jsonapi":');
        else sendJsonApi(r, { data: [user('u1')] });
      },
      { backoff: { baseMs: 1 } },
    );
    const { data } = await collectPages(client.listPersonal());
    expect(data.map((u) => u.id)).toEqual(['u1']);
    expect(server.requests).toHaveLength(2);
  });

  it('an unreadable resource among readable ones is quarantined, the rest is read', async () => {
    const { client } = await serve((_q, r) =>
      sendJsonApi(r, {
        data: [user('u1'), { ...user('u2'), attributes: 'broken' }, user('u3')],
        included: [{ type: 'organisation', id: '1', attributes: 7 }],
      }),
    );
    const answer = await collectPages(client.listPersonal());
    expect(answer.data.map((u) => u.id)).toEqual(['u1', 'u3']);
    expect(answer.quarantined).toEqual([
      expect.objectContaining({ type: 'user', id: 'u2', where: 'data[1]' }),
      expect.objectContaining({ type: 'organisation', id: '1', where: 'included[0]' }),
    ]);
    expect(answer.quarantined[0]?.reason).toContain('data[1].attributes');
    expect(JSON.parse(answer.quarantined[0]?.raw ?? '')).toMatchObject({ attributes: 'broken' });
  });

  it('converts a value of another JSON type where the meaning is clear, and counts it', async () => {
    const { client } = await serve((_q, r) =>
      sendJsonApi(r, { data: [user('u1', { nachname: 42 }), user('u2')] }),
    );
    const answer = await collectPages(client.listPersonal());
    expect(answer.data.map((u) => u.attributes.nachname)).toEqual(['42', expect.any(String)]);
    expect(answer.conversions).toBe(1);
    expect(answer.quarantined).toEqual([]);
  });

  it('accepts resources of types it has no schema for in included', async () => {
    const { client } = await serve((_q, r) =>
      sendJsonApi(r, {
        data: user('u1'),
        included: [{ type: 'novelty', id: '1', attributes: { x: 1 } }],
      }),
    );
    const { included } = await client.getOwnUser();
    expect(included).toEqual([{ type: 'novelty', id: '1', attributes: { x: 1 } }]);
  });
});

describe('errors', () => {
  const errorCases = [
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'conflict'],
    [415, 'invalid'],
    [422, 'invalid'],
    [423, 'unlicensed'],
  ] as const;
  it.each(errorCases)('%i becomes %s with the service text, not retried', async (status, kind) => {
    const { server, client } = await serve((_q, r) =>
      sendJsonApi(
        r,
        { errors: [{ status: String(status), code: 'c', title: 'T', detail: 'Explained.' }] },
        status,
      ),
    );
    const error = await apiError(client.getOrganisation());
    expect(error).toMatchObject({ kind, status, method: 'GET' });
    expect(error.errors).toEqual([
      { status: String(status), code: 'c', title: 'T', detail: 'Explained.' },
    ]);
    expect(error.message).toContain(`(${status}): Explained.`);
    expect(error.url).toMatch(/\/core\/v1\/organisation\/selbst\/stammdaten$/);
    expect(server.requests).toHaveLength(1);
  });

  it('reads a 403 as a sentence a person understands', async () => {
    const { client } = await serve((_q, r) =>
      sendJsonApi(r, { errors: [{ status: 403, detail: 'Keine Berechtigung.' }] }, 403),
    );
    const error = await apiError(client.getOrganisation());
    expect(error.message).toMatch(/^The service refused the request \(403\): Keine Berechtigung\./);
    expect(error.errors[0]?.status).toBe('403');
  });

  it('keeps the status when the error body is not JSON', async () => {
    const { client } = await serve(
      (_q, r) => {
        r.statusCode = 502;
        r.end('<html>Bad gateway</html>');
      },
      { maxRetries: 0 },
    );
    const error = await apiError(client.getOrganisation());
    expect(error).toMatchObject({ kind: 'server', status: 502, errors: [] });
  });

  it('takes OAuth error bodies too (user-info)', async () => {
    const { server, client } = await serve((_q, r) => {
      r.writeHead(403, { 'content-type': 'application/json' });
      r.end(JSON.stringify({ error: 'insufficient_scope', error_description: 'openid missing' }));
    });
    const error = await apiError(client.getUserInfo());
    expect(error.errors).toEqual([{ code: 'insufficient_scope', detail: 'openid missing' }]);
    expect(server.requests[0]?.url).toBe('/oauth/v1/userinfo');
    expect(server.requests[0]?.headers.accept).toBe('application/json');
  });

  it('does not follow a redirect (the token could travel elsewhere)', async () => {
    const { server, client } = await serve((_q, r) => {
      r.writeHead(302, { location: 'http://elsewhere.example/personal/selbst' });
      r.end();
    });
    const error = await apiError(client.getOwnUser());
    expect(error).toMatchObject({ kind: 'invalid', status: 302 });
    expect(error.message).toContain('redirected to http://elsewhere.example/personal/selbst');
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['base', '/core/v1/formulare/v1/liste?typ=u&id=u1'],
    ['origin', '/formulare/v1/liste?typ=u&id=u1'],
  ] as const)('asks for the versioned paths at the %s', async (at, path) => {
    const { server, client } = await serve(
      (_q, r) => {
        r.writeHead(200, { 'content-type': 'application/json' });
        r.end('[{"titel":"Antrag","aktion":{"typ":"link"}}]');
      },
      { versionedPathsAt: at },
    );
    expect(await client.listFormulare('u', 'u1')).toEqual([
      { titel: 'Antrag', aktion: { typ: 'link' } },
    ]);
    expect(server.requests[0]?.url).toBe(path);
  });

  it('says when nothing answers', async () => {
    const closed = await startLocalServer(() => {});
    const baseUrl = `${closed.origin}/core/v1`;
    await closed.close();
    const client = createApiClient({
      baseUrl,
      tokens: staticToken('t'),
      maxRetries: 1,
      backoff: { baseMs: 1 },
    });
    const error = await apiError(client.getOwnUser());
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/could not be reached: ECONNREFUSED/);
    expect(isRetryable(error)).toBe(true);
  });
});

describe('one lost request is not an unreachable service', () => {
  // The connection of every request to /personal/selbst breaks before its answer; others are answered.
  const handler: Handler = (q, r) => {
    if (q.url?.endsWith('/personal/selbst')) r.socket?.destroy();
    else sendJsonApi(r, { data: { type: 'orga', id: '1', attributes: { name: 'DRK' } } });
  };

  it('while the service answers other requests, it is interrupted (the sync goes on)', async () => {
    const { client } = await serve(handler, { maxRetries: 2, maxInFlight: 2 });
    const lost = apiError(client.getOwnUser());
    let answered = 0;
    const others = (async () => {
      for (let i = 0; i < 30; i++) {
        await client.getOrganisation();
        answered += 1;
      }
    })();
    const error = await lost;
    await others;
    expect(answered).toBe(30);
    expect(error.kind).toBe('interrupted');
    expect(error.message).toMatch(/^The connection broke before the answer was complete/);
    expect(isRetryable(error)).toBe(true);
  });

  it('when every attempt fails and nothing else is answered, the service is unreachable', async () => {
    const { client } = await serve(handler, { maxRetries: 2 });
    expect((await apiError(client.getOwnUser())).kind).toBe('network');
  });
});

describe('retries', () => {
  it('retries a 500 with backoff, then gives up as server', async () => {
    const { server, client } = await serve(
      (_q, r) => sendJsonApi(r, { errors: [{ title: 'Internal' }] }, 500),
      { maxRetries: 3 },
    );
    const error = await apiError(client.getOwnUser());
    expect(error.kind).toBe('server');
    expect(server.requests).toHaveLength(4);
  });

  it('recovers when a retry succeeds', async () => {
    let calls = 0;
    const { client } = await serve((_q, r) => {
      calls += 1;
      if (calls < 3) sendJsonApi(r, { errors: [] }, 503);
      else sendJsonApi(r, { data: user('u1') });
    });
    expect((await client.getOwnUser()).data.id).toBe('u1');
    expect(calls).toBe(3);
  });

  it('waits as long as Retry-After says, in seconds or as a date', async () => {
    let calls = 0;
    const { client } = await serve((_q, r) => {
      calls += 1;
      if (calls === 1) {
        r.writeHead(429, { 'retry-after': '1' });
        r.end();
      } else if (calls === 2) {
        r.writeHead(429, { 'retry-after': new Date(Date.now() + 1000).toUTCString() });
        r.end();
      } else sendJsonApi(r, { data: user('u1') });
    });
    const started = Date.now();
    await client.getOwnUser();
    // Second resolution of HTTP dates: the date form waits between 0 and 1 s more.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(calls).toBe(3);
  });

  it('does not sit out a very long Retry-After: the caller gets throttled with the wait', async () => {
    const { server, client } = await serve((_q, r) => {
      r.writeHead(429, { 'retry-after': '3600' });
      r.end(JSON.stringify({ errors: [{ detail: 'Zu viele Anfragen.' }] }));
    });
    const error = await apiError(client.getOwnUser());
    expect(error).toMatchObject({ kind: 'throttled', status: 429, retryAfterSeconds: 3600 });
    expect(error.message).toContain('retry after 3600 s');
    expect(server.requests).toHaveLength(1);
    // The service asked this client, not one request, to wait: the next one is not sent either.
    const next = await apiError(client.getOrganisation());
    expect(next).toMatchObject({ kind: 'throttled', status: undefined });
    expect(next.retryAfterSeconds).toBeGreaterThan(3500);
    expect(next.message).toContain('not sent');
    expect(server.requests).toHaveLength(1);
  });

  it("holds every request for a 429's Retry-After, also one answered to a POST", async () => {
    let posts = 0;
    const { server, client } = await serve((request, r) => {
      if (request.method === 'POST' && ++posts === 1) {
        r.writeHead(429, { 'retry-after': '1' });
        r.end();
      } else sendJsonApi(r, { data: user('u1') });
    });
    const post = client.send('POST', '/kalender', { body: { data: { type: 'kalender' } } });
    expect((await apiError(post)).kind).toBe('throttled'); // a POST is not sent twice
    const started = Date.now();
    await client.getOwnUser();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
  });

  it('never resends a POST or PATCH, but retries PUT and DELETE', async () => {
    const { server, client } = await serve((_q, r) => sendJsonApi(r, { errors: [] }, 500), {
      maxRetries: 2,
    });
    await apiError(client.send('POST', '/kalender', { body: { data: { type: 'kalender' } } }));
    await apiError(client.send('PATCH', '/kalender/1', { body: {} }));
    expect(server.requests).toHaveLength(2);
    await apiError(client.send('DELETE', '/kalender/1'));
    expect(server.requests).toHaveLength(5);
  });
});

describe('tokens', () => {
  it('refreshes once on 401 and retries with the new token', async () => {
    let current = 'old';
    let refreshes = 0;
    const { server, client } = await serve(
      (request, response) => {
        if (request.headers.authorization === 'Bearer new')
          sendJsonApi(response, { data: user('u1') });
        else sendJsonApi(response, { errors: [{ detail: 'Token abgelaufen.' }] }, 401);
      },
      {
        tokens: {
          getAccessToken: async () => current,
          refreshAccessToken: async () => {
            refreshes += 1;
            await delay(20);
            current = 'new';
            return current;
          },
        },
      },
    );
    // Parallel requests rejected with the same token share one refresh.
    const answers = await Promise.all([
      client.getOwnUser(),
      client.getOwnUser(),
      client.getOwnUser(),
    ]);
    expect(answers.map((answer) => answer.data.id)).toEqual(['u1', 'u1', 'u1']);
    expect(refreshes).toBe(1);
    expect(server.requests.filter((r) => r.headers.authorization === 'Bearer new')).toHaveLength(3);
  });

  it('gives auth when the refreshed token is refused too, or no refresh is possible', async () => {
    let refreshes = 0;
    const { server, client } = await serve(
      (_q, r) => sendJsonApi(r, { errors: [{ detail: 'Ungültiges Token.' }] }, 401),
      {
        tokens: {
          getAccessToken: async () => 'a',
          refreshAccessToken: async () => {
            refreshes += 1;
            return `b${refreshes}`;
          },
        },
      },
    );
    const error = await apiError(client.getOwnUser());
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect(error.message).toMatch(
      /^The service did not accept the login \(401\): Ungültiges Token\./,
    );
    expect(server.requests).toHaveLength(2);
    expect(refreshes).toBe(1);

    const withoutRefresh = createApiClient({ baseUrl: server.origin, tokens: staticToken('a') });
    expect((await apiError(withoutRefresh.getOwnUser())).kind).toBe('auth');
    expect(server.requests).toHaveLength(3);
  });

  it('reports a token source that fails as auth', async () => {
    const { client } = await serve((_q, r) => sendJsonApi(r, { data: user('u1') }), {
      tokens: { getAccessToken: () => Promise.reject(new Error('keychain locked')) },
    });
    const error = await apiError(client.getOwnUser());
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('keychain locked');
  });
});

describe('limits', () => {
  it('keeps at most maxInFlight requests in flight', async () => {
    const { server, client } = await serve(
      async (_q, r) => {
        await delay(30);
        sendJsonApi(r, { data: user('u1') });
      },
      { maxInFlight: 2 },
    );
    await Promise.all(Array.from({ length: 8 }, () => client.getOwnUser()));
    expect(server.requests).toHaveLength(8);
    expect(server.peakConcurrency()).toBe(2);
  });

  it('defaults to four in flight', async () => {
    const { server, client } = await serve(async (_q, r) => {
      await delay(30);
      sendJsonApi(r, { data: user('u1') });
    });
    await Promise.all(Array.from({ length: 10 }, () => client.getOwnUser()));
    expect(server.peakConcurrency()).toBe(4);
  });

  it('spaces requests to the client-side rate without dropping any', async () => {
    const { server, client } = await serve((_q, r) => sendJsonApi(r, { data: user('u1') }), {
      pace: 600, // one per 100 ms
    });
    const started = Date.now();
    await Promise.all(Array.from({ length: 4 }, () => client.getOwnUser()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.requests).toHaveLength(4);
  });
});

describe('time-outs and cancellation', () => {
  const slow: Handler = async (_q, r) => {
    await delay(400);
    if (!r.destroyed) sendJsonApi(r, { data: user('u1') });
  };

  it('gives timeout when no answer comes in time, after the retries', async () => {
    const { server, client } = await serve(slow, { timeoutMs: 50, maxRetries: 1 });
    const error = await apiError(client.getOwnUser());
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not answer in time: no complete answer within 0\.05 s/);
    expect(isRetryable(error)).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('counts a body that arrives too slowly as a time-out', async () => {
    const { client } = await serve(
      async (_q, r) => {
        r.writeHead(200, { 'content-type': 'application/vnd.api+json' });
        r.write('{"data":');
        await delay(300);
        if (!r.destroyed) r.end(JSON.stringify(user('u1')) + '}');
      },
      { timeoutMs: 100, maxRetries: 0 },
    );
    expect((await apiError(client.getOwnUser())).kind).toBe('timeout');
  });

  it('stops a request in flight when the caller aborts', async () => {
    const { client } = await serve(slow);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    const error = await apiError(client.getOwnUser({ signal: controller.signal }));
    expect(error.kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(300);
  });

  it('stops a request waiting for a slot and one waiting to retry', async () => {
    let calls = 0;
    const { server, client } = await serve(
      async (request, response) => {
        calls += 1;
        if (request.url.endsWith('stammdaten')) sendJsonApi(response, { errors: [] }, 503);
        else await slow(request, response);
      },
      { maxInFlight: 1, backoff: { baseMs: 10_000, maxMs: 10_000 } },
    );
    const busy = client.getOwnUser();
    const controller = new AbortController();
    const queued = client.getKalender('1', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    expect((await apiError(queued)).kind).toBe('cancelled');
    await busy;

    const backingOff = new AbortController();
    const retrying = client.getOrganisation({ signal: backingOff.signal });
    setTimeout(() => backingOff.abort(), 50);
    const started = Date.now();
    expect((await apiError(retrying)).kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(calls).toBe(2);
    expect(server.requests.some((request) => request.url.includes('kalender'))).toBe(false);
  });

  it('leaves no listener on a long-lived caller signal', async () => {
    const { client } = await serve((_q, r) => sendJsonApi(r, { data: user('u1') }));
    const controller = new AbortController();
    await Promise.all(
      Array.from({ length: 20 }, () => client.getOwnUser({ signal: controller.signal })),
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('does not send at all with an aborted signal', async () => {
    const { server, client } = await serve((_q, r) => sendJsonApi(r, { data: user('u1') }));
    const error = await apiError(client.getOwnUser({ signal: AbortSignal.abort() }));
    expect(error.kind).toBe('cancelled');
    expect(server.requests).toHaveLength(0);
  });
});

describe('writes', () => {
  it('sends a JSON:API body and returns the checked answer', async () => {
    const { server, client } = await serve((request, response) => {
      const body = JSON.parse(request.body) as { data: { attributes: { name: string } } };
      sendJsonApi(
        response,
        { data: { type: 'kalender', id: '9', attributes: { name: body.data.attributes.name } } },
        201,
      );
    });
    const answer = await client.send('POST', '/kalender', {
      body: { data: { type: 'kalender', attributes: { name: 'Dienste' } } },
    });
    expect(answer).toMatchObject({
      status: 201,
      data: { type: 'kalender', id: '9', attributes: { name: 'Dienste' } },
    });
    expect(answer?.serverDate).toBeInstanceOf(Date);
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/core/v1/kalender' });
    expect(server.requests[0]?.headers['content-type']).toBe('application/vnd.api+json');
  });

  it('returns null for 204 and checks the resources of an answer', async () => {
    let status = 204;
    const { client } = await serve((_q, r) => {
      if (status === 204) {
        r.statusCode = 204;
        r.end();
      } else sendJsonApi(r, { data: { type: 'kalender', id: '9', attributes: 'unreadable' } });
    });
    expect(await client.send('DELETE', '/kalender/9')).toBeNull();
    status = 200;
    expect((await apiError(client.send('PATCH', '/kalender/9', { body: {} }))).kind).toBe(
      'malformed',
    );
  });

  it('maps a rejected write with the service text', async () => {
    const { client } = await serve((_q, r) =>
      sendJsonApi(
        r,
        { errors: [{ detail: 'vorname fehlt', source: { pointer: '/data/attributes/vorname' } }] },
        422,
      ),
    );
    const error = await apiError(client.send('POST', '/personal', { body: { data: {} } }));
    expect(error).toMatchObject({ kind: 'invalid', status: 422, method: 'POST' });
    expect(error.errors[0]?.source).toEqual({ pointer: '/data/attributes/vorname' });
  });
});
