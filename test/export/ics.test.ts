// .ics exports of a replica synced from the sandbox, read back with an independent parser
// (ical.js) and compared with the replica's own rows one to one: count, UIDs, start and end
// instants, summary. Then a change on the service, a sync and a second export: the same UIDs, a
// higher SEQUENCE for the changed entry only.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticToken } from '../../sync/api';
import { createDispatcher } from '../../sync/dispatch';
import { exportData, type ExportRequestInput } from '../../sync/export';
import { pushOutbox } from '../../sync/outbox/replay';
import { temporaryFiles } from '../support/temp-files';
import { COURSE_TITLE, exportWorld, type ExportWorld } from './fixture';

const temp = temporaryFiles('export-ics');
let world: ExportWorld;

beforeAll(async () => {
  world = await exportWorld(temp('replica.sqlite'));
}, 60_000);
afterAll(() => world?.close());

interface ParsedEvent {
  uid: string;
  sequence: number;
  summary: string;
  description: string | null;
  location: string | null;
  start: number;
  end: number | null;
  stamp: string;
  status: string | null;
}

function parseEvents(bytes: Uint8Array): ParsedEvent[] {
  const text = new TextDecoder().decode(bytes);
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  expect(calendar.name).toBe('vcalendar');
  return calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      sequence: event.sequence,
      summary: event.summary,
      description: (component.getFirstPropertyValue('description') as string | null) ?? null,
      location: (component.getFirstPropertyValue('location') as string | null) ?? null,
      start: event.startDate.toUnixTime() * 1000,
      end: event.endDate ? event.endDate.toUnixTime() * 1000 : null,
      stamp: String(component.getFirstPropertyValue('dtstamp')),
      status: (component.getFirstPropertyValue('status') as string | null) ?? null,
    };
  });
}

const exportIcs = (request: Omit<ExportRequestInput, 'format'>, now?: Date) =>
  exportData(world.replica, { format: 'ics', ...request }, now ? { now } : {});

/** The UID domain: the organisation's id and the host the replica was synced from. */
const domain = () => {
  const orgId = world.replica.sqlite
    .prepare("SELECT id FROM singletons WHERE key = 'orga'")
    .pluck()
    .get() as string;
  return `org-${orgId}.127.0.0.1`;
};

describe('.ics of courses', () => {
  it('has one entry per course date of the replica, with its UID, instants and summary', async () => {
    const result = await exportIcs({ what: 'courses' });
    const events = parseEvents(result.bytes);
    const rows = world.replica.sqlite
      .prepare(
        `SELECT d.id, d.date_from, d.date_to, c.title, c.course_number FROM course_dates d
         JOIN courses c ON c.id = d.course_id WHERE c.local_state IS NOT 'deleted'`,
      )
      .all() as {
      id: string;
      date_from: string;
      date_to: string;
      title: string;
      course_number: string | null;
    }[];
    expect(rows.length).toBeGreaterThan(5);
    expect(result.count).toBe(rows.length);
    expect(events).toHaveLength(rows.length);
    const byUid = new Map(events.map((e) => [e.uid, e]));
    expect(byUid.size).toBe(events.length);
    for (const row of rows) {
      const event = byUid.get(`course-date-${row.id}@${domain()}`);
      expect(event, `course date ${row.id}`).toBeDefined();
      expect(event!.start).toBe(Date.parse(row.date_from));
      expect(event!.end).toBe(Date.parse(row.date_to));
      expect(event!.summary.startsWith(row.title)).toBe(true);
      if (row.course_number) expect(event!.summary).toContain(`(${row.course_number})`);
    }
    expect(result.fileName).toBe('kurse.ics');
    expect(result.mimeType).toBe('text/calendar; charset=utf-8');
  });

  it('carries location, course type, client, participant count and course number, escaped and unfolded intact', async () => {
    const result = await exportIcs({ what: 'courses', courseId: world.courseId });
    const events = parseEvents(result.bytes);
    expect(events).toHaveLength(2);
    const number = world.replica.sqlite
      .prepare('SELECT course_number FROM courses WHERE id = ?')
      .pluck()
      .get(world.courseId) as string;
    const [first] = events;
    expect(first!.summary).toBe(`${COURSE_TITLE} (${number}), Tag 1 von 2`);
    expect(first!.location).toBe(
      'Gemeindehaus St. Jürgen, Saal „Größe“, Hauptstraße 1, 12345 Übersee',
    );
    expect(first!.description).toContain(`Kursnummer: ${number}`);
    expect(first!.description).toContain('Kursart: ');
    expect(first!.description).toContain('Teilnehmende: 30 von 40 Plätzen');
    expect(first!.description).toContain('Ausbilder/in: ');
    // A draft course is tentative until the office releases it.
    expect(first!.status).toBe('TENTATIVE');
    const text = new TextDecoder().decode(result.bytes);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(result.fileName).toBe(`kurs-${number}.ics`);
  });

  it('stamps every entry with the export time in UTC', async () => {
    const events = parseEvents(
      (await exportIcs({ what: 'courses' }, new Date('2026-05-04T12:34:56.789Z'))).bytes,
    );
    for (const event of events) expect(event.stamp).toBe('2026-05-04T12:34:56Z');
  });

  it('keeps its UIDs after a change on the service and raises the SEQUENCE of the changed entry only', async () => {
    const before = parseEvents((await exportIcs({ what: 'courses' })).bytes);
    const again = parseEvents((await exportIcs({ what: 'courses' })).bytes);
    expect(again.map((e) => [e.uid, e.sequence])).toEqual(before.map((e) => [e.uid, e.sequence]));
    const dateId = world.replica.sqlite
      .prepare('SELECT id FROM course_dates WHERE course_id = ? ORDER BY date_from DESC LIMIT 1')
      .pluck()
      .get(world.courseId) as string;
    const uid = `course-date-${dateId}@${domain()}`;
    const moved = before.find((e) => e.uid === uid)!;
    // The second day ends an hour later: a change made in the service's web interface.
    await world.admin('POST', `/courses/${world.courseId}/dates/${dateId}/move`, {
      from: new Date(moved.start).toISOString(),
      to: new Date(moved.end! + 3_600_000).toISOString(),
    });
    expect((await world.sync()).ok).toBe(true);
    const after = parseEvents((await exportIcs({ what: 'courses' })).bytes);
    expect(after.map((e) => e.uid).sort()).toEqual(before.map((e) => e.uid).sort());
    const previous = new Map(before.map((e) => [e.uid, e]));
    for (const event of after) {
      const old = previous.get(event.uid)!;
      if (event.uid === uid) {
        expect(event.end).toBe(moved.end! + 3_600_000);
        expect(event.sequence).toBe(old.sequence + 1);
      } else expect(event.sequence, event.uid).toBe(old.sequence);
    }
    // Exported again without a change: the SEQUENCE stays.
    const third = parseEvents((await exportIcs({ what: 'courses' })).bytes);
    expect(third.map((e) => [e.uid, e.sequence])).toEqual(after.map((e) => [e.uid, e.sequence]));
  });

  it('writes a valid calendar without entries for a range with no course', async () => {
    const result = await exportIcs({ what: 'courses', from: '1990-01-01', until: '1990-12-31' });
    expect(result.empty).toBe(true);
    expect(result.count).toBe(0);
    expect(parseEvents(result.bytes)).toEqual([]);
  });

  it('filters by the trainer: the signed-in user’s courses', async () => {
    const self = world.replica.sqlite
      .prepare("SELECT value FROM replica_meta WHERE key = 'self_id'")
      .pluck()
      .get() as string;
    const expected = world.replica.sqlite
      .prepare(
        `SELECT d.id FROM course_dates d JOIN course_trainers t ON t.course_id = d.course_id
         WHERE t.user_id = ?`,
      )
      .pluck()
      .all(self) as string[];
    const events = parseEvents((await exportIcs({ what: 'courses', trainerId: 'self' })).bytes);
    expect(events.map((e) => e.uid).sort()).toEqual(
      expected.map((id) => `course-date-${id}@${domain()}`).sort(),
    );
  });
});

describe('.ics of volunteer hours', () => {
  it('has one entry per hour entry of the filter, at the replica’s instants', async () => {
    const self = world.replica.sqlite
      .prepare("SELECT value FROM replica_meta WHERE key = 'self_id'")
      .pluck()
      .get() as string;
    const rows = world.replica.sqlite
      .prepare('SELECT id, von, bis, stunden FROM helferstunden WHERE user_id = ?')
      .all(self) as { id: string; von: string; bis: string | null; stunden: number }[];
    expect(rows.length).toBeGreaterThan(3);
    const result = await exportIcs({ what: 'hours', userId: 'self' });
    const events = parseEvents(result.bytes);
    expect(events).toHaveLength(rows.length);
    const byUid = new Map(events.map((e) => [e.uid, e]));
    for (const row of rows) {
      const event = byUid.get(`hours-${row.id}@${domain()}`)!;
      expect(event, row.id).toBeDefined();
      expect(event.start).toBe(Date.parse(row.von));
      expect(event.end).toBe(
        row.bis ? Date.parse(row.bis) : Date.parse(row.von) + row.stunden * 3_600_000,
      );
      expect(event.summary.startsWith('Helferstunden: ')).toBe(true);
    }
    expect(result.counted.de).toBe(`${rows.length} Helferstunden-Einträge`);
  });

  it('puts courses and hours into one calendar with --what all, every UID once', async () => {
    const courses = (await exportIcs({ what: 'courses' })).count;
    const hours = (await exportIcs({ what: 'hours' })).count;
    const all = await exportIcs({ what: 'all' });
    const events = parseEvents(all.bytes);
    expect(events).toHaveLength(courses + hours);
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
    const starts = events.map((e) => e.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('gives an entry made offline a UID from its local id, kept once the service has accepted it', async () => {
    const dispatcher = createDispatcher(world.replica);
    const self = world.replica.sqlite
      .prepare("SELECT value FROM replica_meta WHERE key = 'self_id'")
      .pluck()
      .get() as string;
    const create = async (von: string) => {
      const outcome = await dispatcher.call('helferstunden.create', {
        attributes: { von, stunden: 2 },
        relationships: {
          anlass: { data: { type: 'helferstunden_anlass', id: '1' } },
          typ: { data: { type: 'helferstunden_typ', id: '1' } },
          user: { data: { type: 'user', id: self } },
        },
      });
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
      return (outcome.value as { id: string }).id;
    };
    const exported = await create('2026-11-02T18:00:00+01:00');
    expect(exported).toMatch(/^local-/);
    const hours = async () =>
      new Map(
        parseEvents((await exportIcs({ what: 'hours', userId: 'self' })).bytes).map((e) => [
          e.uid,
          e,
        ]),
      );
    const offline = await hours();
    const localUid = `hours-${exported}@${domain()}`;
    expect(offline.get(localUid)?.start).toBe(Date.parse('2026-11-02T17:00:00Z'));
    // Made offline and not exported before the service had it: its service id from the start.
    const unexported = await create('2026-11-03T18:00:00+01:00');
    const api = createApiClient({
      baseUrl: world.sandbox.baseUrl,
      tokens: staticToken(world.officeToken),
    });
    expect(await pushOutbox({ api, sqlite: world.replica.sqlite })).toMatchObject({ done: 2 });
    const serviceId = (local: string) =>
      world.replica.sqlite
        .prepare('SELECT service_id FROM id_map WHERE local_id = ?')
        .pluck()
        .get(local) as string;
    expect(serviceId(exported)).toMatch(/^\d+$/);
    const online = await hours();
    // The same entry for the calendar (the service may have added to it: a SEQUENCE as high or higher).
    expect(online.get(localUid)?.start).toBe(Date.parse('2026-11-02T17:00:00Z'));
    expect(online.get(localUid)!.sequence).toBeGreaterThanOrEqual(offline.get(localUid)!.sequence);
    expect(online.has(`hours-${serviceId(exported)}@${domain()}`)).toBe(false);
    expect(online.get(`hours-${serviceId(unexported)}@${domain()}`)?.start).toBe(
      Date.parse('2026-11-03T17:00:00Z'),
    );
    expect(online.size).toBe(offline.size + 1);
  });
});
