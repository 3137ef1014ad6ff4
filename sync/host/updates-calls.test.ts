// The updates.* host calls and their event through the app session: the host's updater answers
// them and its changes reach every window as `updates.state`; without one (browser mode, the
// command line) they answer `off`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, openTestSession } from '../../test/support/host-session';
import { UPDATE_OFF, type UpdateState } from '../contract';
import type { UpdatesProvider } from './session';

const dir = mkdtempSync(join(tmpdir(), 'vorort-updates-calls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the updates calls', () => {
  it('answer off without the host’s updater', async () => {
    const { session } = await openTestSession(join(dir, 'none'));
    try {
      for (const name of ['updates.state', 'updates.check', 'updates.install'])
        expect(await call<UpdateState>(session, name), name).toEqual(UPDATE_OFF);
    } finally {
      await session.close();
    }
  });

  it('ask the host’s updater, and its changes reach the windows as events', async () => {
    let state: UpdateState = { ...UPDATE_OFF, phase: 'idle' };
    const listeners = new Set<(state: UpdateState) => void>();
    const asked: string[] = [];
    const change = (next: Partial<UpdateState>) => {
      state = { ...state, ...next };
      for (const listener of listeners) listener(state);
    };
    const updates: UpdatesProvider = {
      state: () => state,
      check: async () => {
        asked.push('check');
        change({ phase: 'downloading', version: '0.2.0', percent: 0 });
        return state;
      },
      install: async () => {
        asked.push('install');
        change({ waitingForSync: true });
        return state;
      },
      onChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const { session, events } = await openTestSession(join(dir, 'updater'), { updates });
    try {
      expect((await call<UpdateState>(session, 'updates.state')).phase).toBe('idle');
      expect((await call<UpdateState>(session, 'updates.check')).phase).toBe('downloading');
      change({ percent: 40 });
      change({ phase: 'ready', percent: 100 });
      expect(await call<UpdateState>(session, 'updates.install')).toMatchObject({
        phase: 'ready',
        waitingForSync: true,
      });
      expect(asked).toEqual(['check', 'install']);
      const seen = events.flatMap((event) => (event.type === 'updates.state' ? [event.state] : []));
      expect(seen.map((s) => [s.phase, s.percent, s.waitingForSync])).toEqual([
        ['downloading', 0, false],
        ['downloading', 40, false],
        ['ready', 100, false],
        ['ready', 100, true],
      ]);
    } finally {
      await session.close();
    }
    // A closed session hears its updater no more.
    expect(listeners.size).toBe(0);
  });
});
