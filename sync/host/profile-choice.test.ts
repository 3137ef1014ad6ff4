// The sync profile chosen for a person signing in with an own account, against the sandbox over
// HTTP: a trainer's login gets the trainer profile (from the scopes the login granted, or from
// the service refusing people to the office profile); a profile the person chose stays theirs,
// and a sync that could not read everything is never "synced".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { call, openTestSession, until, type TestSession } from '../../test/support/host-session';
import type { AppSettings, AppState, CoreEvent, SchedulerState } from '../contract';

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, prefix: '/core/v1', scale: 'small', autoApprove: true });
  dir = mkdtempSync(join(tmpdir(), 'vorort-profile-'));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A session whose "browser" signs in as the demo data's first trainer (the sandbox approves by itself). */
function open(name: string, scope?: string): Promise<TestSession> {
  return openTestSession(join(dir, name), {
    openExternal: async (url) => {
      const login = new URL(url);
      login.searchParams.set('login_hint', 'trainer1');
      if (scope) login.searchParams.set('scope', scope);
      const response = await fetch(login, { redirect: 'follow' });
      await response.arrayBuffer();
    },
  });
}

/** A sync here takes a login and the whole small demo data set. */
const SYNC_MS = 90_000;

const finished = (events: CoreEvent[]) => events.filter((e) => e.type === 'sync.finished');
const lastState = (events: CoreEvent[]): SchedulerState | null => {
  const event = events.findLast((e) => e.type === 'sync.state');
  return event?.type === 'sync.state' ? event.state : null;
};

const accountOf = () => ({
  baseUrl: sandbox.baseUrl,
  authUrl: sandbox.authUrl,
  tokenUrl: sandbox.tokenUrl,
  clientId: sandbox.clientId,
});

describe('the sync profile of an own account', () => {
  it('a login granted no right to read people gets the trainer profile before its first sync', async () => {
    // The person (or the service) granted the own data and the courses, not the staff.
    const { session, events } = await open('scopes', OWN_DATA_AND_COURSES);
    try {
      await call<AppState>(session, 'account.configure', accountOf());
      expect((await call<AppSettings>(session, 'settings.get')).profile).toBe('office');
      const state = await call<AppState>(session, 'account.login');
      expect(state.phase).toBe('signed-in');
      expect((await call<AppSettings>(session, 'settings.get')).profile).toBe('trainer');
      const changed = events.findIndex((e) => e.type === 'settings.changed');
      const firstSync = events.findIndex((e) => e.type === 'sync.state');
      expect(changed).toBeGreaterThanOrEqual(0);
      expect(changed).toBeLessThan(firstSync);
    } finally {
      await session.close();
    }
  });

  it("the service refusing people to the office profile chooses the trainer's, and the same sync goes on with it; a profile the person chose stays, its incomplete sync never green", async () => {
    const { session, events } = await open('refused');
    try {
      await call<AppState>(session, 'account.configure', accountOf());
      await call<AppState>(session, 'account.login');
      // The trainer's token may read the own person (personal:read): the office profile first.
      await until(
        () => finished(events).length >= 1 && lastState(events)?.phase !== 'syncing',
        'the first sync',
        SYNC_MS,
      );
      expect((await call<AppSettings>(session, 'settings.get')).profile).toBe('trainer');
      expect(events).toContainEqual({
        type: 'settings.changed',
        settings: expect.objectContaining({ profile: 'trainer' }),
      });
      expect(finished(events)).toHaveLength(1);
      expect(finished(events)[0]).toMatchObject({ ok: true });
      expect(lastState(events)).toMatchObject({ phase: 'idle', problem: null });
      expect(lastState(events)?.lastSuccessfulSyncAt).not.toBeNull();

      // The person chooses the office profile: it stays theirs, also over a new login.
      await call(session, 'settings.update', { profile: 'office' });
      await call(session, 'sync.now');
      await until(
        () => finished(events).length >= 2 && lastState(events)?.phase !== 'syncing',
        'an office sync',
        SYNC_MS,
      );
      expect((await call<AppSettings>(session, 'settings.get')).profile).toBe('office');
      // The office profile without the staff: not "synced", and the words say what fits.
      expect(lastState(events)?.phase).toBe('error');
      expect(lastState(events)?.problem?.message.de).toContain('Profil „Kursleitung“');
      expect(lastState(events)?.problem?.message.en).toContain('trainer profile');
      await call<AppState>(session, 'account.login');
      expect((await call<AppSettings>(session, 'settings.get')).profile).toBe('office');
    } finally {
      await session.close();
    }
  });

  it('the person choosing the trainer profile while the first (office) sync runs: the same sync goes on with it', async () => {
    const { session, events } = await open('chosen-meanwhile');
    try {
      await call<AppState>(session, 'account.configure', accountOf());
      await call<AppState>(session, 'account.login');
      await until(() => lastState(events)?.phase === 'syncing', 'the first sync running', SYNC_MS);
      await call(session, 'settings.update', { profile: 'trainer' });
      await until(
        () => finished(events).length >= 1 && lastState(events)?.phase !== 'syncing',
        'the first sync',
        SYNC_MS,
      );
      expect(finished(events)).toHaveLength(1);
      expect(finished(events)[0]).toMatchObject({ ok: true });
      expect(lastState(events)).toMatchObject({ phase: 'idle', problem: null });
      expect((await call<AppSettings>(session, 'settings.get')).profile).toBe('trainer');
    } finally {
      await session.close();
    }
  });
});

/** A trainer's scopes without the right to read people (sandbox/auth/scopes.ts names them). */
const OWN_DATA_AND_COURSES = [
  'openid',
  'profile',
  'personal/selbst:read',
  'organisation/selbst/stammdaten:read',
  'kalender:read',
  'helferstunden:read',
  'benachrichtigungen:read',
  'courses:read',
  'participations:read',
  'participations:update',
  'customfields:read',
  'customfields:update',
].join(' ');
