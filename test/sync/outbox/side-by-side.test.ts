// Operations sent side by side share their transactions (a group commit), and DESIGN rule 7 still
// holds for each: when its request leaves, its in-flight mark is committed, as another connection
// to the replica (another process, or the next run after a crash) sees it.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../sync/api';
import { pushOutbox } from '../../../sync/outbox/replay';
import { temporaryFiles } from '../../support/temp-files';
import { call, outbox, startWorld, write, type World } from './world';

const tempFile = temporaryFiles('outbox-side-by-side');
let world: World;
let file: string;
beforeAll(async () => {
  file = tempFile('replica.sqlite');
  world = await startWorld(file);
});
afterAll(() => world.close());

describe('a push of operations side by side', () => {
  it('sends each request with its operation committed in flight, and each once', async () => {
    const { items: people } = await call<{ items: { id: string }[] }>(world, 'personnel.list', {
      limit: 4,
    });
    expect(people.length).toBe(4);
    // The probe of client-generated ids (a 403 before a create goes again without one) done first.
    await write(world, 'kalender.create', { attributes: { name: 'Vorab' } });
    expect(await pushOutbox({ api: world.api, sqlite: world.replica.sqlite })).toMatchObject({
      done: 1,
    });
    for (const [i, person] of people.entries()) {
      await write(world, 'kalender.create', { attributes: { name: `Nebeneinander ${i}` } });
      await write(world, 'user.update', { id: person.id, attributes: { ort: `Nebenort ${i}` } });
    }
    const committed = new Database(file, { readonly: true });
    const inFlight = committed.prepare(
      "SELECT count(*) FROM outbox WHERE state = 'in_flight' AND instr(args, ?) > 0",
    );
    const seen: { text: string; committedInFlight: number }[] = [];
    let sending = 0;
    let mostAtOnce = 0;
    const api: ApiClient = {
      ...world.api,
      send: async (method, path, options) => {
        const text = JSON.stringify(options?.body);
        const name = /Neben(?:einander|ort) \d/.exec(text)![0];
        seen.push({ text: name, committedInFlight: inFlight.pluck().get(`"${name}"`) as number });
        sending += 1;
        mostAtOnce = Math.max(mostAtOnce, sending);
        try {
          return await world.api.send(method, path, options);
        } finally {
          sending -= 1;
        }
      },
    };
    try {
      const summary = await pushOutbox({ api, sqlite: world.replica.sqlite, maxWaitMs: 0 });
      expect(summary).toMatchObject({ done: 8, parked: 0, unknown: 0, retrying: 0 });
    } finally {
      committed.close();
    }
    expect(mostAtOnce, 'requests went side by side').toBeGreaterThan(1);
    expect(seen.map((s) => s.text).sort()).toEqual(
      [0, 1, 2, 3].flatMap((i) => [`Nebeneinander ${i}`, `Nebenort ${i}`]).sort(),
    );
    expect(seen.filter((s) => s.committedInFlight !== 1)).toEqual([]);
    expect(await outbox(world)).toEqual([]);
    const calendars = await call<{ name: string }[]>(world, 'calendars.list', {});
    expect(calendars.filter((c) => c.name.startsWith('Nebeneinander')).length).toBe(4);
  });
});
