// The scheduler's timing on a simulated clock with a fake sync: triggers, one sync at a time, the
// debounce of local writes, offline probes with backoff, login-needed, errors in words, stop().
import { describe, expect, it } from 'vitest';
import { ApiError, type ApiErrorKind } from '../api';
import type { SchedulerState } from '../contract';
import type { SyncProgress } from '../pull/options';
import type { ReplicaCounts } from './counts';
import { SyncScheduler, type SchedulerTimers } from './scheduler';
import type { ScheduledSyncSummary } from './verdict';

const START = Date.parse('2025-03-03T09:00:00.000Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** A clock that moves only when told; due timers fire in order, promises settle in between. */
class SimulatedClock implements SchedulerTimers {
  time = START;
  private seq = 0;
  readonly pending = new Map<number, { at: number; run: () => void }>();
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    this.seq += 1;
    this.pending.set(this.seq, { at: this.time + ms, run });
    return this.seq;
  };
  clearTimeout = (handle: unknown) => {
    this.pending.delete(handle as number);
  };
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const due = [...this.pending.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort(([a, x], [b, y]) => x.at - y.at || a - b)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

const at = (ms: number) => new Date(ms).toISOString();

interface Call {
  signal: AbortSignal;
  progress: (event: SyncProgress) => void;
  asked: boolean;
  startedAt: number;
  answer(summary?: Partial<ScheduledSyncSummary>): void;
  fail(error: unknown): void;
}

const apiError = (
  kind: ApiErrorKind,
  extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {},
) => new ApiError({ kind, method: 'GET', url: 'http://service.test/personal', ...extra });

/** A scheduler on a simulated clock whose syncs and probes the test answers. */
function setup(
  options: Partial<ConstructorParameters<typeof SyncScheduler>[0]> & {
    /** Answer every sync at once with this (else the test answers each call). */
    auto?: () => Partial<ScheduledSyncSummary> | Error;
    reachable?: () => boolean;
  } = {},
) {
  const clock = new SimulatedClock();
  const calls: Call[] = [];
  const probes: number[] = [];
  const states: SchedulerState[] = [];
  let active = 0;
  let maxActive = 0;
  const counts: ReplicaCounts = { pending: 0, parked: 0, conflicts: 0, lastSuccessfulSyncAt: null };
  const scheduler = new SyncScheduler({
    timers: clock,
    random: () => 0.5,
    runOnce: (signal, progress, asked) =>
      new Promise<ScheduledSyncSummary>((resolve, reject) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        let done = false;
        const end = (then: () => void) => {
          if (done) return;
          done = true;
          active -= 1;
          then();
        };
        const call: Call = {
          signal,
          progress,
          asked,
          startedAt: clock.now(),
          answer: (summary = {}) =>
            end(() => resolve({ ok: true, finishedAt: at(clock.now()), ...summary })),
          fail: (error) => end(() => reject(error)),
        };
        signal.addEventListener('abort', () => call.fail(apiError('cancelled')));
        calls.push(call);
        const auto = options.auto?.();
        if (auto instanceof Error) call.fail(auto);
        else if (auto) call.answer(auto);
      }),
    probe: async () => {
      probes.push(clock.now());
      return options.reachable?.() ?? false;
    },
    readCounts: () => ({ ...counts }),
    onState: (state) => states.push(state),
    ...options,
  });
  return {
    clock,
    calls,
    probes,
    states,
    counts,
    scheduler,
    maxActive: () => maxActive,
    last: () => states.at(-1)!,
  };
}

describe('SyncScheduler', () => {
  it('syncs on start and then every interval, with the state of each step, emitting only changes', async () => {
    const t = setup({ auto: () => ({}) });
    t.counts.pending = 2;
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.calls).toHaveLength(1);
    expect(t.states[0]).toMatchObject({ phase: 'syncing', nextAttemptAt: null, pending: 2 });
    expect(t.last()).toEqual({
      phase: 'idle',
      progress: null,
      problem: null,
      lastSuccessfulSyncAt: at(START),
      nextAttemptAt: at(START + 5 * MINUTE),
      pending: 2,
      parked: 0,
      conflicts: 0,
    });
    await t.clock.advance(5 * MINUTE - 1);
    expect(t.calls).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.calls).toHaveLength(2);
    await t.clock.advance(10 * MINUTE);
    expect(t.calls.map((c) => c.startedAt - START)).toEqual([0, 5, 10, 15].map((m) => m * MINUTE));
    for (let i = 1; i < t.states.length; i += 1) expect(t.states[i]).not.toEqual(t.states[i - 1]);
  });

  it('runs one sync at a time: any number of triggers during a sync queue exactly one follow-up', async () => {
    const t = setup();
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.calls).toHaveLength(1);
    t.scheduler.syncNow();
    t.scheduler.syncNow();
    t.scheduler.localWrite();
    t.scheduler.loginChanged();
    await t.clock.advance(10 * SECOND); // the debounce fires during the sync
    t.scheduler.syncNow();
    expect(t.calls).toHaveLength(1);
    t.calls[0]!.answer();
    await t.clock.advance(0);
    expect(t.calls).toHaveLength(2);
    t.calls[1]!.answer();
    await t.clock.advance(0);
    expect(t.calls).toHaveLength(2);
    expect(t.maxActive()).toBe(1);
    expect(t.last()).toMatchObject({
      phase: 'idle',
      nextAttemptAt: at(t.clock.now() + 5 * MINUTE),
    });
  });

  it('tells the sync the user asked for it (sync now), the scheduled and follow-up ones not', async () => {
    const t = setup();
    t.scheduler.start();
    await t.clock.advance(0);
    t.scheduler.syncNow();
    t.calls[0]!.answer();
    await t.clock.advance(0);
    t.calls[1]!.answer();
    await t.clock.advance(5 * MINUTE);
    t.calls[2]!.answer();
    await t.clock.advance(0);
    expect(t.calls.map((call) => call.asked)).toEqual([false, true, false]);
  });

  it('syncs a few seconds after the last of a burst of local writes, and at most 30 s after the first', async () => {
    const t = setup({ auto: () => ({}) });
    t.scheduler.start();
    await t.clock.advance(0);
    const base = t.clock.now();
    for (let i = 0; i < 3; i += 1) {
      t.scheduler.localWrite();
      await t.clock.advance(SECOND);
    }
    // Writes at 0, 1 and 2 s: the sync at 5 s.
    expect(t.last().nextAttemptAt).toBe(at(base + 5 * SECOND));
    await t.clock.advance(2 * SECOND - 1);
    expect(t.calls).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.calls).toHaveLength(2);
    expect(t.calls[1]!.startedAt - base).toBe(5 * SECOND);
    // A write every 2 s without a pause: still a sync 30 s after the first one.
    const burst = t.clock.now();
    for (let i = 0; i < 20; i += 1) {
      t.scheduler.localWrite();
      await t.clock.advance(2 * SECOND);
    }
    expect(t.calls[2]!.startedAt - burst).toBe(30 * SECOND);
  });

  it('goes offline on a network error, only probes with a doubling backoff, and syncs by itself when the service answers', async () => {
    let online = true;
    let service = true;
    const t = setup({
      auto: () => (service ? {} : apiError('network')),
      reachable: () => online,
    });
    t.scheduler.start();
    await t.clock.advance(0);
    service = false;
    online = false;
    t.scheduler.syncNow();
    await t.clock.advance(0);
    expect(t.last()).toMatchObject({
      phase: 'offline',
      problem: { kind: 'network' },
      nextAttemptAt: at(t.clock.now() + 5 * SECOND),
    });
    expect(t.last().problem!.message.de).toMatch(/Keine Verbindung/);
    const offlineAt = t.clock.now();
    const syncs = t.calls.length;
    await t.clock.advance(20 * MINUTE);
    expect(t.calls).toHaveLength(syncs);
    const gaps = t.probes.map((p, i) => p - (i === 0 ? offlineAt : t.probes[i - 1]!));
    expect(gaps.slice(0, 8)).toEqual([5, 10, 20, 40, 80, 160, 300, 300].map((s) => s * SECOND));
    // The service is back: the next probe finds it and the sync follows without anyone asking.
    online = true;
    service = true;
    const probesBefore = t.probes.length;
    await t.clock.advance(5 * MINUTE);
    expect(t.probes).toHaveLength(probesBefore + 1);
    expect(t.calls).toHaveLength(syncs + 1);
    expect(t.calls.at(-1)!.startedAt).toBe(t.probes.at(-1));
    expect(t.last()).toMatchObject({ phase: 'idle', problem: null });
    // The backoff starts over next time.
    service = false;
    online = false;
    t.scheduler.syncNow();
    await t.clock.advance(0);
    expect(t.last().nextAttemptAt).toBe(at(t.clock.now() + 5 * SECOND));
  });

  it('spreads the probes with jitter', async () => {
    const t = setup({ auto: () => apiError('network'), random: () => 0 });
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.last().nextAttemptAt).toBe(at(t.clock.now() + 3750));
  });

  it('offline: "sync now" probes at once, a local write re-arms a probe soon, the OS saying online syncs soon', async () => {
    let online = false;
    const t = setup({
      auto: () => (online ? {} : apiError('timeout')),
      reachable: () => online,
    });
    t.scheduler.start();
    await t.clock.advance(2 * MINUTE);
    expect(t.last()).toMatchObject({ phase: 'offline', problem: { kind: 'network' } });
    expect(t.last().problem!.message.en).toMatch(/does not answer/);
    const probes = t.probes.length;
    t.scheduler.syncNow();
    await t.clock.advance(0);
    expect(t.probes).toHaveLength(probes + 1);
    await t.clock.advance(MINUTE); // the backoff has grown past a minute
    t.scheduler.localWrite();
    expect(t.last().nextAttemptAt).toBe(at(t.clock.now() + 3 * SECOND));
    await t.clock.advance(3 * SECOND);
    expect(t.probes.at(-1)).toBe(t.clock.now());
    online = true;
    const syncs = t.calls.length;
    t.scheduler.networkChanged(true);
    expect(t.last().nextAttemptAt).toBe(at(t.clock.now() + 2 * SECOND));
    await t.clock.advance(2 * SECOND);
    expect(t.calls).toHaveLength(syncs + 1);
    expect(t.last()).toMatchObject({ phase: 'idle', problem: null });
  });

  it('the OS saying offline aborts a running sync and probes; "online" syncs soon', async () => {
    const t = setup({ reachable: () => false });
    t.scheduler.start();
    await t.clock.advance(0);
    t.scheduler.networkChanged(false);
    await t.clock.advance(0);
    expect(t.calls[0]!.signal.aborted).toBe(true);
    expect(t.last()).toMatchObject({ phase: 'offline', nextAttemptAt: at(t.clock.now() + 5000) });
    t.scheduler.networkChanged(true);
    await t.clock.advance(2 * SECOND);
    expect(t.calls).toHaveLength(2);
    t.calls[1]!.answer();
    await t.clock.advance(0);
    expect(t.last().phase).toBe('idle');
    // A repeated "online" while idle costs no sync.
    t.scheduler.networkChanged(true);
    await t.clock.advance(MINUTE);
    expect(t.calls).toHaveLength(2);
  });

  it('login needed (401, or the push paused for a login): no syncs until a new login', async () => {
    let refuse: 'auth' | 'push' | null = 'auth';
    const t = setup({
      auto: () =>
        refuse === 'auth'
          ? apiError('auth', { status: 401 })
          : refuse === 'push'
            ? { ok: false, outbox: { pausedForLogin: true } }
            : {},
    });
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.last()).toMatchObject({
      phase: 'login-needed',
      problem: { kind: 'login' },
      nextAttemptAt: null,
    });
    expect(t.last().problem!.message.de).toMatch(/melden Sie sich neu an/);
    t.scheduler.localWrite();
    t.scheduler.networkChanged(true);
    await t.clock.advance(60 * MINUTE);
    expect(t.calls).toHaveLength(1);
    refuse = 'push';
    t.scheduler.loginChanged();
    await t.clock.advance(0);
    expect(t.calls).toHaveLength(2);
    expect(t.last().phase).toBe('login-needed');
    refuse = null;
    t.scheduler.loginChanged();
    await t.clock.advance(0);
    expect(t.calls).toHaveLength(3);
    expect(t.last()).toMatchObject({ phase: 'idle', problem: null });
  });

  it('a service error: in words with the service text, tried again at the interval (or after Retry-After)', async () => {
    let fail: Error | Partial<ScheduledSyncSummary> = apiError('server', {
      status: 503,
      errors: [{ status: '503', title: 'Wartungsarbeiten bis 10 Uhr' }],
    });
    const t = setup({ auto: () => fail });
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.last()).toMatchObject({
      phase: 'error',
      problem: {
        kind: 'service',
        message: {
          de: 'Der Dienst hat einen Fehler gemeldet: Wartungsarbeiten bis 10 Uhr',
          en: 'The service reported an error: Wartungsarbeiten bis 10 Uhr',
        },
      },
      nextAttemptAt: at(t.clock.now() + 5 * MINUTE),
    });
    fail = apiError('throttled', { status: 429, retryAfterSeconds: 600 });
    await t.clock.advance(5 * MINUTE);
    expect(t.last()).toMatchObject({
      phase: 'error',
      nextAttemptAt: at(t.clock.now() + 10 * MINUTE),
    });
    // A collection that failed: the sync ran, the state says what failed.
    fail = {
      ok: false,
      collections: {
        kurse: {
          error:
            'The service failed to answer the request (500): Datenbankfehler [GET http://x/kurse]',
        },
      },
    };
    await t.clock.advance(10 * MINUTE);
    expect(t.last().problem!.message.en).toBe(
      'The service reported an error: The service failed to answer the request (500): Datenbankfehler',
    );
    fail = {};
    await t.clock.advance(5 * MINUTE);
    expect(t.last()).toMatchObject({ phase: 'idle', problem: null });
  });

  it('a sync whose requests for single items failed, or an office sync refused the staff, is not "synced": an error in words', async () => {
    let answer: Partial<ScheduledSyncSummary> = {
      ok: false,
      collections: { personal: {}, person_details: { failedItems: 1 } },
    };
    const t = setup({ auto: () => answer });
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.last()).toMatchObject({
      phase: 'error',
      problem: { kind: 'service' },
      lastSuccessfulSyncAt: null,
      nextAttemptAt: at(START + 5 * MINUTE),
    });
    expect(t.last().problem!.message.de).toBe(
      'Nicht alles konnte gelesen werden: 1 Anfrage an den Dienst ist fehlgeschlagen. Vorort versucht es bei der nächsten Synchronisierung wieder.',
    );
    expect(t.last().problem!.message.en).toBe(
      'Not everything could be read: 1 request to the service failed. Vorort tries again at the next sync.',
    );
    // The office profile refused the staff: the words say which profile fits.
    answer = {
      profile: 'office',
      unavailable: [{ collection: 'personal', reason: 'forbidden', message: '' }],
    };
    await t.clock.advance(5 * MINUTE);
    expect(t.last()).toMatchObject({ phase: 'error', problem: { kind: 'service' } });
    expect(t.last().problem!.message.en).toBe(
      'Your account may not read the staff: the trainer profile fits it (the own courses and hours).',
    );
    answer = { collections: { person_details: {} } };
    await t.clock.advance(5 * MINUTE);
    expect(t.last()).toMatchObject({ phase: 'idle', problem: null });
    expect(t.last().lastSuccessfulSyncAt).not.toBeNull();
  });

  it('a clock far off the service is a problem in words; the sync still counts as done', async () => {
    const t = setup({ auto: () => ({ clockSkewSeconds: -900 }) });
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.last()).toMatchObject({
      phase: 'idle',
      problem: { kind: 'clock' },
      lastSuccessfulSyncAt: at(START),
      nextAttemptAt: at(START + 5 * MINUTE),
    });
    expect(t.last().problem!.message.de).toContain('15 Minuten nach');
    expect(t.last().problem!.message.en).toContain('15 minutes slow');
  });

  it('shows the progress of a sync and the counts of the replica', async () => {
    const t = setup();
    t.counts.lastSuccessfulSyncAt = '2025-03-02T18:00:00.000Z';
    t.scheduler.start();
    await t.clock.advance(0);
    t.calls[0]!.progress({ collection: 'outbox', done: 1, total: 3 });
    t.calls[0]!.progress({ collection: 'personal', done: 120 });
    expect(t.last()).toMatchObject({
      phase: 'syncing',
      progress: { collection: 'personal', done: 120 },
      lastSuccessfulSyncAt: '2025-03-02T18:00:00.000Z',
    });
    t.counts.parked = 1;
    t.counts.conflicts = 2;
    t.calls[0]!.answer({ ok: false });
    await t.clock.advance(0);
    expect(t.last()).toMatchObject({ phase: 'idle', progress: null, parked: 1, conflicts: 2 });
    // Not ok (a parked operation): the last successful sync stays the replica's.
    expect(t.last().lastSuccessfulSyncAt).toBe('2025-03-02T18:00:00.000Z');
  });

  it('stop() aborts the running sync, resolves once it returned, and leaves no timer', async () => {
    const t = setup();
    t.scheduler.start();
    await t.clock.advance(0);
    t.scheduler.localWrite();
    let stopped = false;
    const stopping = t.scheduler.stop().then(() => (stopped = true));
    expect(t.calls[0]!.signal.aborted).toBe(true);
    await stopping;
    expect(stopped).toBe(true);
    expect(t.clock.pending.size).toBe(0);
    const emitted = t.states.length;
    t.scheduler.syncNow();
    t.scheduler.localWrite();
    await t.clock.advance(60 * MINUTE);
    expect(t.calls).toHaveLength(1);
    expect(t.states).toHaveLength(emitted);
  });

  it('starts offline when the OS said so before start', async () => {
    const t = setup({ reachable: () => false });
    t.scheduler.networkChanged(false);
    t.scheduler.start();
    await t.clock.advance(0);
    expect(t.calls).toHaveLength(0);
    expect(t.last()).toMatchObject({ phase: 'offline' });
  });

  it('visible and idle: a heartbeat probe every few seconds says offline within seconds; never while syncing or hidden', async () => {
    let up = true;
    const t = setup({ heartbeatMs: 5 * SECOND, reachable: () => up });
    t.scheduler.start();
    // Hidden: no heartbeat at all.
    await t.clock.advance(0);
    expect(t.calls).toHaveLength(1);
    await t.clock.advance(30 * SECOND);
    expect(t.probes).toHaveLength(0);
    // Visible while the first sync runs: still none until it is done.
    t.scheduler.visibilityChanged(true);
    await t.clock.advance(30 * SECOND);
    expect(t.probes).toHaveLength(0);
    t.calls[0]!.answer();
    await t.clock.advance(0);
    const done = t.clock.now();
    await t.clock.advance(20 * SECOND);
    expect(t.probes.map((p) => p - done)).toEqual([5, 10, 15, 20].map((s) => s * SECOND));
    expect(t.last()).toMatchObject({ phase: 'idle', nextAttemptAt: at(done + 5 * MINUTE) });
    // The service gone: offline at the next heartbeat, then the offline probes' backoff.
    up = false;
    await t.clock.advance(5 * SECOND);
    expect(t.last()).toMatchObject({ phase: 'offline', problem: { kind: 'network' } });
    const gone = t.clock.now();
    await t.clock.advance(20 * SECOND);
    expect(t.probes.filter((p) => p > gone).map((p) => p - gone)).toEqual(
      [5, 15].map((s) => s * SECOND),
    );
    // Back: the next probe finds it and syncs; the heartbeat resumes after the sync only.
    up = true;
    await t.clock.advance(20 * SECOND);
    expect(t.calls).toHaveLength(2);
    const probesBefore = t.probes.length;
    await t.clock.advance(30 * SECOND);
    expect(t.probes).toHaveLength(probesBefore);
    t.calls[1]!.answer();
    await t.clock.advance(5 * SECOND);
    expect(t.probes).toHaveLength(probesBefore + 1);
    // Hidden again: the heartbeat stops (the scheduled sync stays).
    t.scheduler.visibilityChanged(false);
    await t.clock.advance(MINUTE);
    expect(t.probes).toHaveLength(probesBefore + 1);
    expect(t.last()).toMatchObject({ phase: 'idle' });
  });

  it('a heartbeat in flight when a sync starts is ignored, and a sync that failed for the network goes on beating', async () => {
    let answer: (ok: boolean) => void = () => {};
    const t = setup({ heartbeatMs: 5 * SECOND, auto: () => ({}) });
    const scheduler = new SyncScheduler({
      timers: t.clock,
      heartbeatMs: 5 * SECOND,
      runOnce: async () => ({ ok: true }),
      probe: () => new Promise<boolean>((resolve) => (answer = resolve)),
      readCounts: () => ({ ...t.counts }),
      onState: (state) => t.states.push(state),
    });
    scheduler.visibilityChanged(true);
    scheduler.start();
    await t.clock.advance(5 * SECOND);
    // The heartbeat is waiting for its answer; "sync now" starts a sync, the answer comes late.
    scheduler.syncNow();
    answer(false);
    await t.clock.advance(0);
    expect(t.states.at(-1)).toMatchObject({ phase: 'idle' });
    await scheduler.stop();
    expect(t.clock.pending.size).toBe(0);
  });
});
