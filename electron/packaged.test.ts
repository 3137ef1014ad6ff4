// The installed app's paths (electron/packaged.ts) against the layout build/electron-builder.yml
// gives it: the workers and better-sqlite3 in app.asar.unpacked, the native build in resources/.
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { outsideAsar, packagedBindingPath } from './packaged';

const resources = join(sep, 'opt', 'Vorort', 'resources');

describe('the installed app’s paths', () => {
  it('starts a worker from app.asar.unpacked, where the installers put it', () => {
    const inside = pathToFileURL(
      join(resources, 'app.asar', 'dist', 'electron', 'sync-worker.mjs'),
    );
    expect(outsideAsar(inside).href).toBe(
      pathToFileURL(join(resources, 'app.asar.unpacked', 'dist', 'electron', 'sync-worker.mjs'))
        .href,
    );
  });

  it('leaves the sources’ paths and other URLs alone', () => {
    const source = pathToFileURL(
      join(sep, 'work', 'vorort', 'dist', 'electron', 'demo-worker.mjs'),
    );
    expect(outsideAsar(source).href).toBe(source.href);
    // A folder merely named like the archive is not it.
    const lookalike = pathToFileURL(join(sep, 'home', 'app.asar-notes', 'sync-worker.mjs'));
    expect(outsideAsar(lookalike).href).toBe(lookalike.href);
    expect(outsideAsar(new URL('app://vorort/index.html')).href).toBe('app://vorort/index.html');
  });

  it('loads better-sqlite3’s Electron build from resources/native', () => {
    expect(packagedBindingPath(resources)).toBe(join(resources, 'native', 'better_sqlite3.node'));
  });
});
