// The demo's service taken offline and back (demo.service) through the app session, against the
// embedded sandbox over HTTP with real files: offline, the sync says offline and a change waits
// in the outbox, "sync now" too (the service never sees it); reconnected, it is sent with no
// other action. Signed out, the demo stops (online again at its next start), either role can be started
// again, and outside the demo the call is refused in words.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSandbox } from '../../test/support/demo-sandbox';
import { call, openTestSession, until } from '../../test/support/host-session';
import type { AppState, CoreEvent, SchedulerState } from '../contract';
import type { DemoProvider } from './session';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vorort-demo-control-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const openSession = (name: string, demo?: DemoProvider) =>
  openTestSession(join(dir, name), demo ? { demo } : {});

/** The scheduler's last state as the events said it. */
function lastSync(events: CoreEvent[]): SchedulerState | undefined {
  const last = events.findLast((event) => event.type === 'sync.state');
  return last?.type === 'sync.state' ? last.state : undefined;
}

describe('the demo’s service offline and back', () => {
  it('offline: the sync says offline and a change waits; reconnected: it is sent; signed out: either role again', async () => {
    const demo = demoSandbox();
    const { session, events } = await openSession('demo', demo);
    try {
      const signedIn = await call<AppState>(session, 'account.demo', { role: 'office' });
      expect(signedIn).toMatchObject({ demoRole: 'office', demoService: 'online' });
      await until(() => lastSync(events)?.lastSuccessfulSyncAt != null, 'the first sync');
      await until(() => lastSync(events)?.phase === 'idle', 'idle');

      const offline = await call<AppState>(session, 'demo.service', { online: false });
      expect(offline.demoService).toBe('offline');
      expect(events.findLast((event) => event.type === 'app.state')).toMatchObject({
        state: { demoService: 'offline' },
      });
      // As a computer without network: offline at once; "sync now" finds nobody either.
      await until(() => lastSync(events)?.phase === 'offline', 'offline', 15_000);

      const receipt = await call<{ id: string; state: string }>(session, 'kalender.create', {
        attributes: { name: 'Offline angelegt', farbe: '#1a2b3c' },
      });
      expect(receipt.state).toBe('pending');
      await call(session, 'sync.now');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(lastSync(events)).toMatchObject({ phase: 'offline', pending: 1 });
      const sandbox = demo.current();
      expect(sandbox).not.toBeNull();
      const onService = async () => {
        const response = await fetch(`${sandbox!.baseUrl}/kalender`, {
          headers: { authorization: `Bearer ${sandbox!.users[0]!.accessToken}` },
        });
        const body = (await response.json()) as { data: { attributes: { name: string } }[] };
        return body.data.some((item) => item.attributes.name === 'Offline angelegt');
      };
      expect(await onService()).toBe(false);

      const back = await call<AppState>(session, 'demo.service', { online: true });
      expect(back.demoService).toBe('online');
      await until(
        () => lastSync(events)?.phase === 'idle' && lastSync(events)?.pending === 0,
        'the change sent',
        30_000,
      );
      expect(await onService()).toBe(true);

      // Offline again, then signed out: the demo stops; its next start answers again.
      await call(session, 'demo.service', { online: false });
      const out = await call<AppState>(session, 'account.logout', {});
      expect(out).toMatchObject({ phase: 'signed-out', demoService: null, demoRole: 'office' });
      const refused = await session.call('demo.service', { online: true });
      expect(refused.ok).toBe(false);

      // The other role after signing out.
      const trainer = await call<AppState>(session, 'account.demo', { role: 'trainer' });
      expect(trainer).toMatchObject({
        phase: 'signed-in',
        demoRole: 'trainer',
        demoService: 'online',
      });
      await until(
        () => lastSync(events)?.phase === 'idle' && lastSync(events)?.lastSuccessfulSyncAt != null,
        'the trainer’s first sync',
      );
      await call(session, 'account.logout', {});
      const office = await call<AppState>(session, 'account.demo', { role: 'office' });
      expect(office).toMatchObject({ phase: 'signed-in', demoRole: 'office' });
    } finally {
      await session.close();
    }
    expect(demo.current()).toBeNull();
  }, 240_000);

  it('outside the demo, the call is refused in words', async () => {
    const { session } = await openSession('account');
    try {
      await call(session, 'account.configure', {
        baseUrl: 'https://example.org/core/v1',
        authUrl: 'https://example.org/oauth/v1/authorize',
        tokenUrl: 'https://example.org/oauth/v1/token',
        clientId: 'abc',
      });
      const refused = await session.call('demo.service', { online: false });
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('not_allowed');
        expect(refused.error.message.de).toContain('nur in der Demo');
        expect(refused.error.message.en).toContain('only in the demo');
      }
      expect((await call<AppState>(session, 'app.state')).demoService).toBeNull();
    } finally {
      await session.close();
    }
  });
});
