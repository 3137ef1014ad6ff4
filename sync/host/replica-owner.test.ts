// Whose data the replica holds, against the sandbox over HTTP: another person signing in to the
// same service on this computer starts with an empty replica, never the first person's data; while
// the first person's changes wait to be sent, the other's login is refused in words and nothing
// of the replica goes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { call, openTestSession, until } from '../../test/support/host-session';
import type { AppState, CoreEvent, QueryResults, SyncStatus } from '../contract';

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, prefix: '/core/v1', scale: 'small', autoApprove: true });
  dir = mkdtempSync(join(tmpdir(), 'vorort-owner-'));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const SYNC_MS = 90_000;
const finished = (events: CoreEvent[]) => events.filter((e) => e.type === 'sync.finished').length;

describe('the replica belongs to the person who signed in', () => {
  it('another person: refused while the first one’s changes wait, then an empty replica of their own', async () => {
    let hint = 'trainer1';
    const { session, events } = await openTestSession(join(dir, 'owner'), {
      openExternal: async (url) => {
        const login = new URL(url);
        login.searchParams.set('login_hint', hint);
        await (await fetch(login, { redirect: 'follow' })).arrayBuffer();
      },
    });
    const idOf = (name: string) =>
      sandbox.store.all('user').find((user) => user.attributes.username === name)?.id;
    const status = () => call<SyncStatus>(session, 'sync.status');
    const notifications = () =>
      call<QueryResults['notifications.list']>(session, 'notifications.list');
    try {
      await call<AppState>(session, 'account.configure', {
        baseUrl: sandbox.baseUrl,
        authUrl: sandbox.authUrl,
        tokenUrl: sandbox.tokenUrl,
        clientId: sandbox.clientId,
      });
      await call<AppState>(session, 'account.login');
      await until(() => finished(events) >= 1, 'trainer1’s first sync', SYNC_MS);
      expect((await status()).selfId).toBe(idOf('trainer1'));
      const own = await notifications();
      expect(own.length).toBeGreaterThan(0);

      // Signed out, the data kept, a change of trainer1's waiting.
      await call<AppState>(session, 'account.logout', {});
      const receipt = await call<{ operation: number }>(session, 'benachrichtigung.update', {
        id: own[0]!.id,
        attributes: { gelesen: !own[0]!.gelesen },
      });
      hint = 'trainer2';
      const refused = await session.call('account.login', {});
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('not_allowed');
        expect(refused.error.message.de).toContain('wartet noch eine Änderung');
        expect(refused.error.message.en).toContain('sign in as');
      }
      expect((await call<AppState>(session, 'app.state')).phase).toBe('signed-out');
      expect((await notifications()).map((n) => n.id)).toEqual(own.map((n) => n.id));
      expect((await status()).outbox.open).toBe(1);

      // The change given up: trainer2 signs in to an empty replica and syncs their own data.
      await call(session, 'outbox.discard', { id: receipt.operation });
      const before = finished(events);
      expect((await call<AppState>(session, 'account.login')).phase).toBe('signed-in');
      await until(() => finished(events) > before, 'trainer2’s first sync', SYNC_MS);
      expect((await status()).selfId).toBe(idOf('trainer2'));
      const theirs = new Set((await notifications()).map((n) => n.id));
      for (const notification of own) expect(theirs.has(notification.id)).toBe(false);
    } finally {
      await session.close();
    }
  }, 240_000);
});
