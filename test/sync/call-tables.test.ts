// The tables the screens' reads declare (CALL_READS) and the tables data.changed names are what
// SQLite itself opens: every read of the contract runs against a synced replica while its
// statements are recorded, and SQLite's program for each (EXPLAIN) names the tables it reads and
// writes. So a query never misses a change it shows, and one attendance mark makes only the
// screens that read participations (and the queue) read again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_READS, commands, queries, type ReadCallName } from '../../sync/contract';
import { tableChangesOf } from '../../sync/db/table-changes';
import { createDispatcher } from '../../sync/dispatch';
import { feedStatus, setFeedUrl } from '../../sync/pull/feed';
import { tablesUsed, watchStatements } from '../support/sql-tables';
import { temporaryFiles } from '../support/temp-files';
import { call, startWorld, type World } from './outbox/world';

const tempFile = temporaryFiles('call-tables');
let world: World;

beforeAll(async () => {
  // Before the replica opens: statements it prepares once and keeps are seen too.
  watchStatements();
  world = await startWorld(tempFile('replica.sqlite'));
});
afterAll(() => world.close());

const one = (sql: string) => world.replica.sqlite.prepare(sql).pluck().get() as string;

/** Arguments for each read (a list: each of them) that take every branch that reads a table. */
function samples(): Record<ReadCallName, unknown> {
  const person = one(
    'SELECT user_id FROM ausbildungen WHERE user_id IN (SELECT user_id FROM qualifikationen) LIMIT 1',
  );
  const course = one(
    'SELECT course_id FROM customfields WHERE course_id IN (SELECT course_id FROM participations) LIMIT 1',
  );
  const client = one('SELECT client_id FROM client_participants LIMIT 1');
  return {
    // Filtered, the people it selects are counted; unfiltered, the kept counts are read.
    'personnel.list': [
      { search: 'a muel', status: ['aktiv'], group: 'g', qualification: 'x' },
      { status: ['aktiv'] },
    ],
    'personnel.get': { id: person },
    'personnel.countByStatus': {},
    'personnel.facets': {},
    'personnel.due': { until: '2030-01-01' },
    'courses.list': {
      search: 'a',
      trainerId: 'self',
      status: ['ready'],
      courseTypeId: '1',
      clientId: client,
    },
    'courses.days': { search: 'a', trainerId: 'self', anchor: '2026-01-01' },
    'courses.get': { id: course },
    'courses.trainers': {},
    'participations.list': { courseId: course },
    'hours.list': { userId: 'self' },
    'hours.summary': { userId: 'self', year: 2026 },
    'hours.totals': { userId: 'self', from: '2026-01-01' },
    'hours.settings': {},
    'hours.types': {},
    'hours.years': { userId: 'self' },
    'hours.occasions': { search: 'a' },
    'hours.suggestions': {},
    'calendars.list': {},
    'calendars.icalUrl': { id: 'x' },
    'notifications.list': {},
    'notifications.count': {},
    'reference.get': {},
    'clients.list': { search: 'a' },
    'clients.participants': { clientId: client },
    'clients.get': { id: client },
    'companies.list': { search: 'a' },
    'forms.list': { typ: 'k', id: course },
    'forms.all': {},
    'feed.events': { from: '2020-01-01', until: '2030-12-31' },
    search: { text: 'a' },
    'sync.status': {},
    'sync.quarantine': {},
    'sync.areas': {},
    'outbox.list': {},
    'conflicts.list': {},
    'feed.get': {},
  };
}

async function read(name: ReadCallName, args: unknown): Promise<void> {
  // The feed's state is the host's call, over the replica's feedStatus.
  if (name === 'feed.get') feedStatus(world.replica);
  else for (const each of Array.isArray(args) ? args : [args]) await call(world, name, each);
}

describe('CALL_READS', () => {
  it('declares every query and every read of the outbox', () => {
    const reads = Object.keys(commands).filter((name) => name.endsWith('.list'));
    expect(Object.keys(CALL_READS).sort()).toEqual(
      [...Object.keys(queries), ...reads, 'feed.get'].sort(),
    );
  });

  it('names exactly the tables SQLite opens for each read', async () => {
    setFeedUrl(world.replica, 'https://example.org/feed/secret.ics');
    const wrong: string[] = [];
    for (const [name, args] of Object.entries(samples()) as [ReadCallName, unknown][]) {
      const used = await tablesUsed(world.replica.sqlite, () => read(name, args));
      expect(used.writes, `${name} writes nothing`).toEqual(new Set());
      const declared = [...CALL_READS[name]].sort();
      const opened = [...used.reads].sort();
      if (JSON.stringify(declared) !== JSON.stringify(opened))
        wrong.push(`${name}: declared ${declared.join(',')}; opened ${opened.join(',')}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('the tables a command changed', () => {
  it('are what SQLite writes, cascades included, and an attendance mark touches only participations and the queue', async () => {
    const told: string[][] = [];
    const dispatcher = createDispatcher(world.replica, {
      onCommand: (_name, tables) => told.push(tables),
    });
    const participation = one(
      "SELECT id FROM participations WHERE status IS NOT 'cancelled' AND local_state IS NULL LIMIT 1",
    );
    const courseId = one(`SELECT course_id FROM participations WHERE id = '${participation}'`);
    tableChangesOf(world.replica.sqlite)!.take(); // what earlier tests changed
    const used = await tablesUsed(world.replica.sqlite, async () => {
      const outcome = await dispatcher.call('participation.update', {
        courseId,
        id: participation,
        attributes: { attended: true },
      });
      expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    });
    expect(told).toHaveLength(1);
    expect(told[0]).toEqual([...used.writes].sort());
    expect(told[0]).toEqual(['outbox', 'participations']);
    const rerun = (Object.keys(CALL_READS) as ReadCallName[]).filter((name) =>
      (CALL_READS[name] as readonly string[]).some((table) => told[0]!.includes(table)),
    );
    expect(rerun.sort()).toEqual(
      [
        'clients.get',
        'courses.days',
        'courses.get',
        'courses.list',
        'outbox.list',
        'participations.list',
        'search',
        'sync.status',
      ].sort(),
    );
    expect(rerun).not.toContain('hours.list');
    expect(rerun).not.toContain('personnel.list');
  });

  it('a deletion names the tables it cascades to', async () => {
    const person = one('SELECT user_id FROM ausbildungen LIMIT 1');
    const sqlite = world.replica.sqlite;
    tableChangesOf(sqlite)!.take();
    sqlite.prepare('DELETE FROM users WHERE id = ?').run(person);
    expect(tableChangesOf(sqlite)!.take()).toEqual(
      expect.arrayContaining(['ausbildungen', 'qualifikationen', 'users']),
    );
    // A statement that changed no row names nothing.
    sqlite.prepare('DELETE FROM users WHERE id = ?').run(person);
    expect(tableChangesOf(sqlite)!.take()).toEqual([]);
  });
});
