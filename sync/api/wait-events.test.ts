// The transport says when it is about to wait a second or more, and why (the CLI prints it).
import { describe, expect, it } from 'vitest';
import { staticToken } from './token-source';
import { createTransport, type WaitEvent } from './transport';

const request = {
  method: 'GET',
  url: new URL('http://service.test/personal'),
  accept: 'application/json',
};

describe('onWait', () => {
  it("reports a 429's Retry-After as the service limit, and short waits not at all", async () => {
    const waits: WaitEvent[] = [];
    let calls = 0;
    const send = createTransport({
      tokens: staticToken('t'),
      onWait: (event) => waits.push(event),
      backoff: { baseMs: 10, maxMs: 10 },
      fetch: async () => {
        calls += 1;
        if (calls === 1) return new Response('', { status: 429, headers: { 'retry-after': '1' } });
        if (calls === 2) return new Response('', { status: 503 }); // 10 ms backoff: not said
        return new Response('{}', { status: 200 });
      },
    });
    await send(request);
    expect(waits).toEqual([
      { seconds: 1, reason: 'service-limit', url: 'http://service.test/personal' },
    ]);
  });

  it('reports the own pace', async () => {
    const waits: WaitEvent[] = [];
    const send = createTransport({
      tokens: staticToken('t'),
      requestsPerMinute: 60,
      onWait: (event) => waits.push(event),
      fetch: async () => new Response('{}', { status: 200 }),
    });
    await Promise.all([send(request), send(request)]);
    expect(waits).toEqual([
      { seconds: 1, reason: 'own-pace', url: 'http://service.test/personal' },
    ]);
  });
});
