// Whether better-sqlite3's build for the installed Electron is there and made for it (the stamp
// electron/build-native.mjs writes beside it): `npm start` builds it when not, since without it
// the app stops at its first start ("Vorort konnte nicht starten").
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {'ok' | 'missing' | 'stale'} */
export function electronNativeState(root, target) {
  const dir = join(root, 'node_modules', '.cache', 'vorort-electron');
  if (!existsSync(join(dir, 'better_sqlite3.node'))) return 'missing';
  try {
    const stamp = JSON.parse(readFileSync(join(dir, 'built-for.json'), 'utf8'));
    // Only what decides the ABI: another Electron or better-sqlite3 needs another build.
    return stamp.electron === target.electron && stamp.betterSqlite3 === target.betterSqlite3
      ? 'ok'
      : 'stale';
  } catch {
    return 'stale';
  }
}
