// useSqliteBuild in a child process (it changes the process's module cache): with a copy of
// better-sqlite3's build at another path, both a database opened without the option (as the
// demo's sandbox opens its own) and the replica load that copy, and a worker thread learns it
// from the environment; a missing build is refused saying how to make it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronBindingPath, useSqliteBuild } from './native-sqlite';

const ROOT = resolve(import.meta.dirname, '..');
const require = createRequire(join(ROOT, 'package.json'));
const dir = mkdtempSync(join(tmpdir(), 'vorort-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('useSqliteBuild', () => {
  it('names the Electron build’s place and refuses a missing one in words', () => {
    expect(electronBindingPath('/app')).toBe(
      join('/app', 'node_modules', '.cache', 'vorort-electron', 'better_sqlite3.node'),
    );
    expect(() => useSqliteBuild(ROOT, join(dir, 'none.node'))).toThrow(
      `Run in ${ROOT}: npm run build:native-electron, then npm start.`,
    );
    // Installed, there is nothing to build: the installation is incomplete.
    expect(() => useSqliteBuild(ROOT, join(dir, 'none.node'), { packaged: true })).toThrow(
      /install Vorort again/,
    );
  });

  it('makes every database of the process load the given build', () => {
    const copy = join(dir, 'copy', 'better_sqlite3.node');
    mkdirSync(join(dir, 'copy'));
    copyFileSync(
      join(
        require.resolve('better-sqlite3/package.json'),
        '..',
        'build',
        'Release',
        'better_sqlite3.node',
      ),
      copy,
    );
    const script = `
      import { useSqliteBuild } from './electron/native-sqlite.ts';
      import { openReplica } from './sync/db/open.ts';
      import Database from 'better-sqlite3';
      import { createRequire } from 'node:module';
      import { Worker } from 'node:worker_threads';
      useSqliteBuild(process.cwd(), ${JSON.stringify(copy)});
      const plain = new Database(':memory:');
      plain.close();
      const replica = openReplica(${JSON.stringify(join(dir, 'r.sqlite'))});
      await replica.close();
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.endsWith('.node'));
      const fromWorker = await new Promise((done) => {
        const worker = new Worker(
          "import { parentPort } from 'node:worker_threads'; parentPort.postMessage(process.env.VORORT_SQLITE_BINDING ?? '')",
          { eval: true });
        worker.once('message', done);
      });
      console.log(JSON.stringify({ loaded, fromWorker }));
    `;
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    const report = JSON.parse(output.trim().split('\n').at(-1)!) as {
      loaded: string[];
      fromWorker: string;
    };
    expect(report.loaded).toEqual([copy]);
    expect(report.fromWorker).toBe(copy);
  });
});
