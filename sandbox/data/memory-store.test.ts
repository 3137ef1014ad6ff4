import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareIds } from './ids';
import { isStoreEmpty, openStore } from './memory-store';
import type { ResourceRef, SandboxSettings, Store, StoredResource } from './store';

let folder: string;
const stores: Store[] = [];

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'vorort-store-'));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(folder, { recursive: true, force: true });
});

function open(options: Parameters<typeof openStore>[0] = {}): Store {
  const store = openStore(options);
  stores.push(store);
  return store;
}

/** A clock that stands still unless moved: makes `now()`'s tie-breaking visible. */
function manualClock(start = '2026-03-15T08:00:00.000Z'): {
  clock: () => Date;
  set(iso: string): void;
} {
  let current = new Date(start);
  return { clock: () => current, set: (iso) => (current = new Date(iso)) };
}

const hour = (id: string, userId: string, anlassId = '1') => ({
  type: 'helferstunden' as const,
  id,
  attributes: { stunden: Number(id) },
  relationships: {
    user: { type: 'user' as const, id: userId },
    anlass: { type: 'helferstunden_anlass' as const, id: anlassId },
  },
});

const settings: SandboxSettings = {
  uvtFavorites: true,
  anchorDate: '2026-03-15',
  seed: 3,
  scale: 'small',
};

function snapshot(store: Store): unknown {
  const types = ['helferstunden', 'user', 'course', 'participation', 'benachrichtigung'] as const;
  return { data: types.map((type) => store.all(type)), settings: store.settings() };
}

describe('now()', () => {
  it('is strictly increasing even when the clock stands still or goes back', () => {
    const time = manualClock();
    const store = open({ clock: time.clock });
    const first = store.now();
    const second = store.now();
    time.set('2026-03-15T07:00:00.000Z');
    const third = store.now();
    expect(first).toBe('2026-03-15T08:00:00.000Z');
    expect(second).toBe('2026-03-15T08:00:00.001Z');
    expect(third).toBe('2026-03-15T08:00:00.002Z');
  });

  it('stamps put records and never goes behind a time given to putWithTime', () => {
    const time = manualClock();
    const store = open({ clock: time.clock });
    expect(store.put(hour('1', 'u')).updatedAt).toBe('2026-03-15T08:00:00.000Z');
    store.putWithTime(hour('2', 'u'), '2026-04-01T12:00:00+02:00');
    expect(store.get('helferstunden', '2')!.updatedAt).toBe('2026-04-01T10:00:00.000Z');
    expect(store.put(hour('3', 'u')).updatedAt).toBe('2026-04-01T10:00:00.001Z');
  });
});

describe('records', () => {
  it('lists in id order: numbers numerically, "<n>-<user>" ids by n, others after', () => {
    const store = open();
    for (const id of ['10', '9', '100', '1']) store.put({ ...hour(id, 'u') });
    expect(store.all('helferstunden').map((r) => r.id)).toEqual(['1', '9', '10', '100']);
    for (const id of ['10-b', '2-b', '2-a', 'local-x']) {
      store.put({ type: 'benachrichtigung', id, attributes: {}, relationships: {} });
    }
    expect(store.all('benachrichtigung').map((r) => r.id)).toEqual([
      '2-a',
      '2-b',
      '10-b',
      'local-x',
    ]);
  });

  it('freezes stored records so they cannot change behind the store', () => {
    const store = open();
    const stored = store.put({
      type: 'user',
      id: 'a',
      attributes: { gruppen_namen: ['Bereitschaft'] },
      relationships: {},
    });
    expect(() => (stored.attributes.vorname = 'X')).toThrow(TypeError);
    expect(() => (stored.attributes.gruppen_namen as string[]).push('JRK')).toThrow(TypeError);
    expect(() => (store.all('user') as StoredResource[]).pop()).toThrow(TypeError);
  });

  it('rejects unknown types and malformed relationships', () => {
    const store = open();
    expect(() =>
      store.put({ type: 'nope' as 'user', id: '1', attributes: {}, relationships: {} }),
    ).toThrow(/unknown/);
    const wrapped = { data: { type: 'user', id: 'a' } } as unknown as ResourceRef;
    expect(() =>
      store.put({ type: 'kalender', id: '1', attributes: {}, relationships: { user: wrapped } }),
    ).toThrow(/relationship user/);
  });

  it('hands out snapshots: a list returned earlier does not change with later writes', () => {
    const store = open();
    for (let id = 1; id <= 20; id++) store.put(hour(String(id), 'u'));
    const before = store.all('helferstunden');
    store.remove('helferstunden', '5');
    store.put(hour('21', 'u'));
    expect(before).toHaveLength(20);
    expect(store.all('helferstunden')).toHaveLength(20);
    expect(store.all('helferstunden').some((r) => r.id === '5')).toBe(false);
  });

  it('keeps all() and related() equal to a plain scan through random writes', () => {
    const store = open();
    let seed = 42;
    const roll = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const expectIndexesCorrect = (): void => {
      const every = [...store.all('helferstunden')];
      expect(every.map((r) => r.id)).toEqual([...every.map((r) => r.id)].sort(compareIds));
      for (const userId of ['u0', 'u1', 'u2', 'u3']) {
        const scanned = every.filter((r) => (r.relationships.user as ResourceRef).id === userId);
        expect(store.related('helferstunden', 'user', userId)).toEqual(scanned);
      }
    };
    for (let step = 0; step < 600; step++) {
      const id = String(roll(120));
      if (roll(4) === 0) store.remove('helferstunden', id);
      else store.put(hour(id, `u${roll(4)}`));
      if (step % 37 === 0) expectIndexesCorrect();
    }
    expectIndexesCorrect();
  });

  it('indexes to-many relationships and follows replaced targets', () => {
    const store = open();
    const course = (id: string, trainers: string[]) => ({
      type: 'course' as const,
      id,
      attributes: {},
      relationships: {
        trainers: trainers.map((t) => ({ type: 'user' as const, id: t })),
        client: null,
      },
    });
    store.put(course('1', ['a', 'b']));
    store.put(course('2', ['b']));
    expect(store.related('course', 'trainers', 'b').map((r) => r.id)).toEqual(['1', '2']);
    store.put(course('1', ['a']));
    expect(store.related('course', 'trainers', 'b').map((r) => r.id)).toEqual(['2']);
    expect(store.related('course', 'trainers', 'a').map((r) => r.id)).toEqual(['1']);
    store.remove('course', '2');
    expect(store.related('course', 'trainers', 'b')).toEqual([]);
    expect(store.related('course', 'client', 'x')).toEqual([]);
  });

  it('hands out numeric ids after the highest one ever stored', () => {
    const store = open();
    expect(store.nextId('helferstunden')).toBe('1');
    store.put(hour('41', 'u'));
    store.put({ type: 'benachrichtigung', id: '7-abc', attributes: {}, relationships: {} });
    expect(store.nextId('helferstunden')).toBe('42');
    expect(store.nextId('benachrichtigung')).toBe('8');
    store.remove('helferstunden', '41');
    expect(store.nextId('helferstunden')).toBe('42');
  });

  it('tells an empty store', () => {
    const store = open();
    expect(isStoreEmpty(store)).toBe(true);
    store.put(hour('1', 'u'));
    expect(isStoreEmpty(store)).toBe(false);
  });
});

describe('transaction()', () => {
  function seeded(file?: string): Store {
    const store = open({ file, clock: manualClock().clock });
    store.setSettings(settings);
    for (let id = 1; id <= 5; id++) store.put(hour(String(id), `u${id % 2}`));
    store.related('helferstunden', 'user', 'u1'); // builds the index, which must roll back too
    return store;
  }

  it('rolls back puts, replacements, removals, settings and indexes when fn throws', () => {
    const store = seeded();
    const before = snapshot(store);
    const relatedBefore = store.related('helferstunden', 'user', 'u1');
    expect(() =>
      store.transaction(() => {
        store.put(hour('6', 'u1'));
        store.put(hour('2', 'u1'));
        store.remove('helferstunden', '3');
        store.setSettings({ ...settings, uvtFavorites: false });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(snapshot(store)).toEqual(before);
    expect(store.related('helferstunden', 'user', 'u1')).toEqual(relatedBefore);
  });

  it('undoes only a nested transaction that failed', () => {
    const store = seeded();
    store.transaction(() => {
      store.put(hour('6', 'u0'));
      expect(() =>
        store.transaction(() => {
          store.put(hour('7', 'u0'));
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(store.all('helferstunden').map((r) => r.id)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('refuses async functions', () => {
    const store = seeded();
    expect(() => store.transaction(async () => store.put(hour('9', 'u0')))).toThrow(/synchronous/);
    expect(store.get('helferstunden', '9')).toBeUndefined();
  });
});

describe('the SQLite file', () => {
  it('reloads exactly what was written, including settings and change times', () => {
    const file = join(folder, 'sandbox.sqlite');
    const store = open({ file });
    store.setSettings(settings);
    store.put({
      type: 'user',
      id: '9aabc46f91700bf0d97f625b7c5eeacf',
      attributes: {
        vorname: 'Marie',
        gruppen_namen: ['Bereitschaft'],
        fahrerlaubnis: { klassen: ['B'] },
      },
      relationships: { organisation: { type: 'organisation', id: '1' } },
    });
    for (let id = 1; id <= 50; id++) store.put(hour(String(id), 'u'));
    store.remove('helferstunden', '50');
    store.close();

    const reopened = open({ file });
    expect(snapshot(reopened)).toEqual(snapshot(store));
    expect(reopened.nextId('helferstunden')).toBe('51');
    expect(Date.parse(reopened.now())).toBeGreaterThan(
      Date.parse(store.all('helferstunden').at(-1)!.updatedAt),
    );
  });

  it('keeps memory and file unchanged when a transaction throws', () => {
    const file = join(folder, 'sandbox.sqlite');
    const store = open({ file });
    store.setSettings(settings);
    for (let id = 1; id <= 10; id++) store.put(hour(String(id), 'u'));
    const before = snapshot(store);
    expect(() =>
      store.transaction(() => {
        store.put(hour('11', 'u'));
        store.remove('helferstunden', '1');
        store.setSettings({ ...settings, seed: 99 });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(snapshot(store)).toEqual(before);
    store.close();
    expect(snapshot(open({ file }))).toEqual(before);
  });

  it('uses WAL and the documented tables', () => {
    const file = join(folder, 'sandbox.sqlite');
    open({ file }).put(hour('1', 'u'));
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const row = db.prepare('SELECT type, id, json FROM resources').get() as {
        type: string;
        id: string;
        json: string;
      };
      expect(row).toMatchObject({ type: 'helferstunden', id: '1' });
      expect(JSON.parse(row.json)).toMatchObject({ attributes: { stunden: 1 } });
      expect(
        db.prepare("SELECT name FROM sqlite_master WHERE name = 'settings'").get(),
      ).toBeDefined();
    } finally {
      db.close();
    }
  });

  it('refuses writes after close', () => {
    const store = open({ file: join(folder, 'sandbox.sqlite') });
    store.close();
    expect(() => store.put(hour('1', 'u'))).toThrow(/closed/);
  });
});

describe('snapshot() and restore()', () => {
  it('makes the store the snapshot again: records, change times, ids and settings', () => {
    const { clock, set } = manualClock();
    const file = join(folder, 'restore.sqlite');
    const store = open({ file, clock });
    store.put(hour('1', 'u1'));
    store.put(hour('2', 'u1'));
    store.setSettings({ uvtFavorites: false, anchorDate: '2026-03-15', seed: 1, scale: 'small' });
    const snapshot = store.snapshot();
    const kept = store.get('helferstunden', '1')!;

    set('2026-03-16T08:00:00.000Z');
    store.put({ ...hour('2', 'u2') });
    store.remove('helferstunden', '1');
    store.put(hour(store.nextId('helferstunden'), 'u1'));
    store.setSettings({ ...store.settings(), uvtFavorites: true });
    const lastChange = store.now();

    const changes = store.restore(snapshot);
    const described = changes.map(
      ({ before, after }) => `${before?.id ?? '-'}>${after?.id ?? '-'}`,
    );
    expect(described.sort()).toEqual(['->1', '2>2', '3>-']);
    expect(store.get('helferstunden', '1')).toBe(kept);
    expect(store.get('helferstunden', '2')!.relationships.user).toEqual({ type: 'user', id: 'u1' });
    expect(store.get('helferstunden', '3')).toBeUndefined();
    // A restored database's auto-increment: id 3 is handed out again.
    expect(store.nextId('helferstunden')).toBe('3');
    expect(store.settings().uvtFavorites).toBe(false);
    // The clock does not go back.
    expect(store.now() > lastChange).toBe(true);
    expect(store.restore(snapshot)).toEqual([]);

    store.close();
    const reopened = open({ file });
    expect(reopened.all('helferstunden').map((r) => [r.id, r.updatedAt])).toEqual(
      snapshot.records.get('helferstunden')!.map((r) => [r.id, r.updatedAt]),
    );
    expect(reopened.nextId('helferstunden')).toBe('3');
    expect(reopened.settings().uvtFavorites).toBe(false);
  });

  it('rolls back a restore that fails half-way, high-waters included', () => {
    const store = open();
    store.put(hour('1', 'u1'));
    const snapshot = store.snapshot();
    store.put(hour('2', 'u1'));
    expect(() =>
      store.transaction(() => {
        store.restore(snapshot);
        throw new Error('abandoned');
      }),
    ).toThrow('abandoned');
    expect(store.all('helferstunden').map((r) => r.id)).toEqual(['1', '2']);
    expect(store.nextId('helferstunden')).toBe('3');
  });
});
