// The private calendar feed in the replica: fetched by the sync (one request, counted), its events
// equal to what the service serves (read independently with ical.js), exported as .ics with the
// service's UIDs; a feed that cannot be reached or read keeps the last good events and says why;
// its secret path appears nowhere (words, status, summary). Faults the sandbox cannot make on
// purpose (garbage, too large, no answer) come from a small server of this test on loopback.
import { createServer, type Server } from 'node:http';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreFailure } from '../../sync/core-error';
import { exportData } from '../../sync/export';
import { feedStatus, getFeedUrl, refreshFeed, setFeedUrl } from '../../sync/pull/feed';
import { TcpSwitch } from '../support/tcp-switch';
import { temporaryFiles } from '../support/temp-files';
import { exportWorld, type ExportWorld } from './fixture';
import { EASTERN_VTIMEZONE } from '../support/eastern-vtimezone';

const temp = temporaryFiles('export-feed');
let world: ExportWorld;
let faulty: Server;
let faultyUrl: string;
/** What the test's own server answers next. */
let answer: { status: number; body: string; hang?: boolean } = { status: 200, body: '' };

beforeAll(async () => {
  world = await exportWorld(temp('replica.sqlite'));
  faulty = createServer((request, response) => {
    if (answer.hang) return; // never answers
    response.writeHead(answer.status, { 'content-type': 'text/calendar; charset=utf-8' });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => faulty.listen(0, '127.0.0.1', resolve));
  const port = (faulty.address() as { port: number }).port;
  faultyUrl = `http://127.0.0.1:${port}/ical/v1/veranstaltungen/private-0123456789abcdefsecret/termine.ics`;
}, 60_000);
afterAll(async () => {
  faulty?.closeAllConnections();
  await new Promise((resolve) => faulty?.close(resolve));
  await world?.close();
});

interface FeedEvent {
  uid: string;
  start: number;
  end: number | null;
  summary: string;
}

function eventsOf(text: string): FeedEvent[] {
  return new ICAL.Component(ICAL.parse(text) as unknown[])
    .getAllSubcomponents('vevent')
    .map((component) => {
      const event = new ICAL.Event(component);
      return {
        uid: event.uid,
        start: event.startDate.toUnixTime() * 1000,
        end: event.endDate ? event.endDate.toUnixTime() * 1000 : null,
        summary: event.summary,
      };
    })
    .sort((a, b) => a.start - b.start || a.uid.localeCompare(b.uid));
}

const secretOf = (url: string) => new URL(url).pathname;

describe('the private feed', () => {
  it('is fetched by the sync as one counted request, and the replica holds what the service serves', async () => {
    const { sandbox } = world;
    sandbox.clearRequests();
    const without = await world.sync();
    const unlogged = without.requests - sandbox.requests.length;
    setFeedUrl(world.replica, sandbox.feedUrl);
    sandbox.clearRequests();
    const summary = await world.sync();
    expect(summary.ok).toBe(true);
    const feedRequests = sandbox.requests.filter((r) => r.path.includes('/ical/v1/'));
    expect(feedRequests).toHaveLength(1);
    // Every request the service saw is in the summary (OAuth's user-info is not in its log).
    expect(summary.requests - sandbox.requests.length).toBe(unlogged);
    const served = eventsOf(await (await fetch(sandbox.feedUrl)).text());
    expect(served.length).toBeGreaterThan(3);
    expect(summary.collections.private_feed).toMatchObject({ records: served.length, requests: 1 });
    const stored = world.replica.sqlite
      .prepare('SELECT uid, starts_at, ends_at, summary FROM feed_events ORDER BY starts_at, uid')
      .all() as { uid: string; starts_at: string; ends_at: string; summary: string }[];
    expect(
      stored.map((row) => ({
        uid: row.uid,
        start: Date.parse(row.starts_at),
        end: Date.parse(row.ends_at),
        summary: row.summary,
      })),
    ).toEqual(served);
    expect(JSON.stringify(summary)).not.toContain(secretOf(sandbox.feedUrl));
  });

  it('is exported as .ics with the service’s UIDs, instants and summaries', async () => {
    const result = await exportData(world.replica, { format: 'ics', what: 'events' });
    const exported = eventsOf(new TextDecoder().decode(result.bytes));
    const served = eventsOf(await (await fetch(world.sandbox.feedUrl)).text());
    expect(exported).toEqual(served);
    expect(result.note).toBeUndefined();
    expect(result.fileName).toBe('termine.ics');
  });

  it('keeps its events when the service cannot be reached, saying why with the host only', async () => {
    const before = feedStatus(world.replica)!.events;
    const gate = new TcpSwitch(Number(new URL(world.sandbox.baseUrl).port));
    await gate.start();
    try {
      const through = gate.through(world.sandbox.feedUrl);
      setFeedUrl(world.replica, through);
      expect((await refreshFeed(world.replica))?.ok).toBe(true);
      await gate.stop();
      const failed = await refreshFeed(world.replica);
      expect(failed).toMatchObject({ ok: false, failure: 'network', events: before });
      expect(failed!.ok || failed!.error.de).toContain(`http://127.0.0.1:${gate.port}/…`);
      // A sync says it too, and is incomplete for it; the service's own collections are fine.
      const summary = await world.sync();
      expect(summary.ok).toBe(false);
      expect(summary.collections.private_feed?.error).toContain('not reachable');
      expect(
        Object.entries(summary.collections)
          .filter(([, r]) => r.error)
          .map(([c]) => c),
      ).toEqual(['private_feed']);
      const status = feedStatus(world.replica)!;
      expect(status).toMatchObject({
        ok: false,
        events: before,
        address: `http://127.0.0.1:${gate.port}/…`,
      });
      expect(status.lastSuccessAt).not.toBeNull();
      const said = JSON.stringify([failed, summary, status]);
      expect(said).not.toContain(secretOf(through));
    } finally {
      await gate.stop();
    }
  });

  it('keeps its events when the answer is not a calendar, too large, an error or no answer', async () => {
    setFeedUrl(world.replica, faultyUrl);
    answer = {
      status: 200,
      body: [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Test//EN',
        'BEGIN:VEVENT',
        'UID:one@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20260301T090000Z',
        'DTEND:20260301T100000Z',
        'SUMMARY:Eins',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    };
    expect(await refreshFeed(world.replica)).toMatchObject({ ok: true, events: 1 });
    const cases: [typeof answer, Parameters<typeof refreshFeed>[1], string, string][] = [
      [{ status: 200, body: '<html>Anmeldung</html>' }, {}, 'unparsable', 'kein lesbarer Kalender'],
      [
        { status: 200, body: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:kaputt\r\n' },
        {},
        'unparsable',
        'kein lesbarer Kalender',
      ],
      [{ status: 200, body: 'x'.repeat(5000) }, { maxBytes: 1000 }, 'too_large', 'größer als'],
      [{ status: 404, body: '' }, {}, 'http', 'HTTP 404'],
      [{ status: 503, body: '' }, {}, 'http', 'HTTP 503'],
      [
        { status: 200, body: '', hang: true },
        { timeoutMs: 300 },
        'timeout',
        'keine Antwort binnen',
      ],
    ];
    for (const [next, options, failure, words] of cases) {
      answer = next;
      const outcome = await refreshFeed(world.replica, options);
      expect(outcome, failure).toMatchObject({ ok: false, failure, events: 1 });
      expect(outcome!.ok || outcome!.error.de).toContain(words);
      expect(JSON.stringify(outcome)).not.toContain('0123456789abcdefsecret');
      expect(world.replica.sqlite.prepare('SELECT uid FROM feed_events').pluck().all()).toEqual([
        'one@test',
      ]);
    }
  });

  it('reads zones as the feed defines them, and a time without one as Berlin time', async () => {
    setFeedUrl(world.replica, faultyUrl);
    answer = {
      status: 200,
      body: [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Test//EN',
        ...EASTERN_VTIMEZONE,
        'BEGIN:VEVENT',
        'UID:zone@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;TZID=Eastern:20260701T100000',
        'DTEND;TZID=Eastern:20260701T110000',
        'SUMMARY:Mit VTIMEZONE',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:iana@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;TZID=Europe/Berlin:20260330T100000',
        'DURATION:PT2H',
        'SUMMARY:IANA-Zone ohne VTIMEZONE',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:floating@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20261026T100000',
        'DTEND:20261026T120000',
        'SUMMARY:Ohne Zone',
        'SEQUENCE:4',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:allday@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;VALUE=DATE:20261224',
        'DTEND;VALUE=DATE:20261227',
        'SUMMARY:Weihnachten\\, ganztägig',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:weekly@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20260105T180000Z',
        'DTEND:20260105T200000Z',
        'RRULE:FREQ=WEEKLY;COUNT=10',
        'SUMMARY:Dienstabend',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    };
    expect(await refreshFeed(world.replica)).toMatchObject({ ok: true, events: 5 });
    const result = await exportData(world.replica, { format: 'ics', what: 'events' });
    const calendar = new ICAL.Component(
      ICAL.parse(new TextDecoder().decode(result.bytes)) as unknown[],
    );
    const events = new Map(
      calendar
        .getAllSubcomponents('vevent')
        .map((c) => [String(c.getFirstPropertyValue('uid')), c]),
    );
    const start = (uid: string) => new ICAL.Event(events.get(uid)!).startDate.toUnixTime() * 1000;
    expect(start('zone@test')).toBe(Date.parse('2026-07-01T14:00:00Z'));
    expect(start('iana@test')).toBe(Date.parse('2026-03-30T08:00:00Z'));
    expect(new ICAL.Event(events.get('iana@test')!).endDate.toUnixTime() * 1000).toBe(
      Date.parse('2026-03-30T10:00:00Z'),
    );
    expect(start('floating@test')).toBe(Date.parse('2026-10-26T09:00:00Z'));
    expect(new ICAL.Event(events.get('floating@test')!).sequence).toBe(4);
    const allDay = new ICAL.Event(events.get('allday@test')!);
    expect(allDay.startDate.isDate).toBe(true);
    expect(allDay.startDate.toString()).toBe('2026-12-24');
    expect(allDay.endDate.toString()).toBe('2026-12-27');
    expect(allDay.summary).toBe('Weihnachten, ganztägig');
    expect(String(events.get('weekly@test')!.getFirstPropertyValue('rrule'))).toBe(
      'FREQ=WEEKLY;COUNT=10',
    );
  });

  it('gives a series and its changed day one SEQUENCE, the same until one of them changes', async () => {
    setFeedUrl(world.replica, faultyUrl);
    const feed = (moved: string) =>
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        'BEGIN:VEVENT',
        'UID:series@test',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20260105T180000Z',
        'DTEND:20260105T200000Z',
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'SUMMARY:Dienstabend',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:series@test',
        'DTSTAMP:20260101T000000Z',
        'RECURRENCE-ID:20260112T180000Z',
        `DTSTART:${moved}`,
        'DTEND:20260113T200000Z',
        'SUMMARY:Dienstabend (verlegt)',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
    const sequences = async () => {
      const result = await exportData(world.replica, { format: 'ics', what: 'events' });
      const calendar = new ICAL.Component(
        ICAL.parse(new TextDecoder().decode(result.bytes)) as unknown[],
      );
      return calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c).sequence);
    };
    answer = { status: 200, body: feed('20260113T180000Z') };
    expect(await refreshFeed(world.replica)).toMatchObject({ ok: true, events: 2 });
    const first = await sequences();
    expect(first).toHaveLength(2);
    expect(new Set(first).size).toBe(1);
    expect(await sequences()).toEqual(first);
    expect(await sequences()).toEqual(first);
    answer = { status: 200, body: feed('20260113T190000Z') };
    expect(await refreshFeed(world.replica)).toMatchObject({ ok: true, events: 2 });
    expect(await sequences()).toEqual(first.map((n) => n + 1));
  });

  it('takes https (http only on this computer), and forgets the old events with another address', async () => {
    const refused = (url: string) => {
      try {
        setFeedUrl(world.replica, url);
      } catch (error) {
        expect(error).toBeInstanceOf(CoreFailure);
        return (error as CoreFailure).messages;
      }
      throw new Error(`accepted ${url}`);
    };
    expect(refused('ftp://example.org/private-abc/termine.ics').de).toContain('https://');
    const plain = refused('http://feeds.example.org/ical/v1/veranstaltungen/private-geheim/x.ics');
    expect(plain.en).toContain('http://feeds.example.org/…');
    expect(JSON.stringify(plain)).not.toContain('geheim');
    expect(refused('kein Link').de).toContain('keine URL');
    setFeedUrl(
      world.replica,
      'https://feeds.example.org/ical/v1/veranstaltungen/private-neu/t.ics',
    );
    expect(world.replica.sqlite.prepare('SELECT count(*) FROM feed_events').pluck().get()).toBe(0);
    expect(feedStatus(world.replica)).toMatchObject({
      address: 'https://feeds.example.org/…',
      events: 0,
      ok: null,
    });
    setFeedUrl(world.replica, null);
    expect(getFeedUrl(world.replica.sqlite)).toBeNull();
    expect(feedStatus(world.replica)).toBeNull();
    const empty = await exportData(world.replica, { format: 'ics', what: 'events' });
    expect(empty).toMatchObject({ empty: true, count: 0 });
    expect(empty.note?.de).toContain('Kein privater Kalender-Feed eingerichtet');
  });
});
