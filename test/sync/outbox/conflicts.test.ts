// Pulls rebase on local changes: a field changed here and on the service is a conflict, kept with
// base, mine and theirs, and resolved both ways; a record deleted on the service while it has
// local changes is a conflict of kind 'deleted', not a silent loss. A sync asks first for the
// courses it is about to write to, so the office's change made while a trainer was offline is
// met as a conflict too, and the push holds the record back until a person has decided.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConflictEntry, OutboxEntry } from '../../../sync/contract';
import { createRefresher, refreshBeforePush } from '../../../sync/pull/refresh';
import { nextDue } from '../../../sync/outbox/replay';
import { syncOnce } from '../../../sync/scheduler/sync-once';
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

describe('a sync with changes waiting for a course', () => {
  const commentOf = (id: string) => store().get('participation', id)?.attributes.comment ?? null;

  it('asks for the course before it pushes: the office’s comment is a conflict, held until decided', async () => {
    const [first, second] = store()
      .all('participation')
      .filter((p) => row(world, 'participations', p.id) !== undefined)
      .slice(0, 2)
      .map((p) => ({
        id: p.id,
        courseId: row(world, 'participations', p.id)!.course_id as string,
      }));
    // The courses were last asked for ten minutes ago (a course asked for within the last minute
    // is not asked for again).
    world.replica.sqlite
      .prepare("UPDATE confirmations SET confirmed_at = ? WHERE scope = 'course'")
      .run(new Date(Date.now() - 600_000).toISOString());
    // Offline here, the trainer's comments; on the service meanwhile, the office's (first only).
    for (const p of [first!, second!])
      await write(world, 'participation.update', {
        courseId: p.courseId,
        id: p.id,
        attributes: { comment: `Kursleitung ${p.id}` },
      });
    const office = await serviceWrite(
      world,
      'PATCH',
      `/courses/${first!.courseId}/participations/${first!.id}`,
      { data: { type: 'participation', id: first!.id, attributes: { comment: 'Büro' } } },
    );
    expect(office.status).toBe(200);

    const synced = await syncOnce({
      api: world.api,
      replica: world.replica,
      profile: 'office',
      pushMaxWaitMs: 0,
    });
    // The first is held (the office's comment stays on the service), the second went.
    expect(commentOf(first!.id)).toBe('Büro');
    expect(commentOf(second!.id)).toBe(`Kursleitung ${second!.id}`);
    expect(synced.outbox.done).toBe(1);
    // The courses' refresh is counted with the push: one PATCH and at least one request more.
    expect(synced.outbox.requests).toBeGreaterThan(1);
    const conflicts = await call<ConflictEntry[]>(world, 'conflicts.list', {});
    expect(conflicts).toEqual([
      expect.objectContaining({
        recordType: 'participation',
        recordId: first!.id,
        field: 'comment',
        mine: `Kursleitung ${first!.id}`,
        theirs: 'Büro',
      }),
    ]);
    expect(await outbox(world)).toEqual([
      expect.objectContaining({ recordId: first!.id, inConflict: true }),
    ]);
    // A push while it is undecided sends nothing.
    world.sandbox.clearRequests();
    await push(world);
    expect(writesLogged(world)).toEqual([]);

    await call(world, 'conflicts.resolve', { id: conflicts[0]!.id, take: 'mine' });
    expect(await outbox(world)).toEqual([
      expect.objectContaining<Partial<OutboxEntry>>({ inConflict: false }),
    ]);
    await push(world);
    expect(commentOf(first!.id)).toBe(`Kursleitung ${first!.id}`);
    expect(await outbox(world)).toEqual([]);
  });

  it('takes the service holding an own earlier value for no one else’s change', async () => {
    const p = store()
      .all('participation')
      .filter((r) => row(world, 'participations', r.id) !== undefined)[5]!;
    const courseId = row(world, 'participations', p.id)!.course_id as string;
    await write(world, 'participation.update', {
      courseId,
      id: p.id,
      attributes: { comment: 'erste Fassung' },
    });
    // Sent, its answer lost: the operation's outcome is unknown; then a second change here.
    world.replica.sqlite
      .prepare(
        "UPDATE outbox SET state = 'unknown', attempts = 1 WHERE record_id = ? AND state <> 'done'",
      )
      .run(p.id);
    await serviceWrite(world, 'PATCH', `/courses/${courseId}/participations/${p.id}`, {
      data: { type: 'participation', id: p.id, attributes: { comment: 'erste Fassung' } },
    });
    await write(world, 'participation.update', {
      courseId,
      id: p.id,
      attributes: { comment: 'zweite Fassung' },
    });
    await syncFrom(world.api, world.replica);
    expect(await call(world, 'conflicts.list', {})).toEqual([]);
    await push(world);
    expect(commentOf(p.id)).toBe('zweite Fassung');
    expect(await outbox(world)).toEqual([]);
  });
});

describe('a conflict stays true to the operations it is about', () => {
  it('goes with a discarded operation: a later change of the record is sent, not held or dropped', async () => {
    const entry = ownHours()[4]!;
    const [mine, theirs] = unlike(entry.attributes.stunden, 31.5, 32.5);
    await changedOnBothSides(entry.id, mine, theirs);
    const [held] = await outbox(world);
    expect(held).toMatchObject({ recordId: entry.id, inConflict: true });
    await call(world, 'outbox.discard', { id: held!.id });
    expect(await call(world, 'conflicts.list', {})).toEqual([]);
    await write(world, 'helferstunden.update', { id: entry.id, attributes: { stunden: 35 } });
    expect(await outbox(world)).toEqual([expect.objectContaining({ inConflict: false })]);
    await push(world);
    expect(store().get('helferstunden', entry.id)!.attributes.stunden).toBe(35);
  });

  it('follows a newer local value, and a held operation due for retry waits for the person, not a time', async () => {
    const entry = ownHours()[5]!;
    const [mine, theirs] = unlike(entry.attributes.stunden, 21.5, 22.5);
    await changedOnBothSides(entry.id, mine, theirs);
    await write(world, 'helferstunden.update', { id: entry.id, attributes: { stunden: 23 } });
    const [conflict] = await call<ConflictEntry[]>(world, 'conflicts.list', {});
    expect(conflict).toMatchObject({ mine: 23, theirs });
    // Refused once with a 503 before: due for its retry now, but held.
    world.replica.sqlite
      .prepare(
        "UPDATE outbox SET state = 'retrying', attempts = 1, next_attempt_at = ? WHERE record_id = ? AND state <> 'done'",
      )
      .run(new Date(Date.now() - 1000).toISOString(), entry.id);
    expect(nextDue(world.replica.sqlite)).toBeNull();
    // The same value here as there: no conflict left, nothing to decide.
    await write(world, 'helferstunden.update', { id: entry.id, attributes: { stunden: theirs } });
    expect(await call(world, 'conflicts.list', {})).toEqual([]);
    await push(world);
    expect(await outbox(world)).toEqual([]);
    expect(store().get('helferstunden', entry.id)!.attributes.stunden).toBe(theirs);
  });

  it('asks no further course after the first that fails, and counts the failed requests', async () => {
    const courses = store()
      .all('participation')
      .filter((p) => row(world, 'participations', p.id) !== undefined)
      .map((p) => ({ id: p.id, courseId: row(world, 'participations', p.id)!.course_id as string }))
      .filter((p, i, all) => all.findIndex((q) => q.courseId === p.courseId) === i)
      .slice(0, 3);
    expect(courses).toHaveLength(3);
    for (const p of courses)
      await write(world, 'participation.update', {
        courseId: p.courseId,
        id: p.id,
        attributes: { comment: 'offline' },
      });
    world.replica.sqlite.prepare("DELETE FROM confirmations WHERE scope = 'course'").run();
    let attempts = 0;
    const stop = world.offline.observeRequests(() => (attempts += 1));
    const requests = await refreshBeforePush({
      api: world.offline,
      refresher: createRefresher({
        api: world.offline,
        replica: world.replica,
        options: { profile: 'office' },
      }),
      sqlite: world.replica.sqlite,
    });
    stop();
    // One course's lists (participants and custom fields), not three courses' worth.
    expect(requests).toBe(attempts);
    expect(requests).toBeGreaterThan(0);
    expect(requests).toBeLessThanOrEqual(2);
    await push(world);
    expect(await outbox(world)).toEqual([]);
  });
});
