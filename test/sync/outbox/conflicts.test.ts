// Pulls rebase on local changes: a field changed here and on the service is a conflict, kept with
// base, mine and theirs, and resolved both ways; a record deleted on the service while it has
// local changes is a conflict of kind 'deleted', not a silent loss.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConflictEntry } from '../../../sync/contract';
import { temporaryFiles } from '../../support/temp-files';
import {
  call,
  outbox,
  push,
  row,
  serviceWrite,
  startWorld,
  syncFrom,
  write,
  writesLogged,
  type World,
} from './world';

const tempFile = temporaryFiles('outbox-conflicts');

let world: World;
const store = () => world.sandbox.store;
/**
 * The office's own entries that the replica holds (the sync reads a window of hours), read once:
 * a change on the service reorders the store's list.
 */
let own: ReturnType<ReturnType<typeof store>['all']> = [];
const ownHours = () => own;

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
  own = store()
    .all('helferstunden')
    .filter((h) => (h.relationships.user as { id: string } | null)?.id === world.officeId)
    .filter((h) => row(world, 'helferstunden', h.id) !== undefined);
});
afterAll(() => world.close());

/** Two values for mine and theirs, both unlike the entry's own (moved by an hour where equal). */
function unlike(own: unknown, mine: number, theirs: number): [number, number] {
  const shift = (value: number) => (value === own ? value + 1 : value);
  return [shift(mine), shift(theirs)];
}

async function changedOnBothSides(entryId: string, mine: number, theirs: number) {
  await write(world, 'helferstunden.update', { id: entryId, attributes: { stunden: mine } });
  const answer = await serviceWrite(world, 'PATCH', `/helferstunden/${entryId}`, {
    data: { type: 'helferstunden', id: entryId, attributes: { stunden: theirs } },
  });
  expect(answer.status).toBe(200);
  await syncFrom(world.api, world.replica);
}

describe('a field changed on both sides', () => {
  it('keeps mine in the replica, lists base/mine/theirs; taking theirs drops mine and sends nothing', async () => {
    const entry = ownHours()[0]!;
    const base = entry.attributes.stunden;
    await changedOnBothSides(entry.id, 11.25, 12.5);
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({
      stunden: 11.25,
      local_state: 'changed',
    });
    const conflicts = await call<ConflictEntry[]>(world, 'conflicts.list', {});
    expect(conflicts).toEqual([
      expect.objectContaining({
        recordType: 'helferstunden',
        recordId: entry.id,
        field: 'stunden',
        kind: 'changed',
        base,
        mine: 11.25,
        theirs: 12.5,
      }),
    ]);
    await call(world, 'conflicts.resolve', { id: conflicts[0]!.id, take: 'theirs' });
    expect(await call(world, 'conflicts.list', {})).toEqual([]);
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({
      stunden: 12.5,
      local_state: null,
    });
    expect(await outbox(world)).toEqual([]);
    world.sandbox.clearRequests();
    await push(world);
    expect(writesLogged(world)).toEqual([]);
    expect(store().get('helferstunden', entry.id)!.attributes.stunden).toBe(12.5);
  });

  it('a change of another field of the same record survives taking theirs', async () => {
    const entry = ownHours()[1]!;
    // Values unlike the entry's own: the same value on the service would be no change there.
    const [mine, theirs] = unlike(entry.attributes.stunden, 6.5, 7);
    await write(world, 'helferstunden.update', {
      id: entry.id,
      attributes: { bemerkung: 'meine Notiz' },
    });
    await changedOnBothSides(entry.id, mine, theirs);
    const [conflict] = await call<ConflictEntry[]>(world, 'conflicts.list', {});
    expect(conflict).toMatchObject({ field: 'stunden', recordId: entry.id });
    await call(world, 'conflicts.resolve', { id: conflict!.id, take: 'theirs' });
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({
      stunden: theirs,
      local_state: 'changed',
    });
    await push(world);
    expect(store().get('helferstunden', entry.id)!.attributes).toMatchObject({
      bemerkung: 'meine Notiz',
      stunden: theirs,
    });
  });

  it('taking mine sends it as a PATCH', async () => {
    const entry = ownHours()[2]!;
    const [mine, theirs] = unlike(entry.attributes.stunden, 3.75, 8);
    await changedOnBothSides(entry.id, mine, theirs);
    const [conflict] = await call<ConflictEntry[]>(world, 'conflicts.list', {});
    expect(conflict).toMatchObject({ mine, theirs });
    const resolved = await call(world, 'conflicts.resolve', { id: conflict!.id, take: 'mine' });
    expect(resolved).toMatchObject({ resolved: true, sent: true });
    world.sandbox.clearRequests();
    world.clearSent();
    await push(world);
    expect(writesLogged(world)).toEqual([`PATCH /helferstunden/${entry.id} 200`]);
    expect(world.sent[0]!.body).toMatchObject({
      data: { attributes: { stunden: mine } },
    });
    expect(store().get('helferstunden', entry.id)!.attributes.stunden).toBe(mine);
    expect(await outbox(world)).toEqual([]);
    expect(await call(world, 'conflicts.list', {})).toEqual([]);
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({
      stunden: mine,
      local_state: null,
    });
  });
});

describe('a record deleted on the service while it has local changes', () => {
  it('is a conflict of kind deleted, the local change kept until resolved', async () => {
    const entry = ownHours()[3]!;
    await write(world, 'helferstunden.update', {
      id: entry.id,
      attributes: { stunden: 13.5 },
    });
    const answer = await serviceWrite(world, 'DELETE', `/helferstunden/${entry.id}`);
    expect(answer.status).toBe(204);
    // Hours deleted on the service show in a full id scan.
    await syncFrom(world.api, world.replica, true);
    expect(row(world, 'helferstunden', entry.id)).toMatchObject({
      stunden: 13.5,
      local_state: 'changed',
    });
    const conflicts = await call<ConflictEntry[]>(world, 'conflicts.list', {});
    expect(conflicts).toEqual([
      expect.objectContaining({
        recordType: 'helferstunden',
        recordId: entry.id,
        kind: 'deleted',
        mine: { stunden: 13.5 },
      }),
    ]);
    expect(await outbox(world)).toHaveLength(1);
    const keep = await world.dispatcher.call('conflicts.resolve', {
      id: conflicts[0]!.id,
      take: 'mine',
    });
    expect(keep.ok).toBe(false);
    await call(world, 'conflicts.resolve', { id: conflicts[0]!.id, take: 'theirs' });
    expect(row(world, 'helferstunden', entry.id)).toBeUndefined();
    expect(await outbox(world)).toEqual([]);
    world.sandbox.clearRequests();
    await push(world);
    expect(writesLogged(world)).toEqual([]);
  });
});
