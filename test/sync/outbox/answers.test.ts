// A record write answers what a screen needs to show its result at once: its receipt and the
// record as the replica now holds it (its local truth), equal to what the screen's read gives
// for it afterwards; null when that read no longer shows it (deleted here). Each write changes
// only the tables the contract declares for it (CALL_WRITES).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_WRITES } from '../../../sync/contract';
import {
  callOrThrow,
  createDispatcher,
  type CallName,
  type CallResults,
  type Dispatcher,
} from '../../../sync/dispatch';
import { writtenRecord } from '../../../sync/queries/written';
import { temporaryFiles } from '../../support/temp-files';
import { startWorld, type World } from './world';

const tempFile = temporaryFiles('outbox-answers');

let world: World;
let dispatcher: Dispatcher;
/** Each write's changed tables that its declaration does not name. */
const undeclared: string[] = [];
const call = <N extends CallName>(name: N, args: unknown): Promise<CallResults[N]> =>
  callOrThrow(dispatcher, name, args);

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
  dispatcher = createDispatcher(world.replica, {
    onCommand: (name, tables) => {
      const declared: readonly string[] = CALL_WRITES[name];
      for (const table of tables)
        if (!declared.includes(table)) undeclared.push(`${name}: ${table}`);
    },
  });
});
afterAll(async () => {
  await world.close();
});

/** A course of the replica with two participants not cancelled (the demo follows the calendar). */
async function courseWithParticipants() {
  const courses = await call('courses.list', { limit: 1000 });
  for (const course of courses.items) {
    const participants = await call('participations.list', { courseId: course.id });
    const live = participants.filter((p) => p.status !== 'cancelled');
    if (live.length >= 2) return { courseId: course.id, live };
  }
  throw new Error('no course with two participants in the replica');
}

describe('a record write answers its record as the screen reads it', () => {
  it('participation.update and .cancel: the row as participations.list gives it', async () => {
    const { courseId, live } = await courseWithParticipants();
    const [marked, cancelled] = live;
    const answer = await call('participation.update', {
      courseId,
      id: marked!.id,
      attributes: { attended: true, status: 'attended' },
    });
    expect(answer).toMatchObject({ type: 'participation', id: marked!.id, state: 'pending' });
    expect(answer.record).toMatchObject({
      id: marked!.id,
      attended: true,
      status: 'attended',
      localState: 'changed',
    });
    const list = await call('participations.list', { courseId });
    expect(answer.record).toEqual(list.find((p) => p.id === marked!.id));

    const cancel = await call('participation.cancel', {
      courseId,
      id: cancelled!.id,
      attributes: { reason: 'krank' },
    });
    const after = await call('participations.list', { courseId });
    expect(cancel.record).toEqual(after.find((p) => p.id === cancelled!.id));
    expect(cancel.record?.status).toBe('cancelled');
  });

  it("helferstunden_anlass.create, helferstunden.create/.delete: their reads' items, then null", async () => {
    const occasion = await call('helferstunden_anlass.create', {
      attributes: { typ: 'sonstiges', beschreibung: 'Antwortanlass', datum: '2026-11-20' },
    });
    const occasions = await call('hours.occasions', { search: 'Antwortanlass' });
    expect(occasion.record).toEqual(occasions.find((o) => o.id === occasion.id));
    const created = await call('helferstunden.create', {
      attributes: { von: '2026-11-20T08:00:00+01:00', stunden: 2.5, bemerkung: 'Antwort' },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: occasion.id } },
        typ: { data: { type: 'helferstunden_typ', id: '2' } },
      },
    });
    const hours = await call('hours.list', { limit: 1000 });
    expect(created.record).toEqual(hours.items.find((h) => h.id === created.id));
    expect(created.record).toMatchObject({ localState: 'created', stunden: 2.5 });
    const deleted = await call('helferstunden.delete', { id: created.id });
    expect(deleted.record).toBeNull();
  });

  it('customfield.create and course.create: as courses.get gives them', async () => {
    const { courseId } = await courseWithParticipants();
    const field = await call('customfield.create', {
      courseId,
      attributes: { name: 'Antwortfeld', field_type: 'text' },
    });
    const detail = await call('courses.get', { id: courseId });
    expect(field.record).toEqual(detail?.customfields.find((f) => f.id === field.id));
    const course = await call('course.create', {
      attributes: { title: 'Antwortkurs', max_participants: 8 },
      relationships: {
        course_type: { data: { type: 'course_type', id: '1' } },
        dates: { data: [{ type: 'course_date', id: 'new-1' }] },
      },
      included: [
        {
          type: 'course_date',
          id: 'new-1',
          attributes: { from: '2026-12-05T09:00:00+01:00', to: '2026-12-05T16:00:00+01:00' },
        },
      ],
    });
    expect(course.record).toEqual(await call('courses.get', { id: course.id }));
    expect(course.record).toMatchObject({ title: 'Antwortkurs', localState: 'created' });
  });

  it('kalender.create and user.update: as calendars.list and personnel.get give them', async () => {
    const calendar = await call('kalender.create', { attributes: { name: 'Antwortkalender' } });
    const calendars = await call('calendars.list', {});
    expect(calendar.record).toEqual(calendars.find((c) => c.id === calendar.id));
    const [person] = (await call('personnel.list', { limit: 1 })).items;
    const user = await call('user.update', { id: person!.id, attributes: { ort: 'Antwortdorf' } });
    expect(user.record).toEqual(await call('personnel.get', { id: person!.id }));
    expect(user.record?.ort).toBe('Antwortdorf');
  });

  it("answers every record the screens' reads show as they show it, and null for one they do not", async () => {
    // After the writes above: records created, changed and deleted here among the service's.
    const { db, sqlite } = world.replica;
    const answer = (type: Parameters<typeof writtenRecord>[2], id: string) =>
      writtenRecord(db, sqlite, type, id);
    const ids = (sql: string) => sqlite.prepare(sql).pluck().all() as string[];
    const drifted: string[] = [];
    const compare = async (
      type: Parameters<typeof writtenRecord>[2],
      shown: readonly { id: string }[],
    ) => {
      expect(shown.length, type).toBeGreaterThan(0);
      for (const item of shown)
        if (JSON.stringify(await answer(type, item.id)) !== JSON.stringify(item))
          drifted.push(`${type} ${item.id}`);
    };
    await compare('kalender', await call('calendars.list', {}));
    await compare('helferstunden', (await call('hours.list', { limit: 200 })).items);
    await compare('helferstunden_anlass', await call('hours.occasions', { limit: 200 }));
    await compare('benachrichtigung', await call('notifications.list', {}));
    for (const courseId of ids('SELECT DISTINCT course_id FROM participations LIMIT 10'))
      await compare(
        'participation',
        await call('participations.list', { courseId, includeCancelled: true }),
      );
    for (const courseId of ids('SELECT DISTINCT course_id FROM customfields LIMIT 10')) {
      const course = await call('courses.get', { id: courseId });
      await compare('course', [course!]);
      await compare('customfield', course!.customfields);
    }
    for (const userId of ids('SELECT DISTINCT user_id FROM ausbildungen LIMIT 10')) {
      const person = await call('personnel.get', { id: userId });
      await compare('user', [person!]);
      await compare('ausbildung', person!.ausbildungen);
    }
    expect(drifted).toEqual([]);
    // What the reads do not show (deleted here, or never there) is answered as null.
    const [synced] = ids('SELECT id FROM helferstunden WHERE local_state IS NULL LIMIT 1');
    expect((await call('helferstunden.delete', { id: synced! })).record).toBeNull();
    expect(await answer('helferstunden', synced!)).toBeNull();
    expect(await answer('participation', 'no-such-id')).toBeNull();
  });

  it('changed only the tables each write declares', () => {
    expect(undeclared).toEqual([]);
  });
});
