// The remembered window: read back as written, refused when it is not a state, and checked
// against the displays there are now (a gone monitor, a smaller screen, a window off the edge).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW,
  MIN_HEIGHT,
  MIN_WIDTH,
  readWindowState,
  sanitizeWindowState,
  writeWindowState,
} from './window-state';

const dir = mkdtempSync(join(tmpdir(), 'vorort-window-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const monitor = { x: 1440, y: -200, width: 2560, height: 1400 };

describe('the window state', () => {
  it('is written 0600 and read back; anything else is no state', () => {
    const file = join(dir, 'window-state.json');
    expect(readWindowState(file)).toBeNull();
    writeWindowState(file, { x: 10, y: 20, width: 1000, height: 700, maximized: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readWindowState(file)).toEqual({
      x: 10,
      y: 20,
      width: 1000,
      height: 700,
      maximized: true,
    });
    for (const text of [
      '',
      'null',
      '[]',
      '{"width":"big","height":1}',
      '{"width":1e300,"height":5}',
      '{',
    ]) {
      writeFileSync(file, text);
      expect(readWindowState(file), text).toBeNull();
    }
    writeFileSync(file, '{"width":900,"height":600,"x":"left"}');
    expect(readWindowState(file)).toEqual({ width: 900, height: 600, maximized: false });
  });

  it('keeps a window that is on a display', () => {
    const saved = { x: 1600, y: 0, width: 1200, height: 800, maximized: false };
    expect(sanitizeWindowState(saved, [laptop, monitor])).toEqual(saved);
    expect(sanitizeWindowState(null, [laptop])).toEqual(DEFAULT_WINDOW);
  });

  it('centres a window whose monitor is gone, within the screen there is', () => {
    const saved = { x: 1600, y: 0, width: 2400, height: 1300, maximized: true };
    expect(sanitizeWindowState(saved, [laptop])).toEqual({
      width: 1440,
      height: 875,
      maximized: true,
    });
  });

  it('pulls an overhanging window inside its display, and never below the minimum size', () => {
    expect(
      sanitizeWindowState({ x: 1000, y: 500, width: 1000, height: 700, maximized: false }, [
        laptop,
      ]),
    ).toEqual({ x: 440, y: 175, width: 1000, height: 700, maximized: false });
    expect(sanitizeWindowState({ width: 10, height: 10, maximized: false }, [laptop])).toEqual({
      width: MIN_WIDTH,
      height: MIN_HEIGHT,
      maximized: false,
    });
    // A title bar above the display's top (unreachable) is not on it.
    expect(
      sanitizeWindowState({ x: 100, y: -500, width: 1000, height: 700, maximized: false }, [
        laptop,
      ]),
    ).toEqual({ width: 1000, height: 700, maximized: false });
  });
});
