// The app session end to end against the sandbox over HTTP, with real files: the demo signs in
// through the real login flow, a sync runs (in the worker) and its states are events; a revoked
// login signs out saying "sign in again" with the outbox kept; sign-out says what would be lost
// and keeps the outbox unless asked; the folder is 0700, its files 0600.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_HEADER, type RunningSandbox } from '../../sandbox/server';
import { demoSandbox } from '../../test/support/demo-sandbox';
import { call, openTestSession, until, type TestSession } from '../../test/support/host-session';
import { TcpSwitch } from '../../test/support/tcp-switch';
import type { AppState, CoreEvent } from '../contract';
import { heartbeatFor, type DemoProvider, type HostSessionOptions } from './session';

let dir: string;
const opened: string[] = [];

/** electron/demo.ts's provider, with a short token lifetime so that every sync refreshes. */
const demo = demoSandbox({ tokenTtlSeconds: 30 });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vorort-session-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function open(name: string, more: Partial<HostSessionOptions> = {}): Promise<TestSession> {
  return openTestSession(join(dir, name), {
    openExternal: async (url) => {
      opened.push(url);
    },
    demo,
    ...more,
  });
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the app session', () => {
  it('demo → signed in → a sync runs as events; a revoked login signs out, outbox kept; sign-out says what would be lost', async () => {
    const { session, events } = await open('demo');
    try {
      const first = await call<AppState>(session, 'app.state');
      expect(first.phase).toBe('first-run');
      expect(first.account).toBeNull();
      const refused = await session.call('sync.now', {});
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.code).toBe('not_signed_in');
      const wrong = await session.call('account.logout', { deleteLocalData: 'yes' });
      expect(wrong.ok).toBe(false);
      if (!wrong.ok) expect(wrong.error.code).toBe('invalid_arguments');

      const signedIn = await call<AppState>(session, 'account.demo');
      expect(signedIn.phase).toBe('signed-in');
      expect(signedIn.account?.demo).toBe(true);
      expect(signedIn.user?.id).toMatch(/^[0-9a-f]{32}$/);
      // What the login may do, as the service granted it (the screens offer changes by it).
      expect(signedIn.user?.scopes).toEqual(
        expect.arrayContaining(['personal:read', 'personal:update', 'personal:add']),
      );
      expect(opened).toEqual([]); // the demo never opens a browser
      expect(events.map((e) => e.type)).toContain('app.state');

      const states = () => events.flatMap((e) => (e.type === 'sync.state' ? [e.state.phase] : []));
      await until(
        () =>
          events.some(
            (e) =>
              e.type === 'sync.state' &&
              e.state.phase === 'idle' &&
              e.state.lastSuccessfulSyncAt !== null,
          ),
        'a finished sync',
      );
      expect(states()).toContain('syncing');
      expect(events.some((e) => e.type === 'sync.progress')).toBe(true);
      expect(events.some((e) => e.type === 'sync.finished' && e.ok)).toBe(true);
      const people = await call<{ total: number }>(session, 'personnel.list', {});
      expect(people.total).toBeGreaterThan(0);

      // The files: the folder 0700, the replica, the settings and the secret 0600.
      const folder = join(dir, 'demo');
      expect(mode(folder)).toBe(0o700);
      for (const file of ['replica.sqlite', 'settings.json', 'secrets.json'])
        expect(mode(join(folder, file)), file).toBe(0o600);
      expect(mode(join(folder, 'demo'))).toBe(0o700);

      // The service withdraws the login: the next sync's refresh is refused.
      const notifications = await call<{ id: string; gelesen: boolean }[]>(
        session,
        'notifications.list',
        {},
      );
      const target = notifications[0];
      expect(target).toBeDefined();
      demo.current()?.auth.revokeLogins();
      const beforeWrite = events.length;
      await call(session, 'benachrichtigung.update', {
        id: target?.id,
        attributes: { gelesen: !target?.gelesen },
      });
      // A local write is a data change at once: the screens read again, in every window.
      expect(events.slice(beforeWrite)).toContainEqual({
        type: 'data.changed',
        tables: ['benachrichtigungen', 'outbox'],
      });
      await call(session, 'sync.now');
      await until(
        () => events.some((e) => e.type === 'app.state' && e.state.phase === 'signed-out'),
        'signed out',
      );
      const after = await call<AppState>(session, 'app.state');
      expect(after.phase).toBe('signed-out');
      expect(after.reason?.en).toContain('sign in again');
      expect(after.reason?.de).toContain('melden Sie sich neu an');
      expect(after.scheduler).toBeNull();
      expect(existsSync(join(folder, 'secrets.json'))).toBe(false);
      const loss = await call<{ pending: number; parked: number }>(session, 'account.pendingLoss');
      expect(loss.pending).toBe(1);

      // Sign in again (the demo's own flow): the outbox is sent.
      const again = await call<AppState>(session, 'account.login');
      expect(again.phase).toBe('signed-in');
      await until(() => {
        const last = events.findLast((e) => e.type === 'sync.state');
        return (
          last?.type === 'sync.state' && last.state.phase === 'idle' && last.state.pending === 0
        );
      }, 'the outbox sent');

      // Sign-out keeps the outbox and the replica unless asked.
      const out = await call<AppState>(session, 'account.logout', {});
      expect(out.phase).toBe('signed-out');
      expect((await call<{ total: number }>(session, 'personnel.list', {})).total).toBeGreaterThan(
        0,
      );
      const gone = await call<AppState>(session, 'account.logout', { deleteLocalData: true });
      expect(gone.phase).toBe('signed-out');
      expect((await call<{ total: number }>(session, 'personnel.list', {})).total).toBe(0);
      expect(existsSync(join(folder, 'demo'))).toBe(false);
      expect(mode(join(folder, 'replica.sqlite'))).toBe(0o600);
    } finally {
      await session.close();
      await session.close();
    }
    expect(demo.current()).toBeNull();
  });

  it('keeps a configured account across a restart, refuses http elsewhere, and answers unknown names', async () => {
    const first = await open('configured');
    const refused = await first.session.call('account.configure', {
      baseUrl: 'http://example.org/core/v1',
      authUrl: 'https://example.org/oauth/v1/authorize',
      tokenUrl: 'https://example.org/oauth/v1/token',
      clientId: 'abc',
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message.de).toContain('unverschlüsseltes http');
    const state = await call<AppState>(first.session, 'account.configure', {
      baseUrl: 'https://example.org/core/v1',
      authUrl: 'https://example.org/oauth/v1/authorize',
      tokenUrl: 'https://example.org/oauth/v1/token',
      clientId: 'abc',
    });
    expect(state.phase).toBe('signed-out');
    const unknown = await first.session.call('no.such.call', {});
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error.code).toBe('unknown_name');
    await first.session.close();
    const closed = await first.session.call('app.state', {});
    expect(closed.ok).toBe(false);

    const second = await open('configured');
    const reopened = await call<AppState>(second.session, 'app.state');
    expect(reopened.phase).toBe('signed-out');
    expect(reopened.account).toMatchObject({ clientId: 'abc', demo: false });
    await second.session.close();
  });

  it('is fed the OS: offline and back, sleep and wake; the state the OS said holds for a later login', async () => {
    const { session, events } = await open('os');
    const phases = () => events.flatMap((e) => (e.type === 'sync.state' ? [e.state.phase] : []));
    const lastPhase = () => phases().at(-1);
    const successes = () => events.filter((e) => e.type === 'sync.finished' && e.ok).length;
    try {
      // Before any login: nothing to feed yet, the state is remembered.
      session.networkChanged(false);
      session.suspended();
      session.resumed();
      await call<AppState>(session, 'account.demo');
      // The scheduler starts offline (the OS said so): its first state is not a sync.
      await until(() => phases().length > 0, 'a first state');
      expect(phases()[0]).toBe('offline');
      session.networkChanged(true);
      await until(() => successes() >= 1 && lastPhase() === 'idle', 'a sync once online');

      // The network goes: offline at once; back: a sync soon, without anyone asking.
      session.networkChanged(false);
      expect(lastPhase()).toBe('offline');
      session.networkChanged(true);
      await until(() => successes() >= 2 && lastPhase() === 'idle', 'a sync after the network');

      // Sleep: offline (no timers of a sleeping computer); wake: a sync soon.
      session.suspended();
      expect(lastPhase()).toBe('offline');
      session.resumed();
      await until(() => successes() >= 3 && lastPhase() === 'idle', 'a sync after waking');
      // A repeated "online" or "awake" costs no sync.
      const before = successes();
      session.networkChanged(true);
      session.resumed();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(successes()).toBe(before);
    } finally {
      await session.close();
    }
  });

  it('visible: the service gone is offline within seconds by itself; back on the same port: online, the outbox sent; hidden: no probes', async () => {
    // The demo's interface behind a switch that stops and starts again on its port.
    let service: TcpSwitch | null = null;
    const switched: DemoProvider = {
      async start(dataDir) {
        const started = await demo.start(dataDir);
        service = new TcpSwitch(Number(new URL(started.baseUrl).port));
        await service.start();
        const through = service;
        return {
          ...started,
          baseUrl: through.through(started.baseUrl),
          close: async () => {
            await through.stop();
            await started.close();
          },
        };
      },
    };
    const { session, events } = await open('heartbeat', { demo: switched });
    const last = () => {
      const event = events.findLast((e) => e.type === 'sync.state');
      return event?.type === 'sync.state' ? event.state : null;
    };
    const successes = () => events.filter((e) => e.type === 'sync.finished' && e.ok).length;
    const HEARTBEAT = heartbeatFor(undefined);
    expect(HEARTBEAT).toBe(5_000);
    expect(heartbeatFor(30)).toBe(8_000); // the real service's pace: a quarter of it at most
    try {
      await call<AppState>(session, 'account.demo');
      await until(() => successes() >= 1 && last()?.phase === 'idle', 'the first sync');
      const sw = service as TcpSwitch | null;
      if (!sw) throw new Error('the demo has not started');

      // Hidden (no window said it shows the app): no probes, the app learns at the next sync.
      await sw.stop();
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT + 2_000));
      expect(last()?.phase).toBe('idle');

      // A window shows it: offline within the heartbeat, nobody asking.
      const shown = Date.now();
      expect(await call(session, 'app.visible', { visible: true })).toEqual({ visible: true });
      await until(() => last()?.phase === 'offline', 'offline by itself', HEARTBEAT + 6_000);
      const seconds = (Date.now() - shown) / 1000;
      expect(seconds).toBeLessThanOrEqual(HEARTBEAT / 1000 + 1);
      expect(last()?.problem?.kind).toBe('network');

      // A local write while offline: pending 1, still offline.
      const [target] = await call<{ id: string; gelesen: boolean }[]>(
        session,
        'notifications.list',
        {},
      );
      await call(session, 'benachrichtigung.update', {
        id: target?.id,
        attributes: { gelesen: !target?.gelesen },
      });
      await until(() => last()?.pending === 1, 'pending 1');
      expect(last()?.phase).toBe('offline');

      // The service back on the same port: the offline probes find it, the outbox goes out.
      const before = successes();
      await sw.start();
      await until(
        () => successes() > before && last()?.phase === 'idle' && last()?.pending === 0,
        'online again with the outbox sent',
        30_000,
      );
    } finally {
      await session.close();
    }
  });

  it('the demo says its steps from the first moment: its service starting, its login, then signed in', async () => {
    let seen: CoreEvent[] = [];
    let eventsWhenReady = -1;
    const watched: DemoProvider = {
      async start(dataDir) {
        const started = await demo.start(dataDir);
        eventsWhenReady = seen.length;
        return started;
      },
    };
    const { session, events } = await open('demo-steps', { demo: watched });
    seen = events;
    try {
      const state = await call<AppState>(session, 'account.demo', { role: 'trainer' });
      expect(state.phase).toBe('signed-in');
      expect(state.demoStart).toBeUndefined();
      const steps = events.flatMap((e) =>
        e.type === 'app.state' ? [`${e.state.phase}:${e.state.demoStart?.step ?? ''}`] : [],
      );
      expect(steps[0]).toBe('signing-in:service');
      expect(steps).toContain('signing-in:login');
      expect(steps.at(-1)).toBe('signed-in:');
      // Said before the service was ready (its first start makes the data for a while).
      const first = events.findIndex((e) => e.type === 'app.state');
      expect(first).toBeGreaterThanOrEqual(0);
      expect(first).toBeLessThan(eventsWhenReady);
      const service = events.find(
        (e) => e.type === 'app.state' && e.state.demoStart?.step === 'service',
      );
      if (service?.type !== 'app.state') throw new Error('no service step');
      expect(Date.parse(service.state.demoStart!.since)).toBeLessThanOrEqual(Date.now());
    } finally {
      await session.close();
    }
  });

  it("shows the clock problem when the service's clock is more than 5 minutes off this computer's, as vorort sync --watch does", async () => {
    const withClock = demoSandbox({ admin: true });
    const { session, events } = await open('clock', { demo: withClock });
    const last = () => {
      const event = events.findLast((e) => e.type === 'sync.state');
      return event?.type === 'sync.state' ? event.state : null;
    };
    const successes = () => events.filter((e) => e.type === 'sync.finished' && e.ok).length;
    try {
      await call<AppState>(session, 'account.demo');
      await until(() => successes() >= 1 && last()?.phase === 'idle', 'the first sync');
      expect(last()?.problem).toBeNull();

      // The service's clock 10 minutes ahead: this computer's is 10 minutes slow.
      await moveServiceClock(withClock.current(), 10 * 60_000);
      await call(session, 'sync.now');
      await until(() => successes() >= 2 && last()?.phase === 'idle', 'a sync after the move');
      expect(last()?.problem?.kind).toBe('clock');
      expect(last()?.problem?.message.de).toContain('10 Minuten nach');
      expect(last()?.problem?.message.en).toContain('10 minutes slow');
    } finally {
      await session.close();
    }
  });

  it('the demo signs in with its login headers (its per-run secret); a login page that refuses is said at once, not after the login’s timeout', async () => {
    const secret = 'this-runs-approval-secret-0123456789';
    const guarded = demoSandbox({ approvalSecret: secret });
    const withSecret: DemoProvider = {
      async start(dataDir) {
        return { ...(await guarded.start(dataDir)), loginHeaders: { [APPROVAL_HEADER]: secret } };
      },
    };
    const signedIn = await open('demo-secret', { demo: withSecret });
    try {
      expect((await call<AppState>(signedIn.session, 'account.demo')).phase).toBe('signed-in');
    } finally {
      await signedIn.session.close();
    }
    // Another program of this computer is such a caller: no secret, no code.
    const { session } = await open('demo-no-secret', { demo: guarded });
    try {
      const started = Date.now();
      const refused = await session.call('account.demo', {});
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('login_failed');
        expect(refused.error.message.en).toContain('403');
      }
      expect(Date.now() - started).toBeLessThan(30_000);
      expect((await call<AppState>(session, 'app.state')).phase).not.toBe('signed-in');
    } finally {
      await session.close();
    }
  });
});

/** The sandbox's clock forward by `ms` (its admin interface; the Date header follows it). */
async function moveServiceClock(sandbox: RunningSandbox | null, ms: number): Promise<void> {
  if (!sandbox?.admin) throw new Error('the demo runs without its admin interface');
  const response = await fetch(`${sandbox.admin.url}/clock`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${sandbox.admin.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ advanceMs: ms }),
  });
  expect(response.status).toBe(200);
}
