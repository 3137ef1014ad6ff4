// The installed app's updates (electron/updates.ts) with a stand-in for electron-updater's
// autoUpdater: off without the organisation's address, checks in the background, reports the
// download, installs only when the person agrees and never while changes are being sent.
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UpdateState } from '../sync/contract';
import {
  CHECK_EVERY_MS,
  createUpdates,
  FIRST_CHECK_MS,
  readUpdateFeed,
  updateFeedUrl,
  updateFilePlaces,
  type Timers,
  type UpdaterLike,
} from './updates';

/** electron-updater's autoUpdater as far as the module uses it; remembers what it was asked. */
class StandInUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  feeds: unknown[] = [];
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  failNextCheck: Error | null = null;
  log: string[];
  constructor(log: string[]) {
    super();
    this.log = log;
  }
  setFeedURL(options: { provider: 'generic'; url: string }) {
    this.feeds.push(options);
  }
  async checkForUpdates() {
    this.checks += 1;
    if (this.failNextCheck) {
      const error = this.failNextCheck;
      this.failNextCheck = null;
      throw error;
    }
    return null;
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
    this.log.push('quitAndInstall');
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

/** Timers run by hand. */
function handTimers() {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  const timers: Timers = {
    setTimeout: (run, ms) => {
      next += 1;
      pending.set(next, { run, ms });
      return next;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    delays: () => [...pending.values()].map((timer) => timer.ms),
    async fire() {
      const entries = [...pending.entries()];
      pending.clear();
      for (const [, timer] of entries) timer.run();
      await new Promise((done) => setTimeout(done, 0));
    },
  };
}

function setUp(feedUrl: string | null = 'https://updates.example.org/vorort/') {
  const log: string[] = [];
  const updater = new StandInUpdater(log);
  const clock = handTimers();
  let sending = false;
  const states: UpdateState[] = [];
  const updates = createUpdates({
    updater,
    feedUrl,
    sending: () => sending,
    beforeInstall: async () => void log.push('session closed'),
    timers: clock.timers,
    now: () => new Date('2026-11-27T08:00:00Z'),
  });
  updates.onChange((state) => states.push(state));
  return {
    updater,
    updates,
    clock,
    log,
    states,
    setSending: (value: boolean) => (sending = value),
  };
}

const settle = () => new Promise((done) => setTimeout(done, 0));

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('updates without the organisation’s address', () => {
  it('are off: no server asked, no timer, nothing installed', async () => {
    const { updater, updates, clock } = setUp(null);
    expect(updates.state()).toMatchObject({ phase: 'off', error: null });
    expect(updater.feeds).toEqual([]);
    expect(clock.delays()).toEqual([]);
    expect((await updates.check()).phase).toBe('off');
    updater.emit('update-downloaded', { version: '9.9.9' });
    expect((await updates.install()).phase).toBe('off');
    expect(updater.checks).toBe(0);
    expect(updater.installs).toEqual([]);
  });

  it('say why the organisation’s file is not used', () => {
    const updates = createUpdates({
      updater: new StandInUpdater([]),
      feedUrl: null,
      feedProblem: '/etc/vorort/update.json names no https address',
      sending: () => false,
      beforeInstall: async () => {},
    });
    expect(updates.state()).toMatchObject({
      phase: 'off',
      error: expect.stringContaining('https'),
    });
  });

  it('are off where there is nothing to update (run from the sources)', () => {
    const updates = createUpdates({
      updater: null,
      feedUrl: 'https://updates.example.org/',
      sending: () => false,
      beforeInstall: async () => {},
    });
    expect(updates.state().phase).toBe('off');
  });
});

describe('the organisation’s address', () => {
  it('is https, or plain http on this computer only', () => {
    expect(updateFeedUrl('https://updates.example.org/vorort/')).toBe(
      'https://updates.example.org/vorort/',
    );
    expect(updateFeedUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080/');
    for (const refused of [
      'http://updates.example.org/',
      'file:///etc/passwd',
      'https://user:secret@updates.example.org/',
      'not an address',
      42,
      null,
    ])
      expect(updateFeedUrl(refused), String(refused)).toBeNull();
  });

  it('is looked for where IT places it first, then in the app, then the user’s folder', () => {
    const where = { resourcesPath: '/opt/Vorort/resources', userDataDir: '/home/a/.config/Vorort' };
    expect(updateFilePlaces({ ...where, platform: 'linux', env: {} })).toEqual([
      join('/etc/vorort', 'update.json'),
      join('/opt/Vorort/resources', 'update.json'),
      join('/home/a/.config/Vorort', 'update.json'),
    ]);
    expect(
      updateFilePlaces({ ...where, platform: 'win32', env: { ProgramData: 'D:\\Data' } })[0],
    ).toBe(join('D:\\Data', 'Vorort', 'update.json'));
    expect(updateFilePlaces({ ...where, platform: 'darwin', env: {} })[0]).toBe(
      join('/Library/Application Support/Vorort', 'update.json'),
    );
  });

  it('comes from the first update.json that exists; one that says nothing usable turns updates off', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vorort-updates-'));
    dirs.push(dir);
    const [machine, user] = [join(dir, 'machine', 'update.json'), join(dir, 'user', 'update.json')];
    mkdirSync(join(dir, 'machine'));
    mkdirSync(join(dir, 'user'));
    expect(readUpdateFeed([machine, user])).toEqual({ url: null, problem: null });
    writeFileSync(user, JSON.stringify({ url: 'https://user.example.org/' }));
    expect(readUpdateFeed([machine, user])).toEqual({
      url: 'https://user.example.org/',
      problem: null,
    });
    writeFileSync(machine, JSON.stringify({ url: 'https://it.example.org/vorort/' }));
    expect(readUpdateFeed([machine, user]).url).toBe('https://it.example.org/vorort/');
    writeFileSync(machine, JSON.stringify({ url: 'http://it.example.org/' }));
    expect(readUpdateFeed([machine, user])).toMatchObject({
      url: null,
      problem: expect.stringContaining('no https address'),
    });
    writeFileSync(machine, '{ url: ');
    expect(readUpdateFeed([machine, user])).toMatchObject({
      url: null,
      problem: expect.stringContaining('not JSON'),
    });
  });
});

describe('updates with the organisation’s address', () => {
  it('use it as a generic server, download in the background and never install on a quit', () => {
    const { updater, updates } = setUp();
    expect(updater.feeds).toEqual([
      { provider: 'generic', url: 'https://updates.example.org/vorort/' },
    ]);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(updates.state()).toMatchObject({ phase: 'idle', checkedAt: null });
  });

  it('check in the background: a minute after the start, then every few hours', async () => {
    const { updater, updates, clock } = setUp();
    expect(clock.delays()).toEqual([FIRST_CHECK_MS]);
    expect(updater.checks).toBe(0);
    await clock.fire();
    expect(updater.checks).toBe(1);
    updater.emit('update-not-available', {});
    await settle();
    expect(updates.state()).toMatchObject({ phase: 'idle', checkedAt: '2026-11-27T08:00:00.000Z' });
    expect(clock.delays()).toEqual([CHECK_EVERY_MS]);
    // A failed check says why, and the next one tries again.
    updater.failNextCheck = new Error('getaddrinfo ENOTFOUND updates.example.org');
    await clock.fire();
    expect(updates.state()).toMatchObject({
      phase: 'failed',
      error: expect.stringContaining('ENOTFOUND'),
    });
    expect(clock.delays()).toEqual([CHECK_EVERY_MS]);
    await clock.fire();
    expect(updater.checks).toBe(3);
  });

  it('report the download’s progress, one change a percent', () => {
    const { updater, updates, states } = setUp();
    updater.emit('checking-for-update');
    updater.emit('update-available', { version: '0.2.0' });
    updater.emit('download-progress', { percent: 12.2 });
    updater.emit('download-progress', { percent: 12.9 });
    updater.emit('download-progress', { percent: 57.5 });
    expect(states.map((state) => [state.phase, state.percent])).toEqual([
      ['checking', null],
      ['downloading', 0],
      ['downloading', 12],
      ['downloading', 57],
    ]);
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(updates.state()).toMatchObject({ phase: 'ready', version: '0.2.0', percent: 100 });
  });

  it('do not check again while one downloads or waits for the person', async () => {
    const { updater, updates } = setUp();
    updater.emit('update-available', { version: '0.2.0' });
    await updates.check();
    updater.emit('update-downloaded', { version: '0.2.0' });
    await updates.check();
    expect(updater.checks).toBe(0);
  });

  it('install nothing before an update is downloaded', async () => {
    const { updater, updates } = setUp();
    updater.emit('update-available', { version: '0.2.0' });
    expect((await updates.install()).phase).toBe('downloading');
    expect(updater.installs).toEqual([]);
  });

  it('install when the person agrees: the session closes first, then the app restarts into the update', async () => {
    const { updater, updates, log } = setUp();
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(updater.installs).toEqual([]);
    const state = await updates.install();
    expect(state.phase).toBe('installing');
    expect(log).toEqual(['session closed', 'quitAndInstall']);
    // Not silent, and the app starts again after the installer.
    expect(updater.installs).toEqual([[false, true]]);
  });

  it('never install while changes are being sent: the agreed install waits until they arrived', async () => {
    const { updater, updates, log, setSending } = setUp();
    updater.emit('update-downloaded', { version: '0.2.0' });
    setSending(true);
    expect(await updates.install()).toMatchObject({ phase: 'ready', waitingForSync: true });
    updates.syncChanged(); // still sending
    await settle();
    expect(log).toEqual([]);
    setSending(false);
    updates.syncChanged();
    await settle();
    expect(log).toEqual(['session closed', 'quitAndInstall']);
    expect(updates.state()).toMatchObject({ phase: 'installing', waitingForSync: false });
  });

  it('never install because a sync ended when the person did not agree', async () => {
    const { updater, updates, setSending } = setUp();
    updater.emit('update-downloaded', { version: '0.2.0' });
    setSending(false);
    updates.syncChanged();
    await settle();
    expect(updater.installs).toEqual([]);
    expect(updates.state()).toMatchObject({ phase: 'ready', waitingForSync: false });
  });
});
