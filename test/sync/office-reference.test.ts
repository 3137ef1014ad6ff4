// The queries behind the office's Kalender and Stammdaten screens (issue 23), answered from a
// replica synced from the sandbox and checked against what the service itself says (plain
// fetch): every UVT a participation names, with the favourites as /uvts gives them; every form
// of the replica by its object; the private feed's events by day and week.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { runSync } from '../../sync/pull/engine';
import { feedStatus, setFeedUrl } from '../../sync/pull/feed';
import { EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';
import { createDispatcher, typedCaller, type TypedCaller } from '../../sync/dispatch';
import { getJson, getPlainJson, list, type OracleTarget } from '../support/service-read';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let replica: Replica;
let queries: TypedCaller;
let target: OracleTarget;
let dir: string;
let feedText = '';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 23 });
  const office = sandbox.users.find((u) => u.role === 'office')!;
  target = { baseUrl: sandbox.baseUrl, token: office.accessToken };
  dir = mkdtempSync(join(tmpdir(), 'vorort-office-reference-'));
  replica = openReplica(join(dir, 'replica.sqlite'));
  // The own calendar's address is the private feed's (what the Kalender screen offers to use).
  const calendars = await list(target, '/kalender');
  const feedUrl = String(calendars.find((c) => c.attributes.ical_url)!.attributes.ical_url);
  setFeedUrl(replica, feedUrl);
  feedText = await (await fetch(feedUrl)).text();
  const summary = await runSync({
    api: createApiClient({ baseUrl: sandbox.baseUrl, tokens: staticToken(office.accessToken) }),
    replica,
    options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC },
  });
  expect(summary.ok).toBe(true);
  queries = typedCaller(createDispatcher(replica));
}, 120_000);
afterAll(async () => {
  await replica?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('reference.get', () => {
  it('lists the favourites as /uvts gives them and every UVT a participation names', async () => {
    const listed = await list(target, '/uvts');
    const { uvts } = await queries.query('reference.get', {});
    const byId = new Map(uvts.map((u) => [u.id, u]));
    for (const uvt of listed)
      expect(byId.get(uvt.id), uvt.id).toMatchObject({
        name: uvt.attributes.name,
        favorite: uvt.attributes.favorite === true,
        known: true,
      });
    // What the participations of the replica's courses name, as the service says.
    const courses = (await queries.query('courses.list', { limit: 1000 })).items;
    const named = new Set<string>();
    for (const course of courses) {
      const { data } = await getJson(target, `/courses/${course.id}/participations?include=uvt`);
      for (const participation of Array.isArray(data) ? data : [data]) {
        const uvt = (participation.relationships?.uvt as { data?: { id: string } | null })?.data;
        if (uvt) named.add(uvt.id);
      }
    }
    const unlisted = [...named].filter((id) => !listed.some((u) => u.id === id));
    // The demo's participations name UVTs beyond the favourites: the case this is about.
    expect(unlisted.length).toBeGreaterThan(0);
    for (const id of named) expect(byId.get(id)?.known, id).toBe(true);
    for (const id of unlisted) expect(byId.get(id)?.favorite, id).toBe(false);
    // The known ones first, by name; a company's UVT the service offers nowhere after them.
    const known = uvts.filter((u) => u.known);
    expect(uvts.slice(0, known.length)).toEqual(known);
    const names = known.map((u) => (u.name ?? '').toLowerCase());
    expect(names).toEqual([...names].sort());
  }, 60_000);
});

describe('forms.all', () => {
  it('gives every form of the replica by its object, in the service’s order, courses and people named', async () => {
    const objects = await queries.query('forms.all', {});
    expect(objects.some((o) => o.typ === 'k')).toBe(true);
    expect(objects.some((o) => o.typ === 'u')).toBe(true);
    for (const object of objects) {
      const served = (await getPlainJson(
        target,
        `/formulare/v1/liste?typ=${object.typ}&id=${encodeURIComponent(object.id)}`,
      )) as { titel: string; aktion: unknown }[];
      expect(object.forms, `${object.typ}:${object.id}`).toEqual(
        served.map((form) => ({ titel: form.titel, aktion: form.aktion ?? null })),
      );
      expect(object.forms).toEqual(
        await queries.query('forms.list', { typ: object.typ, id: object.id }),
      );
    }
    const course = objects.find((o) => o.typ === 'k')!;
    const { data } = await getJson(target, `/courses/${course.id}`);
    const attributes = (Array.isArray(data) ? data[0]! : data).attributes;
    expect(course.label).toBe(`${String(attributes.course_number)} ${String(attributes.title)}`);
    const person = objects.find((o) => o.typ === 'u')!;
    const self = (await getJson(target, '/personal/selbst')).data;
    const me = Array.isArray(self) ? self[0]! : self;
    expect(person.id).toBe(me.id);
    expect(person.label).toBe(`${String(me.attributes.vorname)} ${String(me.attributes.nachname)}`);
  }, 60_000);
});

describe('feed.events', () => {
  /** The feed's events as the service serves them: UID and first Berlin day. */
  const served = () =>
    feedText
      .replace(/\r\n[ \t]/g, '')
      .split('BEGIN:VEVENT')
      .slice(1)
      .map((block) => {
        const uid = /\r?\nUID:(.*)/.exec(block)![1]!.trim();
        const start = /\r?\nDTSTART([^:]*):(.*)/.exec(block)!;
        const value = start[2]!.trim();
        const day = /^\d{8}$/.test(value)
          ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`
          : new Date(
              `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}T${value.slice(9, 11)}:${value.slice(11, 13)}:${value.slice(13, 15)}Z`,
            ).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
        return { uid, day };
      });

  it('answers a week and a day of the feed from the replica, by start', async () => {
    const events = served();
    expect(events.length).toBeGreaterThan(3);
    expect(feedStatus(replica)?.events).toBe(events.length);
    const days = [...new Set(events.map((e) => e.day))].sort();
    const all = await queries.query('feed.events', { from: days[0]!, until: days.at(-1)! });
    expect(all.map((e) => e.uid).sort()).toEqual(events.map((e) => e.uid).sort());
    const starts = all.map((e) => `${e.startDay} ${e.allDay ? '0' : '1'}${e.startsAt}`);
    expect(starts).toEqual([...starts].sort());

    // A week (Monday to Sunday) around the busiest day, and that day alone.
    const count = (day: string) => events.filter((e) => e.day === day).length;
    const busiest = [...days].sort((a, b) => count(b) - count(a))[0]!;
    const date = new Date(`${busiest}T12:00:00Z`);
    const monday = new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000);
    const sunday = new Date(monday.getTime() + 6 * 86_400_000);
    const [from, until] = [monday, sunday].map((d) => d.toISOString().slice(0, 10));
    const week = await queries.query('feed.events', { from: from!, until: until! });
    expect(week.map((e) => e.uid).sort()).toEqual(
      events
        .filter((e) => e.day >= from! && e.day <= until!)
        .map((e) => e.uid)
        .sort(),
    );
    const day = await queries.query('feed.events', { from: busiest, until: busiest });
    expect(day.map((e) => e.uid).sort()).toEqual(
      events
        .filter((e) => e.day === busiest)
        .map((e) => e.uid)
        .sort(),
    );
    expect(day.every((e) => e.startDay === busiest)).toBe(true);
  });

  it('refuses a day that is none', async () => {
    await expect(
      queries.query('feed.events', { from: '2026-02-30', until: '2026-03-01' }),
    ).rejects.toThrow();
  });
});
