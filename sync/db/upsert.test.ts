// The replica's one upsert: what a row from the service may change and what it leaves (the
// local columns, an unchanged record), what the local truth writes, and which changes of a change
// time are taken for a record older than the replica's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReplica, type Replica } from './open';
import { tableChangesOf } from './table-changes';
import { isOlderVersion, upsertRow, upsertRows } from './upsert';

const dir = mkdtempSync(join(tmpdir(), 'vorort-upsert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('isOlderVersion', () => {
  it('takes two whole seconds and more for a version older than the one seen', () => {
    expect(isOlderVersion('2026-03-01T10:00:05+01:00', '2026-03-01T10:00:03+01:00')).toBe(true);
    expect(isOlderVersion('2026-03-01T10:00:05+01:00', '2026-02-20T08:00:00+01:00')).toBe(true);
    // The same instant in another offset, or later: not older.
    expect(isOlderVersion('2026-03-01T10:00:05+01:00', '2026-03-01T09:00:05Z')).toBe(false);
    expect(isOlderVersion('2026-03-01T10:00:05+01:00', '2026-03-01T10:00:06+01:00')).toBe(false);
  });

  it('never reads a restore into a time written more coarsely, rounded, empty or zero', () => {
    // To the millisecond, then truncated or rounded to whole seconds.
    expect(isOlderVersion('2026-03-01T09:00:05.900Z', '2026-03-01T09:00:05Z')).toBe(false);
    expect(isOlderVersion('2026-03-01T09:00:06Z', '2026-03-01T09:00:05Z')).toBe(false);
    for (const none of [undefined, null, '', '0000-00-00', '0000-00-00 00:00:00', 'gestern', 0])
      for (const [seen, shown] of [
        [none, '2026-03-01T09:00:05Z'],
        ['2026-03-01T09:00:05Z', none],
      ])
        expect(isOlderVersion(seen, shown), `${String(seen)} → ${String(shown)}`).toBe(false);
  });

  it('reads the user-info’s seconds since 1970 as a time', () => {
    const seen = Date.parse('2026-03-01T09:00:05Z') / 1000;
    expect(isOlderVersion(seen, seen - 3600)).toBe(true);
    expect(isOlderVersion(seen, seen)).toBe(false);
  });
});

describe('upsertRows', () => {
  let replica: Replica;
  let file = 0;
  beforeEach(() => {
    file += 1;
    replica = openReplica(join(dir, `replica-${file}.sqlite`));
  });
  afterEach(() => replica.close());

  const hour = (stunden: number, base = `{"stunden":${stunden}}`) => ({
    id: '1',
    stunden,
    base,
    synced_at: '2026-03-01T09:00:00.000Z',
  });
  const stored = () =>
    replica.sqlite
      .prepare("SELECT stunden, base, pending, local_state FROM helferstunden WHERE id = '1'")
      .get();

  it('leaves the local columns of a row from the service alone, even if the row names them', () => {
    upsertRow(replica.sqlite, 'helferstunden', ['id'], {
      ...hour(2),
      pending: '{"attributes":{"stunden":3}}',
      local_state: 'changed',
    });
    upsertRows(
      replica.sqlite,
      'helferstunden',
      ['id'],
      [{ ...hour(4), pending: null, local_state: null }],
      'service',
    );
    expect(stored()).toEqual({
      stunden: 4,
      base: '{"stunden":4}',
      pending: '{"attributes":{"stunden":3}}',
      local_state: 'changed',
    });
  });

  it('does not rewrite a record from the service whose base is unchanged; the local truth writes it all the same', () => {
    const changes = tableChangesOf(replica.sqlite);
    upsertRows(replica.sqlite, 'helferstunden', ['id'], [hour(2)], 'service');
    expect(changes?.take()).toEqual(['helferstunden']);
    // The same base with other columns: what the replica holds stands.
    upsertRows(replica.sqlite, 'helferstunden', ['id'], [hour(5, '{"stunden":2}')], 'service');
    expect(changes?.take()).toEqual([]);
    expect(stored()).toMatchObject({ stunden: 2 });
    upsertRow(replica.sqlite, 'helferstunden', ['id'], hour(5, '{"stunden":2}'));
    expect(changes?.take()).toEqual(['helferstunden']);
    expect(stored()).toMatchObject({ stunden: 5 });
  });

  it('rewrites a course whose dates moved under an unchanged base, and never replaces it', () => {
    const course = (firstDate: string) => ({
      id: 'c',
      title: 'Erste Hilfe',
      first_date: firstDate,
      last_date: firstDate,
      base: '{}',
      synced_at: '2026-03-01T09:00:00.000Z',
    });
    upsertRows(replica.sqlite, 'courses', ['id'], [course('2026-03-02')], 'service');
    upsertRow(replica.sqlite, 'participations', ['id'], {
      id: 'p',
      course_id: 'c',
      base: '{}',
      synced_at: '',
    });
    upsertRows(replica.sqlite, 'courses', ['id'], [course('2026-03-09')], 'service');
    upsertRow(replica.sqlite, 'courses', ['id'], course('2026-03-09'));
    expect(
      replica.sqlite.prepare("SELECT first_date FROM courses WHERE id = 'c'").pluck().get(),
    ).toBe('2026-03-09');
    // An upsert, not a REPLACE: the course's participations (ON DELETE CASCADE) are still there.
    expect(replica.sqlite.prepare('SELECT id FROM participations').pluck().all()).toEqual(['p']);
  });
});
