// Quitting with stand-ins for Electron's windows and app: the windows are hidden before the
// session closes (not left on the screen unanswering), the app exits only after the replica is
// closed, once, also when the OS ends the session (Windows' session-end) or closing fails.
import { describe, expect, it } from 'vitest';
import { createQuit, type QuitHost } from './quit';

function setUp(options: { closeFails?: boolean } = {}) {
  const steps: string[] = [];
  let finishClose: () => void = () => undefined;
  const windows = [
    { destroyed: false, hidden: false },
    { destroyed: true, hidden: false },
  ].map((state, index) => ({
    state,
    isDestroyed: () => state.destroyed,
    hide: () => {
      state.hidden = true;
      steps.push(`hide ${index}`);
    },
  }));
  const host: QuitHost = {
    windows: () => windows,
    saveWindowState: () => steps.push('save'),
    stopUpdates: () => steps.push('updates'),
    close: () => {
      steps.push('close');
      return new Promise<void>((done, fail) => {
        finishClose = () => (options.closeFails ? fail(new Error('disk gone')) : done());
      });
    },
    exit: (code) => steps.push(`exit ${code}`),
    log: (text) => steps.push(text),
  };
  return { quit: createQuit(host), steps, windows, finish: () => finishClose() };
}

const quitEvent = () => {
  const event = { prevented: false, preventDefault: () => (event.prevented = true) };
  return event;
};

describe('quitting', () => {
  it('hides the windows, then closes the session, then exits; a second quit waits', async () => {
    const { quit, steps, windows, finish } = setUp();
    const first = quitEvent();
    quit.beforeQuit(first);
    expect(first.prevented).toBe(true);
    expect(steps).toEqual(['updates', 'save', 'hide 0', 'close']);
    expect(windows[1]?.state.hidden).toBe(false);
    const second = quitEvent();
    quit.beforeQuit(second);
    expect(second.prevented).toBe(true);
    expect(steps.filter((step) => step === 'close')).toHaveLength(1);
    finish();
    await new Promise((done) => setTimeout(done, 0));
    expect(steps.at(-1)).toBe('exit 0');
    const last = quitEvent();
    quit.beforeQuit(last);
    expect(last.prevented).toBe(false);
  });

  it('closes the replica at once when the OS ends the session, and only once', async () => {
    const { quit, steps, finish } = setUp();
    const ended = quit.sessionEnd();
    expect(steps).toEqual(['updates', 'save', 'hide 0', 'close']);
    quit.beforeQuit(quitEvent());
    finish();
    await ended;
    expect(steps.filter((step) => step === 'close')).toHaveLength(1);
    expect(steps.at(-1)).toBe('exit 0');
  });

  it('exits also when closing fails, saying why', async () => {
    const { quit, steps, finish } = setUp({ closeFails: true });
    const ended = quit.sessionEnd();
    finish();
    await ended;
    expect(steps.slice(-2)).toEqual(['Vorort: closing: disk gone', 'exit 0']);
  });

  it('lets a failed start exit without holding the quit', () => {
    const { quit, steps } = setUp();
    quit.markClosed();
    const event = quitEvent();
    quit.beforeQuit(event);
    expect(event.prevented).toBe(false);
    expect(steps).toEqual([]);
  });
});
