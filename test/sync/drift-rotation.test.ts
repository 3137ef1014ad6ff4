// Drift 4 of issue 10: checks deleted on the service were never removed for half the people when
// there were more than 1,000. The old person-details batches (personDetailsPerSync 500 people a
// sync, least recently refreshed first, each person's checks with a change filter of its own) went
// round the people in a fixed cycle, and only the periodic full run (every fullScanEvery = 10th
// sync) fetched a person's checks whole and could see a deletion: with 2,000 people the cycle is
// four syncs, so every full run lands on the same two of the four batches. Healed only by --full.
// Now the people are a rotation that earns its share per elapsed time and takes the least recently
// confirmed first, every list whole (sync/pull/freshness.ts, plan.ts, collections/person-details.ts):
// every person is confirmed within the people bound, whatever their count.
// Failed on 6d7d817 (the last commit before the rotations): the same scenario with the old options
// at their defaults (a sync every 5 simulated minutes, the service's clock moving along) left 64 of
// the 131 deleted checks in the replica, after these 54 syncs and still after a simulated week
// (2,016 syncs): those of the people in the first and third quarter by id, whose batches no full
// run took; the last check that left did so at the second full run, after 1.67 h.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { runSync } from '../../sync/pull/engine';
import { DEFAULT_SYNC_OPTIONS } from '../../sync/pull/options';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const INTERVAL = 5 * MINUTE;
/**
 * The people bound of this test (hours): short, so that a bound is a few dozen syncs, and long
 * enough that 2,000 people's share fits the default request budget (about 44 people a sync).
 */
const BOUND_HOURS = 4;
const MARGIN_HOURS = 0.5;
/**
 * People added to the 1,000 of scale medium: 2,000, where the old batches of 500 cycled in four
 * syncs and the full runs (every 10th sync) took the same two of the four batches.
 */
const ADDED_PEOPLE = 1_000;

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

describe('drift 4: deleted checks of more than 1,000 people', () => {
  let sandbox: Sandbox;
  let replica: Replica;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'medium', seed: 4 });
    addPeople(sandbox, ADDED_PEOPLE);
    dir = mkdtempSync(join(tmpdir(), 'vorort-drift4-'));
    replica = openReplica(join(dir, 'office.sqlite'));
  });
  afterAll(async () => {
    await replica?.close();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('leave the replica within the people bound, for every person', async () => {
    const office = sandbox.users.find((u) => u.role === 'office')!;
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(office.accessToken),
    });
    const options = {
      profile: 'office' as const,
      freshnessHours: { ...DEFAULT_SYNC_OPTIONS.freshnessHours, people: BOUND_HOURS },
    };
    const start = Date.now();
    const syncAt = async (sync: number, full = false) => {
      const at = new Date(start + sync * INTERVAL);
      const summary = await runSync({
        api,
        replica,
        options: { ...options, full, now: () => at, today: () => at },
      });
      expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
      if (!full) expect(summary.requests).toBeLessThanOrEqual(DEFAULT_SYNC_OPTIONS.requestBudget);
      return summary;
    };
    const count = (sql: string, ...params: unknown[]) =>
      replica.sqlite
        .prepare(sql)
        .pluck()
        .get(...params) as number;

    // The whole replica once (`vorort sync --full`), so every check is there to be deleted.
    await syncAt(0, true);
    const people = sandbox.store.all('user').length;
    expect(people).toBeGreaterThan(1_000);
    expect(count('SELECT count(*) FROM users')).toBe(people);

    // One check of every 7th person who has one, in id order: spread over the whole id range.
    const holders = [...new Set(sandbox.store.all('ueberpruefung').map(userOf))].sort();
    const deleted = holders
      .filter((_, index) => index % 7 === 3)
      .map((userId) => sandbox.store.related('ueberpruefung', 'user', userId)[0]!.id);
    expect(count('SELECT count(*) FROM ueberpruefungen')).toBe(
      sandbox.store.all('ueberpruefung').length,
    );
    for (const id of deleted) sandbox.store.remove('ueberpruefung', id);
    const honour = sandbox.store.all('ehrung')[0]!;
    const edited = `${String(honour.attributes.bezeichnung)} (geändert)`;
    sandbox.store.put({
      ...honour,
      attributes: { ...honour.attributes, bezeichnung: edited },
    });

    const inReplica = (id: string) =>
      count('SELECT count(*) FROM ueberpruefungen WHERE id = ?', id);
    const left = new Map<string, number>();
    let honourArrived: number | undefined;
    const syncs = ((BOUND_HOURS + MARGIN_HOURS) * HOUR) / INTERVAL;
    let maxRequests = 0;
    for (let sync = 1; sync <= syncs; sync += 1) {
      const summary = await syncAt(sync);
      maxRequests = Math.max(maxRequests, summary.requests);
      const elapsed = sync * INTERVAL;
      for (const id of deleted) if (!left.has(id) && inReplica(id) === 0) left.set(id, elapsed);
      const bezeichnung = replica.sqlite
        .prepare('SELECT bezeichnung FROM ehrungen WHERE id = ?')
        .pluck()
        .get(honour.id);
      if (honourArrived === undefined && bezeichnung === edited) honourArrived = elapsed;
      if (elapsed >= BOUND_HOURS * HOUR) {
        const stayed = deleted.filter((id) => !left.has(id));
        expect(
          stayed.map((id) => `check ${id}`),
          `deleted checks still in the replica ${elapsed / HOUR} h after (bound ${BOUND_HOURS} h)`,
        ).toEqual([]);
        expect(honourArrived, 'the edited honour').toBeDefined();
      }
    }
    const at = new Date(start + syncs * INTERVAL);
    const stale = count(
      `SELECT count(*) FROM users u LEFT JOIN confirmations f ON f.scope = 'person' AND f.id = u.id
       WHERE f.confirmed_at IS NULL OR f.confirmed_at < ?`,
      new Date(at.getTime() - BOUND_HOURS * HOUR).toISOString(),
    );
    expect(stale, `people not confirmed in the last ${BOUND_HOURS} h`).toBe(0);
    console.log(
      `drift 4: ${people} people, ${deleted.length} checks deleted, the last left after ${
        Math.max(...left.values()) / HOUR
      } h, the honour after ${honourArrived! / HOUR} h (bound ${BOUND_HOURS} h), ${syncs} syncs, at most ${maxRequests} requests`,
    );
  }, 120_000);
});

/**
 * `added` more people, copies of generated ones under new ids spread over the id range (ids are
 * hex digests), every second with a check of their own.
 */
function addPeople(sandbox: Sandbox, added: number): void {
  const accounts = new Set(sandbox.users.map((u) => u.id));
  const models = sandbox.store.all('user').filter((u) => !accounts.has(u.id));
  const check = sandbox.store.all('ueberpruefung')[0]!;
  sandbox.store.transaction(() => {
    for (let n = 0; n < added; n += 1) {
      const model = models[n % models.length]!;
      const id = createHash('md5').update(`drift 4 person ${n}`).digest('hex');
      const username = `zusatz.${n}`;
      sandbox.store.put({
        ...model,
        id,
        attributes: {
          ...model.attributes,
          vorname: 'Zusatz',
          nachname: `Person ${n}`,
          name: `Person ${n}, Zusatz`,
          username,
          email: `${username}@example.net`,
          mitgliednr: String(90_000 + n),
          ausbildungen: [],
        },
      });
      if (n % 2 === 0)
        sandbox.store.put({
          ...check,
          id: sandbox.store.nextId('ueberpruefung'),
          relationships: { user: { type: 'user', id } },
        });
    }
  });
}

function userOf(record: { relationships: Record<string, unknown> }): string {
  return (record.relationships.user as { id: string }).id;
}
