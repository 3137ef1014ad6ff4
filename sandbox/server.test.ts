// startSandbox itself: what it hands back, its options and their checks, closing, and state
// that survives a restart when it is kept in a file.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, many, one } from './http/test-client';
import { APPROVAL_HEADER } from './auth/index';
import { startSandbox } from './server';

const folder = mkdtempSync(join(tmpdir(), 'vorort-sandbox-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A GET with the Host header given (fetch does not let it be set): the status. */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((done, fail) => {
    const call = request(url, { headers: { host } }, (answer) => {
      answer.resume();
      done(answer.statusCode ?? 0);
    });
    call.on('error', fail);
    call.end();
  });
}

describe('startSandbox', () => {
  it('hands back the URLs and a working token for every account', async () => {
    const sandbox = await startSandbox({ scale: 'small', seed: 2, anchorDate: '2026-03-01' });
    try {
      expect(sandbox.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.baseUrl).toBe(sandbox.origin);
      expect(sandbox.tokenUrl).toBe(`${sandbox.origin}/oauth/v1/token`);
      expect(sandbox.clientId).toBe('vorort-desktop');
      expect(sandbox.users.map((user) => user.role)).toEqual([
        'office',
        'trainer',
        'trainer',
        'trainer',
        'member',
        'member',
      ]);
      expect(sandbox.users.length).toBe(sandbox.store.count('account'));
      for (const user of sandbox.users) {
        const self = one(
          await new ApiClient(sandbox.baseUrl, user.accessToken).get('/personal/selbst'),
        );
        expect(self.id).toBe(user.id);
        expect(user.name).toBe(`${self.attributes.vorname} ${self.attributes.nachname}`);
      }
      expect((await fetch(sandbox.feedUrl)).status).toBe(200);
      expect(sandbox.store.settings()).toMatchObject({
        anchorDate: '2026-03-01',
        seed: 2,
        scale: 'small',
      });
      expect(sandbox.auth.authenticate(`Bearer ${sandbox.users[0]!.accessToken}`)).toMatchObject({
        ok: true,
      });
    } finally {
      await sandbox.close();
    }
  });

  it('closes once, however often it is asked, and stops listening', async () => {
    const sandbox = await startSandbox({ scale: 'small', seed: 2 });
    await Promise.all([sandbox.close(), sandbox.close()]);
    await sandbox.close();
    await expect(fetch(`${sandbox.baseUrl}/personal/selbst`)).rejects.toThrow();
  });

  it('answers only at its own loopback address with checkHost, and at ports it is told to accept', async () => {
    const sandbox = await startSandbox({ scale: 'small', seed: 2, checkHost: true });
    const open = await startSandbox({ scale: 'small', seed: 2 });
    try {
      const port = new URL(sandbox.origin).port;
      const jwks = `${sandbox.origin}/oauth/v1/jwks`;
      expect(await statusWithHost(jwks, `127.0.0.1:${port}`)).toBe(200);
      expect(await statusWithHost(jwks, `LOCALHOST:${port}`)).toBe(200);
      // A web page under a name of its own that resolves to 127.0.0.1 (DNS rebinding), another
      // port or none, or a name that only starts like one of its own.
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        '127.0.0.1:1',
        '127.0.0.1',
        `127.0.0.1.evil.example:${port}`,
        `localhost:${port}.evil.example`,
      ])
        expect(await statusWithHost(jwks, host), host).toBe(421);
      expect(await statusWithHost(sandbox.feedUrl, `rebound.example:${port}`)).toBe(421);
      expect(await statusWithHost(`${sandbox.baseUrl}/organisation`, 'rebound.example')).toBe(421);
      // A proxy in front of it (the demo's switch) is reached at a port of its own.
      expect(await statusWithHost(jwks, '127.0.0.1:4711')).toBe(421);
      sandbox.acceptHostPort(4711);
      expect(await statusWithHost(jwks, '127.0.0.1:4711')).toBe(200);
      expect(() => sandbox.acceptHostPort(0)).toThrow(RangeError);
      // Without checkHost, any Host is answered (tests, the development server).
      expect(await statusWithHost(`${open.origin}/oauth/v1/jwks`, 'evil.example')).toBe(200);
    } finally {
      await Promise.all([sandbox.close(), open.close()]);
    }
    await expect(startSandbox({ checkHost: true, host: '0.0.0.0' })).rejects.toThrow(RangeError);
  });

  it('logs in only a request carrying the approval secret when one is set', async () => {
    const secret = 'a-per-run-secret-0123456789';
    const sandbox = await startSandbox({
      scale: 'small',
      seed: 2,
      autoApprove: true,
      approvalSecret: secret,
    });
    const open = await startSandbox({ scale: 'small', seed: 2, autoApprove: true });
    try {
      const authorize = (origin: string, headers: Record<string, string> = {}) => {
        const url = new URL(`${origin}/oauth/v1/authorize`);
        url.search = new URLSearchParams({
          response_type: 'code',
          client_id: sandbox.clientId,
          redirect_uri: 'http://127.0.0.1:9/callback',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          state: 's',
        }).toString();
        return fetch(url, { redirect: 'manual', headers });
      };
      const codeOf = (answer: Response) =>
        new URL(answer.headers.get('location') ?? 'http://x/').searchParams.get('code');
      // Another program of this computer asking, without the secret or with a wrong one: no code,
      // and no login page whose form it could post.
      const asked: Record<string, string>[] = [
        {},
        { [APPROVAL_HEADER]: 'guessed-secret-0123456789' },
      ];
      for (const headers of asked) {
        const answer = await authorize(sandbox.origin, headers);
        expect(answer.status).toBe(403);
        expect(answer.headers.get('location')).toBeNull();
      }
      const posted = await fetch(`${sandbox.origin}/oauth/v1/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          response_type: 'code',
          client_id: sandbox.clientId,
          redirect_uri: 'http://127.0.0.1:9/callback',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          state: 's',
          user_id: sandbox.users[0]!.id,
        }).toString(),
      });
      expect(posted.status).toBe(403);
      // The host that holds the secret gets its code at once.
      const approved = await authorize(sandbox.origin, { [APPROVAL_HEADER]: secret });
      expect(approved.status).toBe(302);
      expect(codeOf(approved)).toMatch(/./);
      // Without an approval secret, anyone is approved (tests, the development server).
      expect(codeOf(await authorize(open.origin))).toMatch(/./);
    } finally {
      await Promise.all([sandbox.close(), open.close()]);
    }
    await expect(startSandbox({ approvalSecret: 'short' })).rejects.toThrow(RangeError);
  });

  it('draws the private feeds’ secrets at random with randomFeedSecrets, else from the seed', async () => {
    const seeded = await Promise.all([1, 2].map(() => startSandbox({ scale: 'small', seed: 2 })));
    const random = await Promise.all(
      [1, 2].map(() => startSandbox({ scale: 'small', seed: 2, randomFeedSecrets: true })),
    );
    try {
      const path = (url: string) => new URL(url).pathname;
      expect(path(seeded[0]!.feedUrl)).toBe(path(seeded[1]!.feedUrl));
      const urls = new Set([seeded[0]!, ...random].map((sandbox) => path(sandbox.feedUrl)));
      expect(urls.size).toBe(3);
      for (const sandbox of random) {
        expect(sandbox.feedUrl).toMatch(/private-[0-9a-f]{32}\/termine\.ics$/);
        expect((await fetch(sandbox.feedUrl)).status).toBe(200);
      }
      // Only the secrets differ: the same people.
      expect(random[0]!.users.map((user) => user.name)).toEqual(
        seeded[0]!.users.map((user) => user.name),
      );
    } finally {
      await Promise.all([...seeded, ...random].map((sandbox) => sandbox.close()));
    }
  });

  it('refuses options it cannot honour', async () => {
    await expect(startSandbox({ prefix: 'core/v1' })).rejects.toThrow(RangeError);
    await expect(startSandbox({ faults: 'flaky=0.5' })).rejects.toThrow(RangeError);
    await expect(startSandbox({ rateLimit: 'lots' })).rejects.toThrow(RangeError);
    await expect(startSandbox({ pageSize: 0 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ anchorDate: '2026-02-30' })).rejects.toThrow(RangeError);
  });

  it('takes already parsed fault and rate-limit specs, as the CLI passes them', async () => {
    const sandbox = await startSandbox({
      scale: 'small',
      faults: { error: 0, throttle: 1, slow: 0, malformed: 0, lost: 0 },
      rateLimit: { limit: 1, windowMs: 60_000 },
    });
    try {
      expect((await ApiClient.as(sandbox, 'office').get('/kalender')).status).toBe(429);
    } finally {
      await sandbox.close();
    }
  });

  it('keeps its state in a data file across a restart instead of generating anew', async () => {
    const file = join(folder, 'state.sqlite');
    const first = await startSandbox({ scale: 'small', seed: 2, data: file });
    const office = ApiClient.as(first, 'office');
    const created = one(
      await office.post('/kalender', {
        data: { type: 'kalender', attributes: { name: 'Bleibt' } },
      }),
    );
    const people = first.store.count('user');
    await first.close();

    const second = await startSandbox({ scale: 'medium', seed: 99, data: file });
    try {
      expect(second.store.count('user')).toBe(people);
      expect(second.store.settings().seed).toBe(2);
      const calendars = many(await ApiClient.as(second, 'office').get('/kalender'));
      expect(calendars.map((calendar) => calendar.id)).toContain(created.id);
    } finally {
      await second.close();
    }
  });
});
