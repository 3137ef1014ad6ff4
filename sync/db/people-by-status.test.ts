// The people per status that migration 10's triggers keep: equal to counting the people after
// every kind of write, and named by data.changed whenever a person is written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countByStatus } from '../queries/personnel';
import { openReplica } from './open';
import { tableChangesOf } from './table-changes';

const dir = mkdtempSync(join(tmpdir(), 'vorort-status-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('users_by_status', () => {
  it('keeps the people per status through inserts, status changes, upserts and deletions', async () => {
    const replica = openReplica(join(dir, 'replica.sqlite'));
    try {
      const { sqlite } = replica;
      const counted = () =>
        Object.fromEntries(
          (
            sqlite
              .prepare("SELECT coalesce(status, '') AS s, count(*) AS n FROM users GROUP BY 1")
              .all() as { s: string; n: number }[]
          ).map((r) => [r.s, r.n]),
        );
      const upsert = sqlite.prepare(
        `INSERT INTO users (id, vorname, nachname, sort_name, first_name_key, status, base, synced_at)
         VALUES (?, 'V', 'N', 'n v', 'v n', ?, '{}', 'x')
         ON CONFLICT (id) DO UPDATE SET status = excluded.status`,
      );
      tableChangesOf(sqlite)!.take();
      for (let i = 0; i < 30; i += 1)
        upsert.run(`u${i}`, ['aktiv', 'gesperrt', null, 'extern'][i % 4]);
      expect(tableChangesOf(sqlite)!.take()).toEqual(
        expect.arrayContaining(['users', 'users_by_status']),
      );
      expect(await countByStatus(replica.db)).toEqual(counted());

      upsert.run('u1', 'aktiv'); // a status changed by an upsert
      upsert.run('u4', 'aktiv'); // unchanged
      sqlite.prepare("UPDATE users SET status = 'eingeschraenkt' WHERE id IN ('u2', 'u3')").run();
      sqlite.prepare("DELETE FROM users WHERE id IN ('u5', 'u6')").run();
      expect(await countByStatus(replica.db)).toEqual(counted());
      expect(await countByStatus(replica.db)).toMatchObject({ aktiv: 9, '': 5, eingeschraenkt: 2 });

      sqlite.prepare('DELETE FROM users').run();
      expect(await countByStatus(replica.db)).toEqual({});
    } finally {
      await replica.close();
    }
  });
});
