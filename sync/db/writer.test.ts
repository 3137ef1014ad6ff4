// The writer's watch for versions older than the replica's (a service restored from a backup):
// which rows are compared.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { helferstunden, type ServiceResource } from '../resources';
import { openReplica, type Replica } from './open';
import type { OlderVersion } from './upsert';
import { ReplicaWriter } from './writer';

const dir = mkdtempSync(join(tmpdir(), 'vorort-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the writer’s watch for older versions', () => {
  let replica: Replica;
  let file = 0;
  beforeEach(() => {
    file += 1;
    replica = openReplica(join(dir, `replica-${file}.sqlite`));
  });
  afterEach(() => replica.close());

  const entry = (id: string, updatedAt: unknown, stunden = 2): ServiceResource => ({
    type: 'helferstunden',
    id,
    attributes: { von: '2026-03-01T08:00:00+01:00', stunden, updated_at: updatedAt },
  });

  /** A writer as one sync has it (its rows carry the sync's synced_at), and what it noticed. */
  function sync(syncedAt: string) {
    const writer = new ReplicaWriter(replica.sqlite);
    const noticed: OlderVersion[] = [];
    writer.onOlderVersion((older) => noticed.push(older));
    const write = (...entries: ServiceResource[]) =>
      writer.transaction(() =>
        writer.upsert(
          'helferstunden',
          entries.map((e) => helferstunden.row(e, syncedAt)),
        ),
      );
    return { write, noticed };
  }

  it('notices a record that a later sync shows older, with both times', () => {
    sync('2026-03-01T09:00:00.000Z').write(entry('1', '2026-03-01T09:59:00+01:00', 3));
    const later = sync('2026-03-01T09:05:00.000Z');
    later.write(entry('1', '2026-02-01T08:00:00+01:00', 2));
    expect(later.noticed).toEqual([
      {
        table: 'helferstunden',
        id: '1',
        seenUpdatedAt: '2026-03-01T09:59:00+01:00',
        shownUpdatedAt: '2026-02-01T08:00:00+01:00',
        seenSyncedAt: '2026-03-01T09:00:00.000Z',
      },
    ]);
    // The service's version is written all the same.
    const stored = replica.sqlite
      .prepare("SELECT stunden FROM helferstunden WHERE id = '1'")
      .pluck()
      .get();
    expect(stored).toBe(2);
  });

  it('does not compare within one sync (two copies of a record in one answer or two answers)', () => {
    const one = sync('2026-03-01T09:00:00.000Z');
    one.write(entry('1', '2026-03-01T09:59:00+01:00', 3), entry('1', '2026-02-01T08:00:00+01:00'));
    one.write(entry('1', '2026-01-01T08:00:00+01:00', 1));
    expect(one.noticed).toEqual([]);
  });

  it('does not compare an unchanged record, nor one with local changes', () => {
    sync('2026-03-01T09:00:00.000Z').write(
      entry('1', '2026-03-01T09:59:00+01:00'),
      entry('2', '2026-03-01T09:59:00+01:00'),
    );
    replica.sqlite.prepare("UPDATE helferstunden SET local_state = 'changed' WHERE id = '2'").run();
    const later = sync('2026-03-01T09:05:00.000Z');
    later.write(
      entry('1', '2026-03-01T09:59:00+01:00'),
      entry('2', '2026-02-01T08:00:00+01:00', 5),
    );
    expect(later.noticed).toEqual([]);
  });
});
