// What every operation shares: documents and links under a prefix, compound documents, request
// bodies and media types, query parameters, tokens, 404s, and paging on and off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server';
import { ApiClient, expectError, JSON_API, many, one, type Res } from './test-client';

let sandbox: RunningSandbox;
let office: ApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 7, prefix: '/core/v1' });
  office = ApiClient.as(sandbox, 'office');
});
afterAll(() => sandbox.close());

const key = (resource: { type: string; id: string }) => `${resource.type}/${resource.id}`;

describe('documents under a prefix', () => {
  it('serves the interface under the prefix and OAuth at the root', async () => {
    expect(sandbox.baseUrl).toBe(`${sandbox.origin}/core/v1`);
    expect(sandbox.authUrl).toBe(`${sandbox.origin}/oauth/v1/authorize`);
    const self = one(await office.get('/personal/selbst'));
    expect(self.links.self).toBe(`${sandbox.baseUrl}/personal/${self.id}`);
    expectError(await office.get(`${sandbox.origin}/personal/selbst`), 404);
    const userinfo = await fetch(`${sandbox.origin}/oauth/v1/userinfo`, {
      headers: { authorization: `Bearer ${office.token}` },
    });
    expect(userinfo.status).toBe(200);
    expect(userinfo.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await userinfo.json()) as { sub: string }).sub).toBe(self.id);
  });

  it('gives lists their own absolute self link and no next link without paging', async () => {
    const answer = await office.get('/personal?filter[status]=aktiv');
    expect(answer.doc.links?.self).toBe(`${sandbox.baseUrl}/personal?filter%5Bstatus%5D=aktiv`);
    expect(answer.doc.links?.next).toBeUndefined();
    for (const user of many(answer))
      expect(user.links.self.startsWith(`${sandbox.baseUrl}/personal/`)).toBe(true);
  });

  it('includes each related resource once, never a primary one, and with full linkage', async () => {
    const answer = await office.get(
      '/helferstunden?filter[eigene]=false&filter[von]=2000-01-01&include=user,anlass,typ,anlass.referenz',
    );
    const data = many(answer);
    const included = answer.doc.included ?? [];
    const includedKeys = included.map(key);
    expect(new Set(includedKeys).size).toBe(includedKeys.length);
    const primaryKeys = new Set(data.map(key));
    expect(includedKeys.some((k) => primaryKeys.has(k))).toBe(false);
    const available = new Set(includedKeys);
    for (const entry of data) {
      for (const name of ['user', 'anlass', 'typ']) {
        const target = entry.relationships?.[name]?.data as { type: string; id: string };
        expect(available.has(key(target)), `${name} of ${entry.id}`).toBe(true);
      }
    }
    const referenzen = included.filter(
      (resource) => resource.type === 'dienst' || resource.type === 'termin',
    );
    expect(referenzen.length).toBeGreaterThan(0);
    for (const anlass of included.filter((resource) => resource.type === 'helferstunden_anlass')) {
      const referenz = anlass.relationships?.referenz?.data as { type: string; id: string } | null;
      if (referenz) expect(available.has(key(referenz))).toBe(true);
    }
  });

  it('answers an unknown path and an unknown id with JSON:API 404s', async () => {
    expectError(await office.get('/nothing/here'), 404);
    expectError(await office.get('/kalender/999999'), 404);
    expectError(await office.get('/helferstunden/not-a-number'), 404);
  });
});

describe('request bodies', () => {
  const kalender = { data: { type: 'kalender', attributes: { name: 'Probe' } } };

  it('accepts JSON:API and plain JSON bodies', async () => {
    expect((await office.post('/kalender', kalender)).status).toBe(201);
    expect(
      (await office.post('/kalender', kalender, { contentType: 'application/json' })).status,
    ).toBe(201);
    expect(
      (await office.post('/kalender', kalender, { contentType: `${JSON_API}; charset=utf-8` }))
        .status,
    ).toBe(201);
  });

  it('refuses other media types and media type parameters with 415', async () => {
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      `${JSON_API}; ext=bulk`,
    ]) {
      const body = contentType.includes('form') ? 'name=Probe' : JSON.stringify(kalender);
      expectError(await office.post('/kalender', body, { contentType }), 415);
    }
  });

  it('refuses malformed JSON and non-documents with 400 and a pointer', async () => {
    expect(expectError(await office.post('/kalender', '{"data": {'), 400).source?.pointer).toBe('');
    expect(expectError(await office.post('/kalender', '[1, 2]'), 400).source?.pointer).toBe('');
    expect(expectError(await office.post('/kalender', { meta: {} }), 400).source?.pointer).toBe(
      '/data',
    );
    expect(
      expectError(await office.post('/kalender', { data: { attributes: {} } }), 400).source
        ?.pointer,
    ).toBe('/data/type');
    expect(
      expectError(await office.post('/kalender', { ...kalender, extra: 1 }), 400).source?.pointer,
    ).toBe('/extra');
    expect(expectError(await office.post('/kalender', ''), 400).source?.pointer).toBe('');
  });

  it('answers a wrong type with 409 and a client-generated id with 403', async () => {
    expect(
      expectError(await office.post('/kalender', { data: { type: 'user', attributes: {} } }), 409)
        .source?.pointer,
    ).toBe('/data/type');
    const withId = { data: { type: 'kalender', id: '4711', attributes: { name: 'x' } } };
    expect(expectError(await office.post('/kalender', withId), 403).source?.pointer).toBe(
      '/data/id',
    );
  });

  it('answers invalid, unknown and read-only attributes with 422 pointers', async () => {
    const answer = await office.post('/kalender', {
      data: { type: 'kalender', attributes: { name: '', farbe: 'red', typ: 'x' } },
    });
    expect(answer.status).toBe(422);
    const pointers = (answer.doc.errors ?? []).map((error) => error.source?.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/data/attributes/name',
        '/data/attributes/farbe',
        '/data/attributes/typ',
      ]),
    );
  });
});

describe('query parameters', () => {
  it('refuses unknown, repeated and unparsable parameters with 400 naming them', async () => {
    expect(
      expectError(await office.get('/personal?filter[updatedSince]=x'), 400).source?.parameter,
    ).toBe('filter[updatedSince]');
    expect(expectError(await office.get('/personal?sort=nachname'), 400).source?.parameter).toBe(
      'sort',
    );
    expect(expectError(await office.get('/personal?include=user'), 400).source?.parameter).toBe(
      'include',
    );
    expect(
      expectError(await office.get('/personal?filter[status]=aktiv&filter[status]=extern'), 400)
        .source?.parameter,
    ).toBe('filter[status]');
    expect(
      expectError(await office.get('/personal?filter[status]=beurlaubt'), 400).source?.parameter,
    ).toBe('filter[status]');
    expect(
      expectError(await office.get('/helferstunden?filter[von]=2026-02-30'), 400).source?.parameter,
    ).toBe('filter[von]');
    expect(
      expectError(await office.get('/helferstunden?filter[eigene]=ja'), 400).source?.parameter,
    ).toBe('filter[eigene]');
  });

  it('refuses a date-time whose "+" was not URL-encoded', async () => {
    const error = expectError(
      await office.get('/personal?filter[updated_since]=2026-01-01T00:00:00+01:00'),
      400,
    );
    expect(error.source?.parameter).toBe('filter[updated_since]');
    expect(error.detail).toContain('%2B');
    expect(
      (await office.get('/personal?filter[updated_since]=2026-01-01T00:00:00%2B01:00')).status,
    ).toBe(200);
  });
});

describe('tokens', () => {
  it('answers a missing or unknown token with 401 and says which', async () => {
    const missing = await office.get('/personal/selbst', { token: null });
    expect(expectError(missing, 401).code).toBe('token_missing');
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const invalid = await office.get('/personal/selbst', { token: 'not-a-token' });
    expect(expectError(invalid, 401).code).toBe('token_invalid');
    expect(invalid.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('accepts the bare token without "Bearer", as the real service seems to', async () => {
    const answer = await office.get('/personal/selbst', {
      token: null,
      headers: { authorization: office.token! },
    });
    expect(answer.status).toBe(200);
  });

  it('distinguishes an expired token', async () => {
    const shortLived = await startSandbox({ scale: 'small', seed: 7, tokenTtlSeconds: 1 });
    try {
      const client = ApiClient.as(shortLived, 'member');
      expect((await client.get('/personal/selbst')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const error = expectError(await client.get('/personal/selbst'), 401);
      expect(error.code).toBe('token_expired');
      expect(error.detail).toContain('expired');
    } finally {
      await shortLived.close();
    }
  });
});

describe('paging', () => {
  let paged: RunningSandbox;
  let client: ApiClient;
  beforeAll(async () => {
    paged = await startSandbox({ scale: 'small', seed: 7, pageSize: 7, prefix: '/core/v1' });
    client = ApiClient.as(paged, 'office');
  });
  afterAll(() => paged.close());

  async function walk(path: string): Promise<Res[]> {
    const records: Res[] = [];
    let url: string | undefined = paged.baseUrl + path;
    while (url) {
      const answer = await client.get(url);
      expect(answer.status).toBe(200);
      expect(many(answer).length).toBeLessThanOrEqual(7);
      records.push(...many(answer));
      url = answer.doc.links?.next;
    }
    return records;
  }

  it('pages every list with absolute next links that keep the other parameters', async () => {
    const first = await client.get('/personal?filter[status]=aktiv&include=organisation');
    expect(many(first)).toHaveLength(7);
    const next = new URL(first.doc.links!.next!);
    expect(next.origin + next.pathname).toBe(`${paged.baseUrl}/personal`);
    expect(next.searchParams.get('filter[status]')).toBe('aktiv');
    expect(next.searchParams.get('include')).toBe('organisation');
    expect(next.searchParams.get('page[number]')).toBe('2');
    const all = await walk('/personal?filter[status]=aktiv');
    const expected = paged.store.all('user').filter((user) => user.attributes.status === 'aktiv');
    expect(all.map((user) => user.id)).toEqual(expected.map((user) => user.id));
  });

  it('pages the lists of every area', async () => {
    const hours = await walk('/helferstunden?filter[eigene]=false&filter[von]=2000-01-01');
    expect(hours.length).toBe(paged.store.count('helferstunden'));
    expect((await walk('/courses/types')).length).toBe(paged.store.count('course_type'));
  });

  it('honours a smaller page[size], lowers a larger one, and ends with an empty page', async () => {
    expect(many(await client.get('/personal?page[size]=3'))).toHaveLength(3);
    expect(many(await client.get('/personal?page[size]=1000'))).toHaveLength(7);
    const beyond = await client.get('/personal?page[number]=1000');
    expect(many(beyond)).toHaveLength(0);
    expect(beyond.doc.links?.next).toBeUndefined();
    expect(expectError(await client.get('/personal?page[number]=0'), 400).source?.parameter).toBe(
      'page[number]',
    );
  });

  it('is off by default: one answer holds everything and page parameters change nothing', async () => {
    const answer = await office.get('/personal?page[size]=2');
    expect(many(answer)).toHaveLength(sandbox.store.count('user'));
    expect(answer.doc.links?.next).toBeUndefined();
  });
});
