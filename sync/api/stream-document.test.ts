// The streaming reader of large list answers (issue 25): the same answer read as a stream and read
// whole gives the same page (data, included, quarantined records, conversions, meta, digest); the
// envelope stays strict, however far the stream got; and the caller's mapping runs per entry.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClientOptions } from './client';
import { STREAM_ANSWERS_FROM_BYTES } from './core';
import { apiError } from './test-support/api-error';
import { collectPages } from './pages';
import { staticToken } from './token-source';
import {
  sendJsonApi,
  startLocalServer,
  user,
  type Handler,
  type LocalServer,
} from './test-support/local-server';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A client that reads every list answer as a stream, and one that reads every answer whole. */
async function serve(handler: Handler, options: Partial<ApiClientOptions> = {}) {
  server = await startLocalServer(handler);
  const client = (streamAnswersFromBytes: number) =>
    createApiClient({
      baseUrl: `${server!.origin}/core/v1`,
      tokens: staticToken('secret-token'),
      backoff: { baseMs: 1, maxMs: 2 },
      streamAnswersFromBytes,
      ...options,
    });
  return { server, streaming: client(0), whole: client(Infinity) };
}

/** An answer without its clock (the two reads may fall on two sides of a second). */
const timeless = <T extends { serverDate: Date | null }>(answer: T) => ({
  ...answer,
  serverDate: null,
});

const mixed = {
  jsonapi: { version: '1.0' },
  meta: { size: 4 },
  data: [
    user('u1', { nachname: 42, ausbildungen: [{ id: 7, bezeichnung: 'Erste Hilfe' }] }),
    { ...user('u2'), attributes: 'broken' },
    user('u3', { vorname: 'Jürgen "Jü" \\ 🚑', gruppen_namen: ['A :: B'] }),
    { type: 'user', id: 4, attributes: { nachname: 'Zahl' } },
  ],
  included: [
    { type: 'organisation', id: '1', attributes: { name: 'OV' } },
    { type: 'organisation', id: '2', attributes: 7 },
    { type: 'unknown-kind', id: 'x', attributes: { any: ['thing'] } },
  ],
  links: { self: 'personal' },
};

describe('a list answer read as it arrives', () => {
  it('gives the very page the whole reader gives: data, quarantine, conversions, meta, digest', async () => {
    const { streaming, whole } = await serve((_q, r) => sendJsonApi(r, mixed));
    const streamed = await collectPages(streaming.listPersonal({ withDigest: true }));
    const read = await collectPages(whole.listPersonal({ withDigest: true }));
    expect(timeless(streamed)).toEqual(timeless(read));
    expect(streamed.data.map((u) => u.id)).toEqual(['u1', 'u3', '4']);
    expect(streamed.quarantined.map((q) => q.where)).toEqual(['data[1]', 'included[1]']);
    expect(streamed.conversions).toBeGreaterThan(0);
    expect(streamed.digest).toBeDefined();
  });

  it('reads a body that arrives in many small pieces, split inside strings and numbers', async () => {
    const text = JSON.stringify(mixed);
    const { streaming, whole } = await serve(async (_q, r) => {
      r.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length; at += 7) {
        r.write(bytes.subarray(at, at + 7));
        await new Promise((resolve) => setImmediate(resolve));
      }
      r.end();
    });
    expect(timeless(await collectPages(streaming.listPersonal()))).toEqual(
      timeless(await collectPages(whole.listPersonal())),
    );
  });

  it('knows an answer by its digest and gives it as unchanged', async () => {
    const { streaming } = await serve((_q, r) => sendJsonApi(r, mixed));
    const first = await collectPages(streaming.listPersonal({ withDigest: true }));
    const again = await collectPages(streaming.listPersonal({ knownDigest: first.digest }));
    expect(again.unchanged).toBe(true);
    expect(again.data).toEqual([]);
    expect(again.digest).toBe(first.digest);
  });

  it('maps each readable entry for the caller, who keeps only what the mapping made', async () => {
    const { streaming } = await serve((_q, r) => sendJsonApi(r, mixed));
    const answer = await collectPages(
      streaming.listPersonalAs((u) => ({ id: u.id, name: u.attributes.nachname })),
    );
    expect(answer.data).toEqual([
      { id: 'u1', name: '42' },
      { id: 'u3', name: 'Muster' },
      { id: '4', name: 'Zahl' },
    ]);
    expect(answer.included.map((r) => r.id)).toEqual(['1', 'x']);
  });

  it('does not count the time spent reading the entries against the time-out', async () => {
    const people = Array.from({ length: 8 }, (_, index) => user(`u${index}`));
    const { streaming } = await serve(
      async (_q, r) => {
        r.writeHead(200, { 'content-type': 'application/vnd.api+json' });
        r.write('{"data":[');
        for (const [index, person] of people.entries()) {
          r.write(`${index ? ',' : ''}${JSON.stringify(person)}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        r.end(']}');
      },
      { timeoutMs: 300, maxRetries: 0 },
    );
    // 8 entries of 60 ms each: twice the time-out spent by the client, a tenth of it waiting.
    const busy = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const answer = await collectPages(
      streaming.listPersonalAs((u) => {
        busy(60);
        return u.id;
      }),
    );
    expect(answer.data).toHaveLength(8);
  });

  it('reads a paged answer as the whole reader does, each record once', async () => {
    const records = ['a', 'b', 'c', 'd', 'e'];
    const { streaming, whole } = await serve((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page') ?? '1');
      const start = (page - 1) * 2;
      sendJsonApi(response, {
        data: records.slice(start, start + 2).map((id) => user(id)),
        included: [{ type: 'organisation', id: '1', attributes: { name: 'OV' } }],
        links: start + 2 < records.length ? { next: `personal?page=${page + 1}` } : { next: null },
      });
    });
    const streamed = await collectPages(streaming.listPersonal());
    expect(timeless(streamed)).toEqual(timeless(await collectPages(whole.listPersonal())));
    expect(streamed.data.map((u) => u.id)).toEqual(records);
    expect(streamed.included).toHaveLength(1);
  });

  it.each([
    ['cut off', (text: string) => text.slice(0, Math.floor(text.length / 2)), 'cut off'],
    ['cut off after the last entry', (text: string) => text.slice(0, -1), 'cut off'],
    ['not JSON', (text: string) => text.replace('"u3"', 'u3'), 'not JSON'],
    ['followed by more', (text: string) => `${text} {}`, 'not JSON'],
    ['an array', () => '[]', 'expected an object'],
    ['empty', () => '  ', 'empty'],
    ['without data', () => '{"jsonapi":{"version":"1.0"}}', 'expected a list'],
    ['with one resource as data', () => JSON.stringify({ data: user('u1') }), 'expected a list'],
    ['with data twice', (text: string) => text.replace('{', '{"data":[],'), 'given twice'],
    ['with links not an object', () => '{"data":[],"links":7}', 'links'],
    [
      'with an entry without an id',
      () => JSON.stringify({ data: [user('u1'), { type: 'user' }] }),
      'data[1].id',
    ],
  ])(
    'fails the whole answer when it is %s, after fetching it again',
    async (_what, body, problem) => {
      const text = JSON.stringify(mixed);
      const { server, streaming } = await serve((_q, r) => {
        r.writeHead(200, { 'content-type': 'application/vnd.api+json' });
        r.end(body(text));
      });
      const error = await apiError(collectPages(streaming.listPersonal()));
      expect(error.kind).toBe('malformed');
      expect(error.message).toContain(problem);
      expect(server.requests.length).toBeGreaterThan(1);
    },
  );

  it('streams only answers large enough to matter, by their Content-Length (unknown: streamed)', async () => {
    expect(STREAM_ANSWERS_FROM_BYTES).toBeGreaterThanOrEqual(1_000_000);
    // A body the whole reader takes and the stream reader refuses ("data" twice; JSON.parse keeps
    // the last): the default client reads a small answer whole, a large one as a stream.
    const small = '{"data":[],"data":[]}';
    const large = `{"data":[],"meta":{"pad":"${'x'.repeat(STREAM_ANSWERS_FROM_BYTES)}"},"data":[]}`;
    let body = small;
    server = await startLocalServer((_q, r) => {
      r.writeHead(200, {
        'content-type': 'application/vnd.api+json',
        'content-length': Buffer.byteLength(body),
      });
      r.end(body);
    });
    const client = createApiClient({
      baseUrl: `${server.origin}/core/v1`,
      tokens: staticToken('secret-token'),
      backoff: { baseMs: 1, maxMs: 2 },
    });
    expect((await collectPages(client.listPersonal())).data).toEqual([]);
    body = large;
    expect((await apiError(collectPages(client.listPersonal()))).message).toContain('given twice');
  });
});
