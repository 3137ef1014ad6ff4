// Repeating events of the private calendar feed, fetched from a small server of this test on
// loopback into a real replica file and read back through the feed.events query: every occurrence
// in the range, in the event's own zone across the DST change, EXDATE and an override honoured,
// COUNT and UNTIL, an unbounded rule only within the range, a bad RRULE costing nothing else; the
// .ics export still writes each rule once. Independent of the machine's zone and of today (run
// also with TZ=America/New_York).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../../test/support/bundled';
import { temporaryFiles } from '../../test/support/temp-files';
import type { QueryResults } from '../contract';
import { openReplica, type Replica } from '../db/open';
import { exportData } from '../export';
import { BERLIN_VTIMEZONE } from '../export/ics';
import { listFeedEvents } from '../queries/misc';
import { refreshFeed, setFeedUrl } from './feed';
import { MAX_OCCURRENCES } from './feed-recur';
import { EASTERN_VTIMEZONE } from '../../test/support/eastern-vtimezone';

const temp = temporaryFiles('feed-recur');
let server: Server;
let replica: Replica;
let body = '';
let feedUrl = '';

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  replica = openReplica(temp('replica.sqlite'));
  feedUrl = `http://127.0.0.1:${port}/ical/v1/veranstaltungen/private-abc/termine.ics`;
  setFeedUrl(replica, feedUrl);
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await replica?.close();
});

const event = (...lines: string[]) => [
  'BEGIN:VEVENT',
  'DTSTAMP:20260101T000000Z',
  ...lines,
  'END:VEVENT',
];

const calendar = (...events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//Wiederholung//DE',
    ...BERLIN_VTIMEZONE,
    ...events.flat(),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** Weekly on Tuesdays 18:00–20:00 Berlin time, without end; one Tuesday left out, one moved. */
const WEEKLY = [
  ...event(
    'UID:dienstabend@test',
    'DTSTART;TZID=Europe/Berlin:20261013T180000',
    'DTEND;TZID=Europe/Berlin:20261013T200000',
    'RRULE:FREQ=WEEKLY',
    'EXDATE;TZID=Europe/Berlin:20261110T180000',
    'SUMMARY:Dienstabend',
    'LOCATION:Wache',
  ),
  ...event(
    'UID:dienstabend@test',
    'RECURRENCE-ID;TZID=Europe/Berlin:20261117T180000',
    'DTSTART;TZID=Europe/Berlin:20261118T190000',
    'DTEND;TZID=Europe/Berlin:20261118T210000',
    'SUMMARY:Dienstabend (verlegt)',
  ),
];
/** Weekly in a zone the file does not define (the IANA's), until the exact instant of its fourth. */
const UNTIL = event(
  'UID:vienna@test',
  'DTSTART;TZID=Europe/Vienna:20261014T070000',
  'DURATION:PT1H',
  'RRULE:FREQ=WEEKLY;UNTIL=20261104T060000Z',
  'SUMMARY:Frühbesprechung',
);
/** Three days, all day. */
const COUNT = event(
  'UID:lehrgang@test',
  'DTSTART;VALUE=DATE:20261015',
  'DTEND;VALUE=DATE:20261016',
  'RRULE:FREQ=DAILY;COUNT=3',
  'SUMMARY:Lehrgang',
);
const BAD = event(
  'UID:kaputt@test',
  'DTSTART:20261016T100000Z',
  'DTEND:20261016T110000Z',
  'RRULE:FREQ=SOMETIMES;COUNT=3',
  'SUMMARY:Kaputte Regel',
);
const SINGLE = event(
  'UID:einmal@test',
  'DTSTART:20261019T090000Z',
  'DTEND:20261019T100000Z',
  'SUMMARY:Einmalig',
);

type FeedEvent = QueryResults['feed.events'][number];
const ask = (from: string, until: string) => listFeedEvents(replica.db, { from, until });
const of = (events: FeedEvent[], uid: string) => events.filter((e) => e.uid === uid);
const times = (events: FeedEvent[]) => events.map((e) => [e.startDay, e.startsAt, e.endsAt]);

async function serve(text: string) {
  body = text;
  expect(await refreshFeed(replica)).toMatchObject({ ok: true });
}

describe('repeating events of the private feed', () => {
  beforeAll(() => serve(calendar(WEEKLY, UNTIL, COUNT, BAD, SINGLE)));

  it('show on every day they occur, in their own zone across the change to winter time', async () => {
    const events = await ask('2026-10-12', '2026-11-22');
    // 18:00 Berlin: 16:00 UTC in summer time, 17:00 UTC from 25 October; 10 November left out
    // (EXDATE), 17 November moved to the 18th (its own VEVENT, shown once, as that).
    expect(times(of(events, 'dienstabend@test'))).toEqual([
      ['2026-10-13', '2026-10-13T16:00:00.000Z', '2026-10-13T18:00:00.000Z'],
      ['2026-10-20', '2026-10-20T16:00:00.000Z', '2026-10-20T18:00:00.000Z'],
      ['2026-10-27', '2026-10-27T17:00:00.000Z', '2026-10-27T19:00:00.000Z'],
      ['2026-11-03', '2026-11-03T17:00:00.000Z', '2026-11-03T19:00:00.000Z'],
      ['2026-11-18', '2026-11-18T18:00:00.000Z', '2026-11-18T20:00:00.000Z'],
    ]);
    const weekly = of(events, 'dienstabend@test');
    expect(weekly.map((e) => e.summary)).toEqual([
      ...Array<string>(4).fill('Dienstabend'),
      'Dienstabend (verlegt)',
    ]);
    expect(
      weekly.every(
        (e) => e.recurring && e.location === (e.summary === 'Dienstabend' ? 'Wache' : null),
      ),
    ).toBe(true);
    // Each occurrence named by the RECURRENCE-ID it would have: distinct, the override's its own.
    expect(weekly.map((e) => e.recurrenceId)).toEqual([
      '2026-10-13T16:00:00.000Z',
      '2026-10-20T16:00:00.000Z',
      '2026-10-27T17:00:00.000Z',
      '2026-11-03T17:00:00.000Z',
      '2026-11-17T17:00:00.000Z',
    ]);
    // In a zone the file does not define: 07:00 Vienna, UNTIL the instant of 4 November's.
    expect(times(of(events, 'vienna@test'))).toEqual([
      ['2026-10-14', '2026-10-14T05:00:00.000Z', '2026-10-14T06:00:00.000Z'],
      ['2026-10-21', '2026-10-21T05:00:00.000Z', '2026-10-21T06:00:00.000Z'],
      ['2026-10-28', '2026-10-28T06:00:00.000Z', '2026-10-28T07:00:00.000Z'],
      ['2026-11-04', '2026-11-04T06:00:00.000Z', '2026-11-04T07:00:00.000Z'],
    ]);
    // COUNT=3, all day: three days, each ending the day after.
    expect(times(of(events, 'lehrgang@test'))).toEqual([
      ['2026-10-15', '2026-10-15', '2026-10-16'],
      ['2026-10-16', '2026-10-16', '2026-10-17'],
      ['2026-10-17', '2026-10-17', '2026-10-18'],
    ]);
    // A rule nobody can read: its event on its first day (it says it repeats), the others unharmed.
    expect(of(events, 'kaputt@test')).toMatchObject([
      { startDay: '2026-10-16', startsAt: '2026-10-16T10:00:00.000Z', recurring: true },
    ]);
    expect(of(events, 'einmal@test')).toMatchObject([{ startDay: '2026-10-19', recurring: false }]);
    // By day, all-day first, then by start.
    const order = events.map((e) => `${e.startDay} ${e.allDay ? '' : e.startsAt}`);
    expect(order).toEqual([...order].sort());
  });

  it('a day and a week ask only their days; an unbounded rule runs on, the ended ones do not', async () => {
    const day = await ask('2026-10-27', '2026-10-27');
    expect(day.map((e) => [e.uid, e.startsAt])).toEqual([
      ['dienstabend@test', '2026-10-27T17:00:00.000Z'],
    ]);
    const far = await ask('2031-06-02', '2031-06-08');
    expect(times(far)).toEqual([
      ['2031-06-03', '2031-06-03T16:00:00.000Z', '2031-06-03T18:00:00.000Z'],
    ]);
    // Ten years of Tuesdays on, still the same wall-clock time, by either side of the change.
    expect(times(await ask('2036-12-29', '2037-01-04'))).toEqual([
      ['2036-12-30', '2036-12-30T17:00:00.000Z', '2036-12-30T19:00:00.000Z'],
    ]);
    expect(await ask('2026-10-01', '2026-10-12')).toEqual([]);
  });

  it('finds a series of decades in the range asked, its rhythm (INTERVAL, BYDAY) kept', async () => {
    await serve(
      calendar(
        event(
          'UID:alle-drei-tage@test',
          'DTSTART;TZID=Europe/Berlin:20000101T180000',
          'DTEND;TZID=Europe/Berlin:20000101T183000',
          'RRULE:FREQ=DAILY;INTERVAL=3',
          'SUMMARY:Alle drei Tage',
        ),
        event(
          'UID:zweiwoechentlich@test',
          'DTSTART;TZID=Europe/Berlin:20000103T073000',
          'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;UNTIL=20400101T000000Z',
          'SUMMARY:Zweiwöchentlich',
        ),
        event(
          'UID:monatsende@test',
          'DTSTART;TZID=Europe/Berlin:20000128T200000',
          'RRULE:FREQ=MONTHLY;BYDAY=-1FR',
          'SUMMARY:Letzter Freitag',
        ),
        event(
          'UID:jahrestag@test',
          'DTSTART;VALUE=DATE:19900131',
          'RRULE:FREQ=YEARLY',
          'SUMMARY:Gründungstag',
        ),
      ),
    );
    const from = '2031-01-01';
    const until = '2031-01-31';
    const days = (day: string, since: string) =>
      (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / 86_400_000;
    const expected = { every3: [] as string[], fortnight: [] as string[] };
    for (
      let day = from;
      day <= until;
      day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    ) {
      if (days(day, '2000-01-01') % 3 === 0) expected.every3.push(`${day}T17:00:00.000Z`);
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      if (Math.floor(days(day, '2000-01-03') / 7) % 2 === 0 && (weekday === 1 || weekday === 4))
        expected.fortnight.push(`${day}T06:30:00.000Z`);
    }
    const events = await ask(from, until);
    expect(of(events, 'alle-drei-tage@test').map((e) => e.startsAt)).toEqual(expected.every3);
    expect(of(events, 'zweiwoechentlich@test').map((e) => e.startsAt)).toEqual(expected.fortnight);
    // The last Friday of January 2031, 20:00 Berlin; the day of the founding, all day.
    let lastFriday = 31;
    while (new Date(Date.UTC(2031, 0, lastFriday)).getUTCDay() !== 5) lastFriday -= 1;
    expect(of(events, 'monatsende@test').map((e) => e.startsAt)).toEqual([
      `2031-01-${lastFriday}T19:00:00.000Z`,
    ]);
    expect(times(of(events, 'jahrestag@test'))).toEqual([
      ['2031-01-31', '2031-01-31', '2031-02-01'],
    ]);
    expect(expected.every3).toHaveLength(10);
    expect(expected.fortnight).toHaveLength(4);
  });

  it('caps an unbounded rule of many occurrences, and reads the moved occurrence wherever it went', async () => {
    await serve(
      calendar(
        event(
          'UID:minute@test',
          'DTSTART:20261013T000000Z',
          'RRULE:FREQ=MINUTELY',
          'SUMMARY:Jede Minute',
        ),
        // Its override moved out of the range asked: the occurrence is not shown in it twice.
        ...[WEEKLY],
      ),
    );
    const events = await ask('2026-11-17', '2026-11-17');
    expect(of(events, 'minute@test')).toHaveLength(0);
    expect(of(events, 'dienstabend@test')).toEqual([]);
    const week = await ask('2026-10-13', '2026-10-19');
    expect(of(week, 'minute@test')).toHaveLength(MAX_OCCURRENCES);
    expect(of(week, 'dienstabend@test')).toHaveLength(1);
  });

  it('an older replica’s rows (fetched before migration 11) show on their first day until the next fetch', async () => {
    await serve(calendar(WEEKLY));
    replica.sqlite.prepare('UPDATE feed_events SET ical = NULL, last_day = NULL').run();
    expect(times(await ask('2026-10-12', '2026-11-08'))).toEqual([
      ['2026-10-13', '2026-10-13T16:00:00.000Z', '2026-10-13T18:00:00.000Z'],
    ]);
    await serve(calendar(WEEKLY));
    expect(await ask('2026-10-12', '2026-11-08')).toHaveLength(4);
  });

  it('is exported as .ics with each rule once, not its occurrences', async () => {
    await serve(calendar(WEEKLY, UNTIL, COUNT, BAD, SINGLE));
    const result = await exportData(replica, { format: 'ics', what: 'events' });
    const text = new TextDecoder().decode(result.bytes);
    const events = new ICAL.Component(ICAL.parse(text) as unknown[]).getAllSubcomponents('vevent');
    const rules = events.map((c) => [
      String(c.getFirstPropertyValue('uid')),
      c.hasProperty('recurrence-id'),
      c.getFirstPropertyValue('rrule')?.toString() ?? null,
    ]);
    expect(rules).toEqual(
      expect.arrayContaining([
        ['dienstabend@test', false, 'FREQ=WEEKLY'],
        ['dienstabend@test', true, null],
        ['vienna@test', false, 'FREQ=WEEKLY;UNTIL=20261104T060000Z'],
        ['lehrgang@test', false, 'FREQ=DAILY;COUNT=3'],
        // The rule nobody can read is not passed on.
        ['kaputt@test', false, null],
        ['einmal@test', false, null],
      ]),
    );
    expect(rules).toHaveLength(6);
  });

  it('is exported so that a calendar program expands it as the feed meant: own zone, EXDATE, override', async () => {
    await serve(calendar(WEEKLY, UNTIL, COUNT, SINGLE));
    const result = await exportData(replica, { format: 'ics', what: 'events' });
    const text = new TextDecoder().decode(result.bytes);
    // Read back by ical.js alone, up to the end of November.
    const occurrences = expandedByIcal(text, Date.parse('2026-12-01T00:00:00Z'));
    const berlin = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'short',
      timeStyle: 'short',
    });
    // 18:00–20:00 Berlin time on both sides of 25 October; 10 November left out (EXDATE); 17
    // November moved to the 18th, 19:00–21:00 (its own VEVENT).
    expect(
      occurrences
        .get('dienstabend@test')!
        .map(([start, end, summary]) => `${berlin.format(start)}–${berlin.format(end)} ${summary}`),
    ).toEqual([
      '13.10.26, 18:00–13.10.26, 20:00 Dienstabend',
      '20.10.26, 18:00–20.10.26, 20:00 Dienstabend',
      '27.10.26, 18:00–27.10.26, 20:00 Dienstabend',
      '03.11.26, 18:00–03.11.26, 20:00 Dienstabend',
      '18.11.26, 19:00–18.11.26, 21:00 Dienstabend (verlegt)',
      '24.11.26, 18:00–24.11.26, 20:00 Dienstabend',
    ]);
    // A zone the feed names without defining it: 07:00 Vienna time across the change too, until
    // the instant of 4 November's.
    const vienna = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Vienna',
      dateStyle: 'short',
      timeStyle: 'short',
    });
    expect(occurrences.get('vienna@test')!.map(([start]) => vienna.format(start))).toEqual([
      '14.10.26, 07:00',
      '21.10.26, 07:00',
      '28.10.26, 07:00',
      '04.11.26, 07:00',
    ]);
    // Its VTIMEZONE, made from the computer's zone data, goes on by the zone's rule for decades.
    const viennaZone = new ICAL.Timezone(
      new ICAL.Component(ICAL.parse(text) as unknown[])
        .getAllSubcomponents('vtimezone')
        .find((zone) => zone.getFirstPropertyValue('tzid') === 'Europe/Vienna')!,
    );
    const hourIn = (iso: string) =>
      ICAL.Time.fromJSDate(new Date(iso), true).convertToZone(viennaZone).hour;
    expect(['2070-01-15T12:00:00Z', '2070-07-15T12:00:00Z'].map(hourIn)).toEqual([13, 14]);
    // All-day stays dates; a single event stays a UTC instant.
    expect(
      occurrences.get('lehrgang@test')!.map(([start]) => new Date(start).toISOString()),
    ).toEqual(['2026-10-15T00:00:00.000Z', '2026-10-16T00:00:00.000Z', '2026-10-17T00:00:00.000Z']);
    expect(occurrences.get('einmal@test')).toEqual([
      [Date.parse('2026-10-19T09:00:00Z'), Date.parse('2026-10-19T10:00:00Z'), 'Einmalig'],
    ]);
    // As written: the series and its RECURRENCE-ID in the zone, with the service's VTIMEZONE once.
    const lines = text.replace(/\r\n[ \t]/g, '').split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'DTSTART;TZID=Europe/Berlin:20261013T180000',
        'EXDATE;TZID=Europe/Berlin:20261110T180000',
        'RECURRENCE-ID;TZID=Europe/Berlin:20261117T180000',
        'DTSTART;TZID=Europe/Vienna:20261014T070000',
        'DTSTART;VALUE=DATE:20261015',
        'DTSTART:20261019T090000Z',
      ]),
    );
    const berlinZone = text.indexOf(BERLIN_VTIMEZONE.join('\r\n'));
    expect(berlinZone).toBeGreaterThan(0);
    expect(text.indexOf('TZID:Europe/Berlin', berlinZone + 1)).toBe(
      text.lastIndexOf('TZID:Europe/Berlin'),
    );
  });

  it('is exported in a zone the feed defines with its VTIMEZONE, a time without zone as Berlin’s, all day as dates', async () => {
    const feed = calendar(
      event(
        'UID:eastern@test',
        'DTSTART;TZID=Eastern:20261022T100000',
        'DTEND;TZID=Eastern:20261022T110000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
        'EXDATE;TZID=Eastern:20261029T100000',
        'SUMMARY:Ostküste',
      ),
      event(
        'UID:ohne-zone@test',
        'DTSTART:20261020T180000',
        'DTEND:20261020T190000',
        'RRULE:FREQ=WEEKLY;UNTIL=20261027T180000',
        'EXDATE:20261027T180000',
        'RDATE:20261024T090000',
        'SUMMARY:Ohne Zone',
      ),
      event(
        'UID:tage@test',
        'DTSTART;VALUE=DATE:20261015',
        'DTEND;VALUE=DATE:20261016',
        'RRULE:FREQ=DAILY;COUNT=4',
        'EXDATE;VALUE=DATE:20261016',
        'SUMMARY:Tage',
      ),
      event(
        'UID:tage@test',
        'RECURRENCE-ID;VALUE=DATE:20261017',
        'DTSTART;VALUE=DATE:20261020',
        'DTEND;VALUE=DATE:20261021',
        'SUMMARY:Tage (verlegt)',
      ),
    ).replace('BEGIN:VEVENT', `${EASTERN_VTIMEZONE.join('\r\n')}\r\nBEGIN:VEVENT`);
    await serve(feed);
    const result = await exportData(replica, { format: 'ics', what: 'events' });
    const text = new TextDecoder().decode(result.bytes);
    const occurrences = expandedByIcal(text, Date.parse('2026-12-01T00:00:00Z'));
    const iso = (list: [number, number, string][] | undefined) =>
      list?.map(([start, end, summary]) => [
        new Date(start).toISOString(),
        new Date(end).toISOString(),
        summary,
      ]);
    // 10:00 Eastern on both sides of 1 November (14:00 and 15:00 UTC), 29 October left out.
    expect(iso(occurrences.get('eastern@test'))).toEqual([
      ['2026-10-22T14:00:00.000Z', '2026-10-22T15:00:00.000Z', 'Ostküste'],
      ['2026-11-05T15:00:00.000Z', '2026-11-05T16:00:00.000Z', 'Ostküste'],
    ]);
    // No zone: Berlin time, as the app shows it; its EXDATE and RDATE too.
    expect(iso(occurrences.get('ohne-zone@test'))).toEqual([
      ['2026-10-20T16:00:00.000Z', '2026-10-20T17:00:00.000Z', 'Ohne Zone'],
      ['2026-10-24T07:00:00.000Z', '2026-10-24T08:00:00.000Z', 'Ohne Zone'],
    ]);
    // All day: dates, the 16th left out, the 17th moved to the 20th.
    expect(iso(occurrences.get('tage@test'))).toEqual([
      ['2026-10-15T00:00:00.000Z', '2026-10-16T00:00:00.000Z', 'Tage'],
      ['2026-10-18T00:00:00.000Z', '2026-10-19T00:00:00.000Z', 'Tage'],
      ['2026-10-20T00:00:00.000Z', '2026-10-21T00:00:00.000Z', 'Tage (verlegt)'],
    ]);
    const lines = text.replace(/\r\n[ \t]/g, '').split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'DTSTART;TZID=Eastern:20261022T100000',
        'EXDATE;TZID=Eastern:20261029T100000',
        'DTSTART;TZID=Europe/Berlin:20261020T180000',
        'EXDATE;TZID=Europe/Berlin:20261027T180000',
        'RDATE;TZID=Europe/Berlin:20261024T090000',
        // UTC, as RFC 5545 wants it beside a DTSTART with TZID.
        'RRULE:FREQ=WEEKLY;UNTIL=20261027T170000Z',
        'DTSTART;VALUE=DATE:20261015',
        'EXDATE;VALUE=DATE:20261016',
        'RECURRENCE-ID;VALUE=DATE:20261017',
      ]),
    );
    expect(lines.filter((line) => line === 'TZID:Eastern')).toHaveLength(1);
  });
});

/** Nightly at 02:30 Berlin time on 14 March 2027: a time New York's clock skips that night. */
const NIGHT = event(
  'UID:nacht@test',
  'DTSTART;TZID=Europe/Berlin:20270314T023000',
  'DTEND;TZID=Europe/Berlin:20270314T033000',
  'RRULE:FREQ=DAILY;COUNT=2',
  'SUMMARY:Nachtübung',
);

describe('the .ics of repeating events on a computer in another zone', () => {
  it('is the same file in every zone; a time the computer’s own clock skips stays right', async () => {
    const file = temp('zones.sqlite');
    const own = openReplica(file);
    setFeedUrl(own, feedUrl);
    body = calendar(WEEKLY, UNTIL, COUNT, NIGHT);
    expect(await refreshFeed(own)).toMatchObject({ ok: true, events: 5 });
    await own.close();
    const run = promisify(execFile);
    const texts: string[] = [];
    for (const zone of ['UTC', 'America/New_York', 'Europe/Berlin']) {
      const out = temp('events.ics');
      await run(
        process.execPath,
        [CLI, 'export', '--db', file, '--format', 'ics', '--what', 'events', '--out', out],
        { env: { ...process.env, TZ: zone } },
      );
      texts.push(readFileSync(out, 'utf8'));
    }
    const night = /BEGIN:VEVENT\r\nUID:nacht@test\r\n[\s\S]*?END:VEVENT\r\n/;
    const rest = texts.map((text) => text.replace(/^DTSTAMP:.*\r\n/gm, '').replace(night, ''));
    expect(rest[1]).toBe(rest[0]);
    expect(rest[2]).toBe(rest[0]);
    for (const text of texts) {
      const occurrences = expandedByIcal(text, Date.parse('2027-04-01T00:00:00Z'));
      expect(
        occurrences
          .get('dienstabend@test')!
          .slice(0, 4)
          .map(([start]) => start),
      ).toEqual(
        [
          '2026-10-13T16:00:00Z',
          '2026-10-20T16:00:00Z',
          '2026-10-27T17:00:00Z',
          '2026-11-03T17:00:00Z',
        ].map((iso) => Date.parse(iso)),
      );
      // 02:30–03:30 Berlin time (CET) both nights, in every zone.
      expect(occurrences.get('nacht@test')!.map(([start, end]) => [start, end])).toEqual([
        [Date.parse('2027-03-14T01:30:00Z'), Date.parse('2027-03-14T02:30:00Z')],
        [Date.parse('2027-03-15T01:30:00Z'), Date.parse('2027-03-15T02:30:00Z')],
      ]);
    }
    // ical-generator would read 02:30 on New York's clock as 03:30: there that series is in UTC.
    expect(night.exec(texts[0]!)![0]).toContain('DTSTART;TZID=Europe/Berlin:20270314T023000');
    expect(night.exec(texts[1]!)![0]).toContain('DTSTART:20270314T013000Z');
  });
});

/**
 * The occurrences up to `until` of each event of an .ics text, as ical.js expands them (the zones
 * by the file's VTIMEZONEs, changed occurrences by their RECURRENCE-ID): [start, end, summary],
 * by start.
 */
function expandedByIcal(text: string, until: number): Map<string, [number, number, string][]> {
  const components = new ICAL.Component(ICAL.parse(text) as unknown[]).getAllSubcomponents(
    'vevent',
  );
  const result = new Map<string, [number, number, string][]>();
  for (const component of components) {
    if (component.hasProperty('recurrence-id')) continue;
    const uid = String(component.getFirstPropertyValue('uid'));
    const exceptions = components.filter(
      (c) => c.hasProperty('recurrence-id') && String(c.getFirstPropertyValue('uid')) === uid,
    );
    const event = new ICAL.Event(component, { exceptions });
    const found: [number, number, string][] = [];
    const iterator = event.iterator();
    for (let time = iterator.next(); time; time = iterator.next()) {
      if (time.toUnixTime() * 1000 >= until) break;
      const details = event.getOccurrenceDetails(time);
      found.push([
        details.startDate.toUnixTime() * 1000,
        details.endDate.toUnixTime() * 1000,
        details.item.summary,
      ]);
      if (!event.isRecurring()) break;
    }
    result.set(
      uid,
      found.sort((a, b) => a[0] - b[0]),
    );
  }
  return result;
}
