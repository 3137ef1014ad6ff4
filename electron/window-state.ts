// The main window's size and position, remembered in a small JSON file in the user data folder
// and checked against the displays there are now: a window saved on a monitor that is gone, or
// larger than the screen, comes back whole on a display that exists. Plain functions: tested
// in Node.
import { readOptionalFile, writePrivateFile } from '../sync/host/files';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** Absent: centred by the OS. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW: WindowState = { width: 1200, height: 800, maximized: false };
export const MIN_WIDTH = 720;
export const MIN_HEIGHT = 480;
/** How much of the title bar must lie on a display for the window to count as visible. */
const GRIP = 64;

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e6;

/** The file's state, or null when there is none or it is not one. */
export function readWindowState(file: string): WindowState | null {
  let parsed: unknown;
  try {
    const text = readOptionalFile(file);
    if (text === null) return null;
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const record = parsed as Record<string, unknown>;
  if (!isNumber(record.width) || !isNumber(record.height)) return null;
  const state: WindowState = {
    width: Math.round(record.width),
    height: Math.round(record.height),
    maximized: record.maximized === true,
  };
  if (isNumber(record.x) && isNumber(record.y)) {
    state.x = Math.round(record.x);
    state.y = Math.round(record.y);
  }
  return state;
}

export function writeWindowState(file: string, state: WindowState): void {
  writePrivateFile(file, `${JSON.stringify(state)}\n`);
}

/**
 * The state to open with on these displays' work areas: the size within the largest display
 * and at least the minimum; the position kept only when the title bar lies on a display (else
 * centred by the OS on the primary one).
 */
export function sanitizeWindowState(
  saved: WindowState | null,
  workAreas: Rectangle[],
): WindowState {
  const state = saved ?? DEFAULT_WINDOW;
  const widest = Math.max(MIN_WIDTH, ...workAreas.map((area) => area.width));
  const tallest = Math.max(MIN_HEIGHT, ...workAreas.map((area) => area.height));
  const width = clamp(state.width, MIN_WIDTH, widest);
  const height = clamp(state.height, MIN_HEIGHT, tallest);
  const result: WindowState = { width, height, maximized: state.maximized };
  if (state.x === undefined || state.y === undefined) return result;
  const { x, y } = state;
  const area = workAreas.find((candidate) => titleBarOn({ x, y, width, height }, candidate));
  if (!area) return result;
  // On a display: pulled fully inside it where it overhangs.
  result.x = clamp(x, area.x, area.x + Math.max(0, area.width - width));
  result.y = clamp(y, area.y, area.y + Math.max(0, area.height - height));
  return result;
}

function titleBarOn(window: Rectangle, area: Rectangle): boolean {
  const left = Math.max(window.x, area.x);
  const right = Math.min(window.x + window.width, area.x + area.width);
  const top = window.y;
  return right - left >= GRIP && top >= area.y && top < area.y + area.height - GRIP / 2;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}
