// The sync indicator's progress in words: every collection a sync reports progress for (found by
// running one against the sandbox, the outbox's push included) and every collection of the
// contract's areas has a name in German and English (renderer/i18n, sync.collection), so the
// indicator never shows a raw name such as "customfields".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import de from '../../renderer/i18n/de.json';
import en from '../../renderer/i18n/en.json';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { AREAS } from '../../sync/contract';
import { openReplica } from '../../sync/db/open';
import { callOrThrow, createDispatcher } from '../../sync/dispatch';
import { syncOnce } from '../../sync/scheduler';

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 3 });
  dir = mkdtempSync(join(tmpdir(), 'vorort-words-'));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the sync progress in words', () => {
  it('names every collection a sync reports, in German and English', async () => {
    const reported = new Set<string>();
    for (const role of ['office', 'trainer'] as const) {
      const user = sandbox.users.find((u) => u.role === role)!;
      const api = createApiClient({
        baseUrl: sandbox.baseUrl,
        tokens: staticToken(user.accessToken),
      });
      const replica = openReplica(join(dir, `${role}.sqlite`));
      try {
        // A local change first, so the push reports its progress too.
        await callOrThrow(createDispatcher(replica), 'kalender.create', {
          attributes: { name: `Worte ${role}` },
        });
        await syncOnce({
          api,
          replica,
          profile: role,
          full: true,
          onProgress: (event) => reported.add(event.collection),
        });
      } finally {
        await replica.close();
      }
    }
    expect(reported).toContain('outbox');
    expect(reported).toContain('customfields');
    const names = new Set([...reported, ...Object.values(AREAS).flat()]);
    const german: Record<string, string> = de.sync.collection;
    const english: Record<string, string> = en.sync.collection;
    for (const name of names) {
      expect(german[name], `de: ${name}`).toMatch(/\S/);
      expect(english[name], `en: ${name}`).toMatch(/\S/);
    }
  });
});
