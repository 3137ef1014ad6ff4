// `npm start`'s check of better-sqlite3's Electron build (bin/electron-native.mjs): missing, made
// for another Electron or better-sqlite3 (stale), or fit to start the app.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronNativeState } from '../bin/electron-native.mjs';

const root = mkdtempSync(join(tmpdir(), 'vorort-start-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const target = { electron: '44.11.5', betterSqlite3: '12.11.1' };

describe('npm start’s check of the Electron build of better-sqlite3', () => {
  it('tells missing, stale and fit apart', () => {
    expect(electronNativeState(root, target)).toBe('missing');
    const dir = join(root, 'node_modules', '.cache', 'vorort-electron');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'better_sqlite3.node'), '');
    expect(electronNativeState(root, target)).toBe('stale');
    writeFileSync(join(dir, 'built-for.json'), JSON.stringify({ ...target, electron: '43.0.0' }));
    expect(electronNativeState(root, target)).toBe('stale');
    writeFileSync(
      join(dir, 'built-for.json'),
      JSON.stringify({ ...target, platform: process.platform, arch: process.arch }),
    );
    expect(electronNativeState(root, target)).toBe('ok');
  });
});
