import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { feedPath, generateDemoData, SCALES, type Scale } from './generate';
import { openStore } from './memory-store';
import { DOCUMENTED_RELATIONSHIPS, SERVED_TYPES, type ServedType } from './model';
import {
  RESOURCE_TYPES,
  type AccountAttributes,
  type ResourceRef,
  type Store,
  type StoredResource,
} from './store';
import { DAY_MS, berlinWallClockToUtc, parseDate } from './time';

const ANCHOR = '2026-03-15';
const anchorInstant = berlinWallClockToUtc(parseDate(ANCHOR), 0);

function generated(scale: Scale, seed = 1, anchorDate = ANCHOR): Store {
  const store = openStore();
  generateDemoData(store, { scale, seed, anchorDate });
  return store;
}

function dump(store: Store): string {
  return JSON.stringify([RESOURCE_TYPES.map((type) => store.all(type)), store.settings()]);
}

function refs(record: StoredResource, name: string): ResourceRef[] {
  const value = record.relationships[name];
  return value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
}

const attr = <T>(record: StoredResource, name: string): T => record.attributes[name] as T;

describe('determinism', () => {
  it('generates identical data for the same seed and anchor, different data for another seed', () => {
    const first = dump(generated('small', 5));
    expect(dump(generated('small', 5))).toBe(first);
    expect(dump(generated('small', 6))).not.toBe(first);
    expect(dump(generated('small', 5, '2026-03-16'))).not.toBe(first);
  });

  it("takes 'today' from the store clock (Berlin date)", () => {
    const store = openStore({ clock: () => new Date('2026-07-01T23:30:00Z') });
    generateDemoData(store, { scale: 'small', seed: 1, anchorDate: 'today' });
    expect(store.settings()).toEqual({
      uvtFavorites: true,
      anchorDate: '2026-07-02',
      seed: 1,
      scale: 'small',
    });
  });

  it('refuses a store that already holds data', () => {
    const store = generated('small');
    expect(() => generateDemoData(store, { scale: 'small', seed: 1, anchorDate: ANCHOR })).toThrow(
      /empty/,
    );
  });
});

describe.each(['small', 'medium'] as const)('%s scale', (scale) => {
  const store = generated(scale);
  const counts = SCALES[scale];

  it('has the scale’s counts and every resource type', () => {
    expect(store.count('user')).toBe(counts.users);
    expect(store.count('course')).toBe(counts.courses);
    expect(store.count('participation')).toBe(counts.participations);
    expect(store.count('helferstunden')).toBe(counts.hours);
    const empty = RESOURCE_TYPES.filter(
      (type) => type !== 'client_generated_id' && store.count(type) === 0,
    );
    expect(empty).toEqual([]);
    expect(store.settings()).toEqual({ uvtFavorites: true, anchorDate: ANCHOR, seed: 1, scale });
  });

  it('points every relationship at an existing record of a documented type', () => {
    const broken: string[] = [];
    for (const type of SERVED_TYPES) {
      const documented = DOCUMENTED_RELATIONSHIPS[type as ServedType];
      for (const record of store.all(type)) {
        for (const name of Object.keys(record.relationships)) {
          const allowed = documented[name];
          if (!allowed) broken.push(`${type} ${record.id}: undocumented relationship ${name}`);
          for (const ref of refs(record, name)) {
            if (!allowed?.includes(ref.type))
              broken.push(`${type} ${record.id}: ${name} → ${ref.type}`);
            if (!store.get(ref.type, ref.id))
              broken.push(`${type} ${record.id}: ${name} → missing ${ref.type} ${ref.id}`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('uses the service’s id forms and keeps every change time before the anchor', () => {
    for (const type of RESOURCE_TYPES) {
      const pattern =
        type === 'user' || type === 'account' || type === 'helferstunden_einstellungen'
          ? /^[0-9a-f]{32}$/
          : type === 'benachrichtigung'
            ? /^\d+-[0-9a-f]{32}$/
            : /^[1-9]\d*$/;
      const wrong = store
        .all(type)
        .filter((r) => !pattern.test(r.id) || Date.parse(r.updatedAt) >= anchorInstant);
      expect(wrong.map((r) => `${type} ${r.id} ${r.updatedAt}`)).toEqual([]);
    }
  });

  it('has the demo accounts: one office, three trainers, two members, with their own data', () => {
    const accounts = store.all('account');
    const roles = accounts.map((a) => attr<string>(a, 'role')).sort();
    expect(roles).toEqual(['member', 'member', 'office', 'trainer', 'trainer', 'trainer']);
    for (const account of accounts) {
      const { feedHash } = account.attributes as unknown as AccountAttributes;
      const user = store.get('user', account.id)!;
      expect(attr(user, 'status')).toBe('aktiv');
      const calendars = store.related('kalender', 'user', account.id);
      expect(calendars.length).toBeGreaterThanOrEqual(2);
      for (const calendar of calendars) expect(attr(calendar, 'ical_url')).toBe(feedPath(feedHash));
      expect(
        store.all('benachrichtigung').filter((n) => n.id.endsWith(`-${account.id}`)).length,
      ).toBeGreaterThanOrEqual(3);
      expect(store.related('helferstunden', 'user', account.id).length).toBeGreaterThan(3);
      const settings = store.get('helferstunden_einstellungen', account.id)!;
      const active = store.all('helferstunden_typ').filter((t) => attr(t, 'aktiv'));
      expect(refs(settings, 'typen').map((r) => r.id)).toEqual(active.map((t) => t.id));
    }
  });

  it('gives trainer1 at least three courses in the default window (today to +12 months)', () => {
    const trainer1 = store.all('user').find((u) => attr(u, 'username') === 'trainer1')!;
    const windowEnd = parseDate('2027-03-15');
    const inWindow = store.related('course', 'trainers', trainer1.id).filter((course) =>
      refs(course, 'dates').some((ref) => {
        const from = Date.parse(attr(store.get('course_date', ref.id)!, 'from'));
        return from >= anchorInstant && from < windowEnd;
      }),
    );
    expect(inWindow.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps courses consistent with their participations and cancellations', () => {
    for (const course of store.all('course')) {
      const participations = store.related('participation', 'course', course.id);
      const attending = participations.filter((p) => attr(p, 'status') !== 'cancelled');
      expect(attr(course, 'number_of_participants')).toBe(attending.length);
      expect(attr<number>(course, 'max_participants')).toBeGreaterThanOrEqual(attending.length);
      expect(refs(course, 'dates').length).toBeGreaterThanOrEqual(1);
      expect(refs(course, 'trainers').length).toBeGreaterThanOrEqual(1);
    }
    for (const participation of store.all('participation')) {
      const cancellations = store.related('cancellation', 'participation', participation.id);
      expect(cancellations.length).toBe(attr(participation, 'status') === 'cancelled' ? 1 : 0);
      expect(attr(participation, 'attended')).toBe(attr(participation, 'status') === 'attended');
    }
    const first = parseDate('2025-09-14');
    const last = parseDate('2027-03-22');
    for (const date of store.all('course_date')) {
      const from = Date.parse(attr(date, 'from'));
      expect(from).toBeGreaterThanOrEqual(first);
      expect(from).toBeLessThan(last);
      expect(Date.parse(attr(date, 'to'))).toBeGreaterThan(from);
    }
  });

  it('embeds in every user exactly the user’s trainings', () => {
    for (const user of store.all('user')) {
      const records = store
        .related('ausbildung', 'user', user.id)
        .map(({ id, attributes }) => ({ id, ...attributes }));
      const embedded = [...attr<{ id: string }[]>(user, 'ausbildungen')].sort(
        (a, b) => Number(a.id) - Number(b.id),
      );
      expect(embedded).toEqual(records);
      expect(attr(user, 'gesperrt')).toBe(attr(user, 'status') === 'gesperrt');
      expect(attr(user, 'name')).toBe(`${attr(user, 'nachname')}, ${attr(user, 'vorname')}`);
    }
  });

  it('writes hour entries whose hours match their times, mostly approved', () => {
    const entries = store.all('helferstunden');
    const from = anchorInstant - 549 * DAY_MS;
    for (const entry of entries) {
      const von = Date.parse(attr(entry, 'von'));
      const bis = attr<string | null>(entry, 'bis');
      expect(von).toBeGreaterThanOrEqual(from);
      if (bis !== null) expect(attr(entry, 'stunden')).toBe((Date.parse(bis) - von) / 3_600_000);
      expect(attr<number>(entry, 'stunden')).toBeGreaterThan(0);
    }
    const approved = entries.filter((e) => attr(e, 'freigegeben')).length / entries.length;
    expect(approved).toBeGreaterThan(0.75);
    expect(approved).toBeLessThan(0.95);
    expect(entries.some((e) => attr(e, 'bis') === null)).toBe(true);
    const inactive = store.all('helferstunden_typ').find((t) => !attr(t, 'aktiv'))!;
    expect(store.related('helferstunden', 'typ', inactive.id).length).toBeGreaterThan(0);
  });

  it('has hours only for work done before the anchor, entered after it, and plans ahead', () => {
    for (const entry of store.all('helferstunden')) {
      const von = Date.parse(attr(entry, 'von'));
      const end = von + attr<number>(entry, 'stunden') * 3_600_000;
      expect(end, entry.id).toBeLessThanOrEqual(anchorInstant);
      expect(Date.parse(attr(entry, 'created_at')), entry.id).toBeGreaterThanOrEqual(end);
    }
    for (const anlass of store.all('helferstunden_anlass'))
      expect(attr<string>(anlass, 'datum') < ANCHOR, anlass.id).toBe(true);
    const ahead = ['dienst', 'termin'] as const;
    for (const type of ahead)
      expect(
        store.all(type).filter((e) => Date.parse(attr(e, 'beginn')) > anchorInstant).length,
        type,
      ).toBeGreaterThan(0);
  });

  it('links service and appointment occasions to their event, other occasions to nothing', () => {
    for (const anlass of store.all('helferstunden_anlass')) {
      const [referenz] = refs(anlass, 'referenz');
      const typ = attr<string>(anlass, 'typ');
      expect(referenz?.type ?? null).toBe(typ === 'dienst' || typ === 'termin' ? typ : null);
    }
  });

  it('offers forms for real objects of every kind', () => {
    const kinds = new Map<string, ServedType | null>([
      ['d', 'dienst'],
      ['t', 'termin'],
      ['k', 'course'],
      ['u', 'user'],
      ['m', null],
    ]);
    for (const form of store.all('formular')) {
      const objektTyp = attr<string>(form, 'objekt_typ');
      expect(kinds.has(objektTyp)).toBe(true);
      const type = kinds.get(objektTyp);
      if (type) expect(store.get(type, attr(form, 'objekt_id'))).toBeDefined();
    }
    const present = new Set(store.all('formular').map((f) => attr<string>(f, 'objekt_typ')));
    expect([...present].sort()).toEqual(['d', 'k', 'm', 't', 'u']);
  });
});

describe('persisted demo data', () => {
  const folder = mkdtempSync(join(tmpdir(), 'vorort-generate-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reopens from the file with the same data', () => {
    const file = join(folder, 'demo.sqlite');
    const store = openStore({ file });
    generateDemoData(store, { scale: 'small', seed: 3, anchorDate: ANCHOR });
    const written = dump(store);
    store.close();
    const reopened = openStore({ file });
    expect(dump(reopened)).toBe(written);
    reopened.close();
  });
});
