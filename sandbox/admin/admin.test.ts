// The admin interface itself: who may use it (off by default, loopback only, its own token), the
// sandbox's clock ("today" of the filters, the Date header, change times), paging switched at
// run time, and the change journal. Real HTTP against startSandbox({ admin: true }).
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClock } from '../data/clock';
import { ApiClient, many, one } from '../http/test-client';
import { startSandbox, type RunningSandbox } from '../server';
import type { AdminContext } from './context';
import { isLoopbackAddress, isLoopbackHost } from './guard';
import { Journal, type JournalEntry } from './journal';
import { ADMIN_PATH, adminPlugin } from './plugin';
import { AdminClient } from './test-admin-client';

const DAY_MS = 86_400_000;

describe('enabling the admin interface', () => {
  it('is off by default: /_admin is the usual JSON:API 404, and the handle has no admin', async () => {
    const sandbox = await startSandbox({ scale: 'small' });
    try {
      expect(sandbox.admin).toBeUndefined();
      const answer = await fetch(`${sandbox.origin}/_admin/clock`);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
      expect(await answer.text()).not.toMatch(/admin interface/i);
    } finally {
      await sandbox.close();
    }
  });

  it('is off with a prefix too', async () => {
    const sandbox = await startSandbox({ scale: 'small', prefix: '/core/v1' });
    try {
      const answer = await fetch(`${sandbox.origin}/_admin/clock`);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
    } finally {
      await sandbox.close();
    }
  });

  it('refuses a host other than loopback, and a token that cannot be sent', async () => {
    await expect(startSandbox({ admin: true, host: '0.0.0.0' })).rejects.toThrow(/loopback only/);
    await expect(startSandbox({ admin: true, host: '0.0.0.0' })).rejects.toThrow(RangeError);
    await expect(startSandbox({ admin: true, adminToken: 'has space' })).rejects.toThrow(
      RangeError,
    );
    expect(
      ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST'].map(isLoopbackHost),
    ).toEqual([true, true, true, true, true, true]);
    expect(
      ['0.0.0.0', '::', '192.168.1.2', 'example.org', '128.0.0.1'].map(isLoopbackHost),
    ).toEqual([false, false, false, false, false]);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });

  it('answers 403 to a request from another address, even with the token', async () => {
    const app = Fastify();
    const admin = { clock: new SandboxClock() } as AdminContext;
    await app.register(adminPlugin({ admin, token: 't'.repeat(32) }), { prefix: ADMIN_PATH });
    const from = async (remoteAddress: string) =>
      app.inject({
        method: 'GET',
        url: '/_admin/clock',
        remoteAddress,
        headers: { authorization: `Bearer ${'t'.repeat(32)}` },
      });
    try {
      const refused = await from('10.1.2.3');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: expect.stringMatching(/this machine only/) });
      expect((await from('127.0.0.1')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the admin interface', () => {
  let sandbox: RunningSandbox;
  let admin: AdminClient;
  let office: ApiClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ scale: 'small', seed: 3, admin: true });
    admin = AdminClient.of(sandbox);
    office = ApiClient.as(sandbox, 'office');
  });
  afterAll(() => sandbox.close());

  it('lives at origin + /_admin with a random 64-hex token per start', async () => {
    expect(sandbox.admin!.url).toBe(`${sandbox.origin}/_admin`);
    expect(sandbox.admin!.token).toMatch(/^[0-9a-f]{64}$/);
    const fixed = await startSandbox({ scale: 'small', admin: true, adminToken: 'x'.repeat(20) });
    try {
      expect(fixed.admin!.token).toBe('x'.repeat(20));
      expect((await AdminClient.of(fixed).get('/clock')).status).toBe(200);
    } finally {
      await fixed.close();
    }
  });

  it('needs its own token: none, a wrong one or an OAuth access token is 401', async () => {
    const officeToken = sandbox.users[0]!.accessToken;
    for (const token of [null, 'nonsense', officeToken]) {
      const answer = await new AdminClient(sandbox.admin!.url, token).get('/clock');
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: expect.stringMatching(/own token/) });
    }
    // Unknown admin paths tell nothing without the token either.
    expect((await new AdminClient(sandbox.admin!.url, null).get('/nothing')).status).toBe(401);
    const unknown = await admin.get('/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/no GET \/_admin\/nothing/);
  });

  it('is never accepted by the interface', async () => {
    const answer = await office.get('/personal/selbst', { token: sandbox.admin!.token });
    expect(answer.status).toBe(401);
  });

  it('answers a bad body with 400 and a readable sentence; unknown members too', async () => {
    for (const body of [{ advanceMs: -1 }, { advanceMs: 1, extra: true }, { to: 'tomorrow' }, []]) {
      const answer = await admin.post('/clock', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toMatch(/^The request does not fit: /);
    }
    const broken = await fetch(`${sandbox.admin!.url}/clock`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.admin!.token}`,
        'content-type': 'application/json',
      },
      body: '{"advanceMs": ',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: expect.any(String) });
  });

  it('moves the clock forward only, and the service follows it', async () => {
    const before = (await admin.get('/clock')).body;
    expect(Math.abs(Date.parse(before.now) - Date.now() - before.offsetMs)).toBeLessThan(1000);

    // A course whose dates all begin within the default window (today .. in 12 months) ...
    const inWindow = many(await office.get('/courses'));
    const starts = (course: (typeof inWindow)[number]) =>
      (course.relationships!.dates!.data as { id: string }[]).map((ref) =>
        Date.parse(sandbox.store.get('course_date', ref.id)!.attributes.from as string),
      );
    const soonest = inWindow.reduce((a, b) =>
      Math.max(...starts(a)) < Math.max(...starts(b)) ? a : b,
    );
    const lastStart = Math.max(...starts(soonest));

    const advanced = await admin.post('/clock', {
      to: new Date(lastStart + 2 * DAY_MS).toISOString(),
    });
    expect(advanced.status).toBe(200);
    expect(advanced.body.offsetMs).toBeGreaterThan(0);
    // ... has left it once the clock passed its last date: "today" moved.
    const later = await office.get('/courses');
    expect(many(later).map((course) => course.id)).not.toContain(soonest.id);
    // The Date header shows the service's clock, not real time.
    const date = Date.parse(later.headers.get('date')!);
    expect(date).toBeGreaterThan(lastStart + DAY_MS);
    // Change times follow the clock too.
    sandbox.store.transaction(() => {
      const typ = sandbox.store.all('helferstunden_typ')[0]!;
      const stored = sandbox.store.put(typ);
      expect(Date.parse(stored.updatedAt)).toBeGreaterThan(lastStart + DAY_MS);
    });
    // OAuth keeps real time: tokens still work, and its Date header is the real one.
    expect((await office.get('/personal/selbst')).status).toBe(200);
    const jwks = await fetch(`${sandbox.origin}/oauth/v1/jwks`);
    expect(Math.abs(Date.parse(jwks.headers.get('date')!) - Date.now())).toBeLessThan(5000);

    const step = await admin.post('/clock', { advanceMs: 60_000 });
    expect(step.body.offsetMs).toBe(advanced.body.offsetMs + 60_000);
    const back = await admin.post('/clock', { to: before.now });
    expect(back.status).toBe(409);
    expect(back.body.error).toMatch(/forward only/);
    expect((await admin.get('/clock')).body.offsetMs).toBe(step.body.offsetMs);
  });

  it('switches paging of every list on and off at run time', async () => {
    expect((await admin.get('/paging')).body).toEqual({ pageSize: null });
    const all = many(await office.get('/personal'));
    expect(all.length).toBeGreaterThan(5);

    expect((await admin.put('/paging', { pageSize: 5 })).body).toEqual({ pageSize: 5 });
    const paged = await office.get('/personal');
    expect(many(paged)).toHaveLength(5);
    expect(paged.doc.links?.next).toBeDefined();
    expect((await admin.get('/paging')).body).toEqual({ pageSize: 5 });

    expect((await admin.put('/paging', { pageSize: null })).body).toEqual({ pageSize: null });
    const whole = await office.get('/personal');
    expect(many(whole)).toHaveLength(all.length);
    expect(whole.doc.links?.next).toBeUndefined();

    expect((await admin.put('/paging', { pageSize: 0 })).status).toBe(400);
    expect((await admin.put('/paging', {})).status).toBe(400);
  });

  it('lists every write since start in the journal, with the records each concerns', async () => {
    const start = (await admin.get('/changes')).body.last as number;
    const entry = sandbox.store.all('helferstunden')[0]!;
    const patched = await office.patch(`/helferstunden/${entry.id}`, {
      data: { type: 'helferstunden', id: entry.id, attributes: { bemerkung: 'via API' } },
    });
    expect(patched.status).toBe(200);
    // A rolled-back transaction leaves no trace.
    expect(() =>
      sandbox.store.transaction(() => {
        sandbox.store.remove('helferstunden', entry.id);
        throw new Error('abandoned');
      }),
    ).toThrow('abandoned');
    // A write through the handle's store is a change on the service as well.
    sandbox.store.remove('benachrichtigung', sandbox.store.all('benachrichtigung')[0]!.id);

    const answer = await admin.get(`/changes?after=${start}`);
    expect(answer.status).toBe(200);
    const changes = answer.body.changes as JournalEntry[];
    expect(answer.body.last).toBe(start + 2);
    expect(changes.map((c) => c.seq)).toEqual([start + 1, start + 2]);
    const [put, removed] = changes;
    expect(put).toMatchObject({ op: 'put', type: 'helferstunden', id: entry.id, touched: true });
    expect(put!.refs).toEqual(
      expect.arrayContaining([
        entry.relationships.user,
        entry.relationships.anlass,
        entry.relationships.typ,
      ]),
    );
    expect(new Set(put!.refs.map((ref) => `${ref.type}/${ref.id}`)).size).toBe(put!.refs.length);
    const clock = (await admin.get('/clock')).body;
    expect(Math.abs(Date.parse(put!.at) - Date.parse(clock.now))).toBeLessThan(5000);
    expect(removed).toMatchObject({ op: 'remove', type: 'benachrichtigung', touched: false });

    expect((await admin.get(`/changes?after=${start + 2}`)).body.changes).toEqual([]);
    expect((await admin.get(`/changes?after=${start}&limit=1`)).body.changes).toHaveLength(1);
    expect((await admin.get('/changes?after=-1')).status).toBe(400);
    expect((await admin.get('/changes?since=3')).status).toBe(400);
    const reread = one(await office.get(`/helferstunden/${entry.id}`));
    expect(reread.attributes.bemerkung).toBe('via API');
  });
});

describe('the journal', () => {
  it('keeps the latest entries only, and still counts them all', () => {
    const journal = new Journal(3);
    for (let i = 0; i < 5; i++) {
      journal.append({ at: '', op: 'put', type: 'user', id: String(i), touched: true, refs: [] });
    }
    expect(journal.last).toBe(5);
    expect(journal.after(0).map((entry) => entry.seq)).toEqual([3, 4, 5]);
    expect(journal.after(3).map((entry) => entry.id)).toEqual(['3', '4']);
    expect(journal.after(4, 5).map((entry) => entry.seq)).toEqual([5]);
    expect(journal.after(5)).toEqual([]);
  });
});
