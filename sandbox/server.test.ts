// startSandbox itself: what it hands back, its options and their checks, closing, and state
// that survives a restart when it is kept in a file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, many, one } from './http/test-client';
import { startSandbox } from './server';

const folder = mkdtempSync(join(tmpdir(), 'vorort-sandbox-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

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
