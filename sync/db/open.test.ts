import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations';
import { createRequire } from 'node:module';
import { nativeBindingFor, openReplica, ReplicaError, SQLITE_BINDING_ENV } from './open';

const dir = mkdtempSync(join(tmpdir(), 'vorort-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openReplica', () => {
  it('creates a WAL database readable by its owner only, with every migration applied once', async () => {
    const file = join(dir, 'new.sqlite');
    const replica = openReplica(file);
    expect(replica.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(replica.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(replica.sqlite.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await replica.db.insertInto('replica_meta').values({ key: 'k', value: 'v' }).execute();
    await replica.close();

    const again = openReplica(file);
    expect(await again.db.selectFrom('replica_meta').selectAll().execute()).toEqual([
      { key: 'k', value: 'v' },
    ]);
    await again.close();
  });

  it("maps the file for the screens' connection, not for a sync's (its read pages would count as its memory)", async () => {
    const file = join(dir, 'uses.sqlite');
    const screens = openReplica(file);
    const sync = openReplica(file, { use: 'sync' });
    expect(screens.sqlite.pragma('mmap_size', { simple: true })).toBe(268435456);
    expect(screens.sqlite.pragma('cache_size', { simple: true })).toBe(-32768);
    expect(sync.sqlite.pragma('mmap_size', { simple: true })).toBe(0);
    expect(sync.sqlite.pragma('cache_size', { simple: true })).toBe(-16384);
    await sync.close();
    await screens.close();
  });

  it('cascades a person’s deletion to their trainings and qualifications', async () => {
    const replica = openReplica(join(dir, 'cascade.sqlite'));
    const record = { base: '{}', synced_at: 'now' };
    replica.sqlite
      .prepare(
        "INSERT INTO users (id, vorname, nachname, sort_name, first_name_key, base, synced_at) VALUES ('u1', 'A', 'B', 'b a', 'a b', '{}', 'now')",
      )
      .run();
    await replica.db
      .insertInto('ausbildungen')
      .values({
        id: '1',
        user_id: 'u1',
        bezeichnung: 'EH',
        datum: null,
        gueltig_bis: null,
        updated_at: null,
        ...record,
      })
      .execute();
    await replica.db
      .insertInto('qualifikationen')
      .values({
        user_id: 'u1',
        idx: 0,
        position: '1',
        liste: null,
        name: 'San',
        name_kurz: 'San',
        rang: 1,
        erwerb_datum: null,
      })
      .execute();
    await replica.db.deleteFrom('users').where('id', '=', 'u1').execute();
    expect(
      replica.sqlite
        .prepare(
          'SELECT (SELECT count(*) FROM ausbildungen) + (SELECT count(*) FROM qualifikationen)',
        )
        .pluck()
        .get(),
    ).toBe(0);
    await replica.close();
  });

  it('refuses a replica written by a newer Vorort instead of damaging it', () => {
    const file = join(dir, 'future.sqlite');
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    raw.close();
    expect(() => openReplica(file)).toThrow(ReplicaError);
    expect(() => openReplica(file)).toThrow(/newer Vorort/);
  });

  it('names the file when it cannot be opened', () => {
    expect(() => openReplica(join(dir, 'missing-folder', 'x.sqlite'))).toThrow(
      /Cannot create the replica .*x\.sqlite: the folder .*missing-folder does not exist/,
    );
  });
});

describe('the nativeBinding option (one install, two ABIs: the Electron app passes its own build)', () => {
  const require = createRequire(import.meta.url);
  const ownBuild = join(
    require.resolve('better-sqlite3/package.json'),
    '..',
    'build',
    'Release',
    'better_sqlite3.node',
  );

  it('loads the compiled module it is given', async () => {
    const replica = openReplica(join(dir, 'binding.sqlite'), { nativeBinding: ownBuild });
    expect(replica.sqlite.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    await replica.close();
  });

  it('refuses a missing module with a ReplicaError naming it', () => {
    const missing = join(dir, 'no-such', 'better_sqlite3.node');
    expect(() => openReplica(join(dir, 'binding2.sqlite'), { nativeBinding: missing })).toThrow(
      ReplicaError,
    );
    expect(() => openReplica(join(dir, 'binding2.sqlite'), { nativeBinding: missing })).toThrow(
      /no-such/,
    );
  });

  it('takes the environment’s path when none is given (how worker threads learn it)', () => {
    expect(nativeBindingFor(undefined, { [SQLITE_BINDING_ENV]: '/x/a.node' })).toBe('/x/a.node');
    expect(nativeBindingFor('/y/b.node', { [SQLITE_BINDING_ENV]: '/x/a.node' })).toBe('/y/b.node');
    expect(nativeBindingFor(undefined, { [SQLITE_BINDING_ENV]: '' })).toBeUndefined();
    expect(nativeBindingFor(undefined, {})).toBeUndefined();
  });
});
