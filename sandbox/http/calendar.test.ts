// Calendars and the private iCal feed (parsed with ical.js), notifications, forms, tax rates
// and the organisation's master data.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountAttributes } from '../data/store';
import { startSandbox, type RunningSandbox } from '../server';
import { ApiClient, expectError, many, one, relId } from './test-client';

let sandbox: RunningSandbox;
let office: ApiClient;
let member: ApiClient;
let memberId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 9, prefix: '/core/v1' });
  office = ApiClient.as(sandbox, 'office');
  member = ApiClient.as(sandbox, 'member');
  memberId = sandbox.users.find((user) => user.role === 'member')!.id;
});
afterAll(() => sandbox.close());

function feedUrlOf(userId: string): string {
  const account = sandbox.store.get('account', userId)!.attributes as unknown as AccountAttributes;
  return `${sandbox.baseUrl}/ical/v1/veranstaltungen/private-${account.feedHash}/termine.ics`;
}

interface ParsedEvent {
  uid: string;
  props: Record<string, unknown>;
}

async function fetchFeed(
  url: string,
): Promise<{ text: string; events: ParsedEvent[]; calendar: ICAL.Component }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  const text = await response.text();
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const props: Record<string, unknown> = {};
    for (const name of [
      'uid',
      'categories',
      'transp',
      'class',
      'sequence',
      'dtstamp',
      'dtstart',
      'dtend',
      'summary',
      'location',
      'organizer',
      'description',
    ]) {
      props[name] = vevent.getFirstPropertyValue(name);
    }
    return { uid: String(props.uid), props };
  });
  return { text, events, calendar };
}

/** The feed's expected events, computed from the store independently of the feed module. */
function expectedUids(userId: string): string[] {
  const uids = new Set<string>();
  for (const entry of sandbox.store.related('helferstunden', 'user', userId)) {
    const anlass = sandbox.store.get(
      'helferstunden_anlass',
      (entry.relationships.anlass as { id: string }).id,
    );
    const referenz = anlass?.relationships.referenz as { type: string; id: string } | null;
    if (referenz) uids.add(`${referenz.type}-${referenz.id}@vorort-sandbox`);
  }
  const courseIds = new Set(
    sandbox.store.related('course', 'trainers', userId).map((course) => course.id),
  );
  for (const participation of sandbox.store.related('participation', 'user', userId)) {
    if (participation.attributes.status !== 'cancelled')
      courseIds.add((participation.relationships.course as { id: string }).id);
  }
  for (const courseId of courseIds) {
    const course = sandbox.store.get('course', courseId)!;
    if (course.attributes.status === 'cancelled') continue;
    for (const date of course.relationships.dates as { id: string }[])
      uids.add(`course-${courseId}-${date.id}@vorort-sandbox`);
  }
  return [...uids].sort();
}

describe('the private iCal feed', () => {
  it('is a valid calendar with CRLF lines folded at 75 octets', async () => {
    const { text, calendar } = await fetchFeed(sandbox.feedUrl);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
  });

  it("holds the owner's services, appointments and courses with every field, times in UTC", async () => {
    const trainer = sandbox.users.find((user) => user.role === 'trainer')!;
    for (const userId of [sandbox.users[0]!.id, trainer.id, memberId]) {
      const { text, events } = await fetchFeed(feedUrlOf(userId));
      expect(events.map((event) => event.uid).sort()).toEqual(expectedUids(userId));
      for (const event of events) {
        for (const name of [
          'uid',
          'categories',
          'transp',
          'class',
          'sequence',
          'dtstamp',
          'dtstart',
          'dtend',
          'summary',
          'location',
          'organizer',
        ]) {
          expect(event.props[name], `${name} of ${event.uid}`).not.toBeNull();
        }
        expect(['Dienst', 'Termin', 'Kurs']).toContain(event.props.categories);
        const start = (event.props.dtstart as ICAL.Time).toJSDate().getTime();
        const end = (event.props.dtend as ICAL.Time).toJSDate().getTime();
        expect(end).toBeGreaterThan(start);
        expect((event.props.dtstart as ICAL.Time).zone?.tzid).toBe('UTC');
      }
      expect(text).not.toMatch(/^DT(START|END|STAMP):\d{8}T\d{6}\r?$/m);
    }
    const trainerEvents = (await fetchFeed(feedUrlOf(trainer.id))).events;
    expect(trainerEvents.some((event) => event.props.categories === 'Kurs')).toBe(true);
  });

  it('unescapes to the stored texts and locations', async () => {
    const { events } = await fetchFeed(sandbox.feedUrl);
    for (const event of events.filter((candidate) => candidate.props.categories !== 'Kurs')) {
      const [type, id] = event.uid.replace('@vorort-sandbox', '').split('-') as [
        'dienst' | 'termin',
        string,
      ];
      const stored = sandbox.store.get(type, id)!;
      expect(event.props.summary).toBe(stored.attributes.titel);
      expect(event.props.location).toBe(stored.attributes.ort);
      expect(Date.parse(stored.attributes.beginn as string)).toBe(
        (event.props.dtstart as ICAL.Time).toJSDate().getTime(),
      );
    }
    expect(events.some((event) => String(event.props.location).includes(','))).toBe(true);
  });

  it('needs no token, but the right secret and a .ics name', async () => {
    expect(
      (await fetch(sandbox.feedUrl, { headers: { authorization: 'Bearer nonsense' } })).status,
    ).toBe(200);
    const unknown = await member.get(
      `/ical/v1/veranstaltungen/private-${'0'.repeat(32)}/termine.ics`,
      { token: null },
    );
    expectError(unknown, 404);
    expectError(
      await member.get(sandbox.feedUrl.replace('termine.ics', 'termine.txt'), { token: null }),
      404,
    );
  });
});

describe('calendars', () => {
  const kalenderDoc = (attributes: Record<string, unknown>) => ({
    data: { type: 'kalender', attributes },
  });

  it("lists only the caller's own calendars, each with the owner's feed URL", async () => {
    const calendars = many(await member.get('/kalender'));
    expect(calendars.length).toBeGreaterThan(0);
    for (const calendar of calendars) {
      expect(relId(calendar, 'user')).toBe(memberId);
      expect(calendar.attributes.ical_url).toBe(feedUrlOf(memberId));
    }
    expect((await fetch(calendars[0]!.attributes.ical_url as string)).status).toBe(200);
  });

  it('creates, reads and deletes a calendar', async () => {
    const created = await member.post(
      '/kalender',
      kalenderDoc({ name: 'Jugendgruppe', farbe: '#00aa55' }),
    );
    expect(created.status).toBe(201);
    const calendar = one(created);
    expect(calendar.attributes).toMatchObject({
      name: 'Jugendgruppe',
      farbe: '#00aa55',
      beschreibung: '',
      typ: 'privat',
      ical_url: feedUrlOf(memberId),
    });
    expect(calendar.id).toMatch(/^\d+$/);
    expect(one(await member.get(`/kalender/${calendar.id}`)).attributes.name).toBe('Jugendgruppe');
    expect((await member.delete(`/kalender/${calendar.id}`)).status).toBe(204);
    expectError(await member.get(`/kalender/${calendar.id}`), 404);
    expectError(await member.delete(`/kalender/${calendar.id}`), 404);
    expect(
      expectError(await member.post('/kalender', kalenderDoc({ farbe: '#000000' })), 422).source
        ?.pointer,
    ).toBe('/data/attributes/name');
  });

  it("keeps another person's calendar from members but not from office staff", async () => {
    const foreign = sandbox.store
      .all('kalender')
      .find((calendar) => (calendar.relationships.user as { id: string }).id !== memberId)!;
    expectError(await member.get(`/kalender/${foreign.id}`), 403);
    expectError(await member.delete(`/kalender/${foreign.id}`), 403);
    expect((await office.get(`/kalender/${foreign.id}`)).status).toBe(200);
  });
});

describe('notifications', () => {
  it('lists the own notifications with combined ids and meta.size', async () => {
    const answer = await member.get('/benachrichtigungen');
    const notifications = many(answer);
    expect(notifications.length).toBeGreaterThan(0);
    expect(answer.doc.meta).toEqual({ size: notifications.length });
    for (const notification of notifications)
      expect(notification.id).toMatch(new RegExp(`^\\d+-${memberId}$`));
  });

  it('marks one read, refuses other attributes, and deletes it', async () => {
    const [notification] = many(await member.get('/benachrichtigungen'));
    const patch = (attributes: Record<string, unknown>, id = notification!.id) => ({
      data: { type: 'benachrichtigung', id, attributes },
    });
    const read = one(
      await member.patch(`/benachrichtigungen/${notification!.id}`, patch({ gelesen: true })),
    );
    expect(read.attributes.gelesen).toBe(true);
    expect(read.attributes.titel).toBe(notification!.attributes.titel);
    expect(
      expectError(
        await member.patch(`/benachrichtigungen/${notification!.id}`, patch({ titel: 'x' })),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/titel');
    expect((await member.delete(`/benachrichtigungen/${notification!.id}`)).status).toBe(204);
    const after = await member.get('/benachrichtigungen');
    expect(many(after).map((n) => n.id)).not.toContain(notification!.id);
    expectError(await member.delete(`/benachrichtigungen/${notification!.id}`), 404);
  });

  it("keeps another person's notification from everyone, office staff included", async () => {
    const foreign = sandbox.store
      .all('benachrichtigung')
      .find((notification) => !notification.id.endsWith(memberId))!;
    expectError(
      await member.patch(`/benachrichtigungen/${foreign.id}`, {
        data: { type: 'benachrichtigung', id: foreign.id, attributes: { gelesen: true } },
      }),
      403,
    );
    const officeId = sandbox.users.find((user) => user.role === 'office')!.id;
    const notOffice = sandbox.store
      .all('benachrichtigung')
      .find((notification) => !notification.id.endsWith(officeId))!;
    expectError(await office.delete(`/benachrichtigungen/${notOffice.id}`), 403);
  });
});

describe('forms', () => {
  it('lists the forms of one object as plain JSON', async () => {
    const form = sandbox.store
      .all('formular')
      .find((candidate) => candidate.attributes.objekt_typ === 'k')!;
    const response = await fetch(
      `${sandbox.baseUrl}/formulare/v1/liste?typ=k&id=${form.attributes.objekt_id as string}`,
      {
        headers: { authorization: `Bearer ${office.token}` },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const forms = (await response.json()) as { titel: string; aktion: { url: string } }[];
    const expected = sandbox.store
      .all('formular')
      .filter(
        (f) =>
          f.attributes.objekt_typ === 'k' && f.attributes.objekt_id === form.attributes.objekt_id,
      );
    expect(forms).toEqual(
      expected.map((f) => ({ titel: f.attributes.titel, aktion: f.attributes.aktion })),
    );
    expect(forms[0]).not.toHaveProperty('objekt_typ');
  });

  it('needs both parameters and a known kind and object', async () => {
    expect(expectError(await office.get('/formulare/v1/liste?id=1'), 400).source?.parameter).toBe(
      'typ',
    );
    expect(expectError(await office.get('/formulare/v1/liste?typ=k'), 400).source?.parameter).toBe(
      'id',
    );
    expect(
      expectError(await office.get('/formulare/v1/liste?typ=x&id=1'), 400).source?.parameter,
    ).toBe('typ');
    expectError(await office.get('/formulare/v1/liste?typ=d&id=999999'), 404);
    const material = await fetch(`${sandbox.baseUrl}/formulare/v1/liste?typ=m&id=4711`, {
      headers: { authorization: `Bearer ${office.token}` },
    });
    expect(material.status).toBe(200);
  });

  it("gives members their own person's forms only", async () => {
    const own = await fetch(`${sandbox.baseUrl}/formulare/v1/liste?typ=u&id=${memberId}`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(own.status).toBe(200);
    expect(Array.isArray(await own.json())).toBe(true);
    expectError(await member.get('/formulare/v1/liste?typ=k&id=1'), 403);
    expectError(await member.get(`/formulare/v1/liste?typ=u&id=${sandbox.users[0]!.id}`), 403);
  });
});

describe('tax rates and master data', () => {
  it('lists the tax rates', async () => {
    const rates = many(await office.get('/steuersaetze'));
    expect(rates.length).toBe(sandbox.store.count('steuersatz'));
    expect(rates[0]!.type).toBe('steuersatz');
    expect(typeof rates[0]!.attributes.satz).toBe('number');
  });

  it("reads the own organisation's master data, with the licensed modules", async () => {
    const orga = one(await member.get('/organisation/selbst/stammdaten'));
    expect(orga.type).toBe('orga');
    expect(orga.id).toMatch(/^\d+$/);
    expect(orga.attributes.module).toContain('kurse');
    expect(orga.links.self).toBe(`${sandbox.baseUrl}/organisation/selbst/stammdaten`);
  });
});
