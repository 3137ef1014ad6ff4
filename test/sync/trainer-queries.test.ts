// The queries of the trainer's workspace (courses.days, companies.list, hours.occasions,
// hours.years, hours.suggestions, and what courses.list and participations.list gained), answered
// from replicas synced from the sandbox (an office one and a trainer's), checked against what the
// service itself says (plain fetch), never against the replica's own tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { createDispatcher, typedCaller, type TypedCaller } from '../../sync/dispatch';
import { courseWindow } from '../../sync/pull/collections/courses';
import { runSync } from '../../sync/pull/engine';
import { DEFAULT_SYNC_OPTIONS, EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';
import { addDays, serviceDay, serviceWallClock } from '../../sync/contract/service-time';
import { list, type OracleTarget } from '../support/service-oracle';
import { getJson, type Resource } from '../support/service-read';
import { temporaryFiles } from '../support/temp-files';

const file = temporaryFiles('trainer-queries');
const window = courseWindow(DEFAULT_SYNC_OPTIONS);
const today = serviceDay(new Date());

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let office: { replica: Replica; queries: TypedCaller; target: OracleTarget };
let trainer: { replica: Replica; queries: TypedCaller; target: OracleTarget; id: string };
/** The course date the test moved to a past day without the trainer's hours, and that day. */
let taught: { courseId: string; dateId: string; day: string; title: string; number: string };
/** The course the test named "Erste Hilfe für Bühnentechnik", number EH-FB-2026-46. */
let renamedCourseId: string;

const relatedId = (resource: Resource, name: string): string | null => {
  const data = (resource.relationships?.[name] as { data?: { id: string } | null } | undefined)
    ?.data;
  return data ? data.id : null;
};
const relatedIds = (resource: Resource, name: string): string[] =>
  ((resource.relationships?.[name] as { data?: { id: string }[] } | undefined)?.data ?? []).map(
    (ref) => ref.id,
  );

/** The Berlin offset of a day, e.g. +01:00 (noon, away from the switch at night). */
function berlinOffset(day: string): string {
  const noonUtc = new Date(`${day}T12:00:00Z`);
  const hours = Number(serviceWallClock(noonUtc).slice(11, 13)) - 12;
  return `+0${hours}:00`;
}

async function admin(path: string, body: unknown, method = 'POST'): Promise<void> {
  const response = await fetch(`${sandbox.admin!.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.admin!.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  expect(response.ok, await response.clone().text()).toBe(true);
}

async function syncedReplica(token: string, profile: 'office' | 'trainer'): Promise<Replica> {
  const replica = openReplica(file('replica.sqlite'));
  const summary = await runSync({
    api: createApiClient({ baseUrl: sandbox.baseUrl, tokens: staticToken(token) }),
    replica,
    options: { profile, ...EVERY_ITEM_EVERY_SYNC },
  });
  expect(summary.ok).toBe(true);
  return replica;
}

/** Every course date of the courses the service lists for `path`, with its course. */
async function serviceDays(
  target: OracleTarget,
  path: string,
): Promise<{ course: Resource; date: Resource }[]> {
  const { data, included = [] } = await getJson(target, path);
  const dates = new Map(
    included.filter((r) => r.type === 'course_date').map((r) => [r.id, r] as const),
  );
  return (data as Resource[]).flatMap((course) =>
    relatedIds(course, 'dates').map((id) => ({ course, date: dates.get(id)! })),
  );
}

const byTime = (a: { from: string | null; dateId: string }, b: typeof a) =>
  (a.from ?? '') < (b.from ?? '')
    ? -1
    : (a.from ?? '') > (b.from ?? '')
      ? 1
      : a.dateId < b.dateId
        ? -1
        : a.dateId > b.dateId
          ? 1
          : 0;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', seed: 17, admin: true });
  const officeUser = sandbox.users.find((u) => u.role === 'office')!;
  const trainerUser = sandbox.users.find((u) => u.role === 'trainer')!;
  const officeTarget = { baseUrl: sandbox.baseUrl, token: officeUser.accessToken };
  const trainerTarget = { baseUrl: sandbox.baseUrl, token: trainerUser.accessToken };

  // A course day the trainer taught a few days ago, with no hours of theirs that day: one date of
  // a course moved there (the web interface's change), the trainer added to the course.
  const ownHours = await list(
    trainerTarget,
    `/helferstunden?filter[von]=${addDays(today, -60)}&filter[bis]=${addDays(today, 1)}`,
  );
  const daysWithHours = new Set(ownHours.map((h) => String(h.attributes.von).slice(0, 10)));
  const day = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    .map((back) => addDays(today, -back))
    .find((d) => !daysWithHours.has(d))!;
  expect(day).toBeDefined();
  const courses = await list(
    officeTarget,
    `/courses?filter[from]=${window.from}&filter[until]=${window.until}`,
  );
  const course = courses.find(
    (c) =>
      c.attributes.status !== 'cancelled' &&
      relatedIds(c, 'dates').length >= 2 &&
      String(c.attributes.course_number ?? '') !== '',
  )!;
  const dateId = relatedIds(course, 'dates')[0]!;
  const offset = berlinOffset(day);
  await admin(`/courses/${course.id}/dates/${dateId}/move`, {
    from: `${day}T09:00:00${offset}`,
    to: `${day}T16:30:00${offset}`,
  });
  await admin(`/courses/${course.id}/trainers`, { add: [trainerUser.id] });
  // Small data may have no course with a client in the window: this one gets one.
  const [client] = await list(officeTarget, '/clients');
  await admin(
    `/records/course/${course.id}`,
    { relationships: { client: { type: 'client', id: client!.id } } },
    'PATCH',
  );
  // A course named as an organisation might: a number searched by its middle, a title with umlauts.
  const renamed = courses.find((c) => c.id !== course.id && c.attributes.status !== 'cancelled')!;
  await admin(
    `/records/course/${renamed.id}`,
    { attributes: { title: 'Erste Hilfe für Bühnentechnik', course_number: 'EH-FB-2026-46' } },
    'PATCH',
  );
  renamedCourseId = renamed.id;
  taught = {
    courseId: course.id,
    dateId,
    day,
    title: String(course.attributes.title),
    number: String(course.attributes.course_number),
  };

  const officeReplica = await syncedReplica(officeUser.accessToken, 'office');
  office = {
    replica: officeReplica,
    queries: typedCaller(createDispatcher(officeReplica)),
    target: officeTarget,
  };
  const trainerReplica = await syncedReplica(trainerUser.accessToken, 'trainer');
  trainer = {
    replica: trainerReplica,
    queries: typedCaller(createDispatcher(trainerReplica)),
    target: trainerTarget,
    id: trainerUser.id,
  };
}, 60_000);

afterAll(async () => {
  await office?.replica.close();
  await trainer?.replica.close();
  await sandbox?.close();
});

describe('courses.days', () => {
  it('has one row per course date of the window, oldest first, with its place in its course', async () => {
    const expected = await serviceDays(
      office.target,
      `/courses?filter[from]=${window.from}&filter[until]=${window.until}&include=client`,
    );
    const result = await office.queries.query('courses.days', { limit: 1000 });
    expect(result.total).toBe(expected.length);
    expect(result.items.map((i) => i.dateId).sort()).toEqual(expected.map((e) => e.date.id).sort());
    expect(result.items.map((i) => i.dateId)).toEqual(
      [...result.items].sort(byTime).map((i) => i.dateId),
    );
    for (const { course, date } of expected) {
      const item = result.items.find((i) => i.dateId === date.id)!;
      expect(item.courseId).toBe(course.id);
      expect(item.from).toBe(date.attributes.from);
      expect(item.to).toBe(date.attributes.to);
      expect(item.title).toBe(course.attributes.title);
      const siblings = expected
        .filter((e) => e.course.id === course.id)
        .map((e) => ({ from: String(e.date.attributes.from), dateId: e.date.id }))
        .sort(byTime);
      expect(item.dayCount).toBe(siblings.length);
      expect(item.dayNumber).toBe(siblings.findIndex((s) => s.dateId === date.id) + 1);
    }
    expect(result.items.some((i) => i.dayCount > 1)).toBe(true);
  });

  it('names the client, as courses.list does', async () => {
    const clients = new Map((await list(office.target, '/clients')).map((c) => [c.id, c]));
    const courses = await list(
      office.target,
      `/courses?filter[from]=${window.from}&filter[until]=${window.until}&include=client`,
    );
    const withClient = courses.filter((c) => relatedId(c, 'client') !== null);
    expect(withClient.length).toBeGreaterThan(0);
    const days = await office.queries.query('courses.days', { limit: 1000 });
    const listed = await office.queries.query('courses.list', { limit: 1000 });
    for (const course of courses) {
      const clientId = relatedId(course, 'client');
      const name = clientId ? (clients.get(clientId)?.attributes.name ?? null) : null;
      expect(listed.items.find((c) => c.id === course.id)?.client, course.id).toBe(name);
      for (const day of days.items.filter((d) => d.courseId === course.id))
        expect(day.client).toBe(name);
    }
  });

  it('filters by day range, trainer and search like courses.list, and pages', async () => {
    const all = (await office.queries.query('courses.days', { limit: 1000 })).items;
    const from = addDays(today, -20);
    const until = addDays(today, 60);
    const ranged = await office.queries.query('courses.days', { from, until, limit: 1000 });
    const inRange = all.filter((i) => i.from! >= from && i.from!.slice(0, 10) <= until);
    expect(ranged.items.map((i) => i.dateId)).toEqual(inRange.map((i) => i.dateId));
    expect(ranged.total).toBe(inRange.length);

    const mine = await serviceDays(
      trainer.target,
      `/courses?filter[from]=${window.from}&filter[until]=${window.until}&filter[trainer_user_id]=${trainer.id}`,
    );
    const byTrainer = await office.queries.query('courses.days', {
      trainerId: trainer.id,
      limit: 1000,
    });
    expect(byTrainer.items.map((i) => i.dateId).sort()).toEqual(mine.map((m) => m.date.id).sort());
    const self = await trainer.queries.query('courses.days', { trainerId: 'self', limit: 1000 });
    expect(self.items.map((i) => i.dateId).sort()).toEqual(mine.map((m) => m.date.id).sort());

    const byNumber = await office.queries.query('courses.days', {
      search: taught.number,
      limit: 1000,
    });
    expect(new Set(byNumber.items.map((i) => i.courseNumber))).toEqual(new Set([taught.number]));
    const word = taught.title.split(' ').at(-1)!.toLowerCase();
    const byTitle = await office.queries.query('courses.days', { search: word, limit: 1000 });
    expect(byTitle.total).toBeGreaterThan(0);
    expect(byTitle.items.every((i) => i.title!.toLowerCase().includes(word))).toBe(true);
    expect(byTitle.total).toBe(
      all.filter(
        (i) =>
          i.title!.toLowerCase().includes(word) || i.courseNumber?.toLowerCase().includes(word),
      ).length,
    );

    const page = await office.queries.query('courses.days', { limit: 7, offset: 5 });
    expect(page.items.map((i) => i.dateId)).toEqual(all.slice(5, 12).map((i) => i.dateId));
    expect(page.total).toBe(all.length);
  });

  it('finds a text anywhere in the title or number, ignoring case and diacritics', async () => {
    const all = (await office.queries.query('courses.list', { limit: 1000 })).items;
    const plain = (text: string | null) =>
      (text ?? '')
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
    for (const text of ['46', '2026-46', 'FB-2026', 'fb-2026-4', 'BUHNEN', 'für bühnen', 'FUR B']) {
      const found = await office.queries.query('courses.list', { search: text, limit: 1000 });
      expect(
        found.items.map((c) => c.id),
        text,
      ).toContain(renamedCourseId);
      const expected = all.filter(
        (c) => plain(c.title).includes(plain(text)) || plain(c.courseNumber).includes(plain(text)),
      );
      expect(found.items.map((c) => c.id).sort(), text).toEqual(expected.map((c) => c.id).sort());
      const days = await office.queries.query('courses.days', { search: text, limit: 1000 });
      expect(
        days.items.map((d) => d.courseId),
        text,
      ).toContain(renamedCourseId);
    }
    const everywhere = await office.queries.query('search', { text: 'BUHNENTECHNIK' });
    expect(everywhere.courses.map((c) => c.id)).toEqual([renamedCourseId]);
    const none = await office.queries.query('courses.list', { search: '46-2026', limit: 1000 });
    expect(none.items.map((c) => c.id)).not.toContain(renamedCourseId);
  });

  it('says at which row a day begins (anchorIndex), for any filter', async () => {
    const all = (await office.queries.query('courses.days', { limit: 1000 })).items;
    for (const anchor of [today, addDays(today, 30), taught.day, '1990-01-01', '2999-01-01']) {
      const { anchorIndex, total } = await office.queries.query('courses.days', {
        anchor,
        limit: 1,
      });
      const expected = all.findIndex((i) => i.from!.slice(0, 10) >= anchor);
      expect(anchorIndex, anchor).toBe(expected === -1 ? total : expected);
    }
    const mine = await office.queries.query('courses.days', {
      trainerId: trainer.id,
      anchor: today,
      limit: 1000,
    });
    const first = mine.items.findIndex((i) => i.from!.slice(0, 10) >= today);
    expect(mine.anchorIndex).toBe(first === -1 ? mine.total : first);
    expect((await office.queries.query('courses.days', { limit: 5 })).anchorIndex).toBe(0);
  });

  it('leaves out a course deleted here', async () => {
    const before = await office.queries.query('courses.days', { limit: 1000 });
    const gone = before.items.find((i) => i.dayCount > 1)!;
    const setState = office.replica.sqlite.prepare(
      'UPDATE courses SET local_state = ? WHERE id = ?',
    );
    setState.run('deleted', gone.courseId);
    try {
      const after = await office.queries.query('courses.days', { limit: 1000 });
      expect(after.items.some((i) => i.courseId === gone.courseId)).toBe(false);
      expect(after.total).toBe(before.total - gone.dayCount);
    } finally {
      setState.run(null, gone.courseId);
    }
  });
});

describe('participations and companies', () => {
  it('gives each participation its company and UVT ids as the service has them', async () => {
    const courses = (await office.queries.query('courses.list', { limit: 1000 })).items;
    let withCompany = 0;
    for (const course of courses.filter((c) => c.participants > 0)) {
      const expected = await list(office.target, `/courses/${course.id}/participations`);
      const result = await office.queries.query('participations.list', { courseId: course.id });
      expect(result.length).toBe(expected.length);
      for (const participation of expected) {
        const item = result.find((p) => p.id === participation.id)!;
        expect(item.companyId).toBe(relatedId(participation, 'company'));
        expect(item.uvtId).toBe(relatedId(participation, 'uvt'));
        if (item.companyId !== null) {
          expect(item.company).not.toBeNull();
          withCompany += 1;
        }
      }
    }
    expect(withCompany).toBeGreaterThan(0);
  });

  it('shows a walk-in’s new company at once, before the service has it', async () => {
    const course = (await office.queries.query('courses.list', { limit: 1000 })).items[0]!;
    const dispatcher = createDispatcher(office.replica);
    const outcome = await dispatcher.call('participation.create', {
      courseId: course.id,
      attributes: { first_name: 'Erika', last_name: 'Zugang' },
      relationships: { company: { data: { type: 'company', id: 'new-1' } } },
      included: [{ type: 'company', id: 'new-1', attributes: { name: 'Bäckerei Größe GmbH' } }],
    });
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const items = await office.queries.query('participations.list', { courseId: course.id });
    const walkIn = items.find((p) => p.lastName === 'Zugang')!;
    expect(walkIn.localState).toBe('created');
    expect(walkIn.company).toBe('Bäckerei Größe GmbH');
  });

  it('lists the replica’s companies with their UVT, searched anywhere in the name', async () => {
    const courses = await list(
      office.target,
      `/courses?filter[from]=${window.from}&filter[until]=${window.until}`,
    );
    const companies = new Map<string, Resource>();
    const uvts = new Map<string, Resource>();
    for (const course of courses) {
      const { included = [] } = await getJson(
        office.target,
        `/courses/${course.id}/participations?include=company,uvt`,
      );
      for (const item of included) {
        if (item.type === 'company') companies.set(item.id, item);
        if (item.type === 'uvt') uvts.set(item.id, item);
      }
    }
    expect(companies.size).toBeGreaterThan(1);
    const all = await office.queries.query('companies.list', { limit: 200 });
    expect(all.map((c) => c.id).sort()).toEqual([...companies.keys()].sort());
    const names = all.map((c) => c.name!.toLowerCase());
    expect(names).toEqual([...names].sort());
    for (const item of all) {
      const company = companies.get(item.id)!;
      const uvtId = relatedId(company, 'uvt');
      expect(item.uvtId).toBe(uvtId);
      if (uvtId && uvts.has(uvtId)) expect(item.uvt).toBe(uvts.get(uvtId)!.attributes.short_name);
    }

    const sample = all.find((c) => c.name!.length > 6)!;
    const infix = sample.name!.slice(2, 6).toUpperCase();
    const found = await office.queries.query('companies.list', { search: infix });
    expect(found.map((c) => c.id)).toContain(sample.id);
    expect(found.every((c) => c.name!.toLowerCase().includes(infix.toLowerCase()))).toBe(true);
    const prefix = sample.name!.slice(0, 3);
    const starting = await office.queries.query('companies.list', { search: prefix });
    const firstOther = starting.findIndex((c) => !c.name!.startsWith(prefix));
    if (firstOther !== -1)
      expect(starting.slice(firstOther).every((c) => !c.name!.startsWith(prefix))).toBe(true);
    expect(await office.queries.query('companies.list', { limit: 1 })).toHaveLength(1);
    expect(await office.queries.query('companies.list', { search: 'zzz-nothing' })).toEqual([]);
  });
});

describe('hours', () => {
  it('lists the occasions of the replica, newest first, searched, with their course', async () => {
    const hours = await getJson(
      office.target,
      `/helferstunden?filter[eigene]=false&filter[von]=${DEFAULT_SYNC_OPTIONS.hoursHistoryStart}&include=anlass`,
    );
    const occasions = (hours.included ?? []).filter((r) => r.type === 'helferstunden_anlass');
    const result = await office.queries.query('hours.occasions', { limit: 200 });
    expect(occasions.length).toBeLessThan(200);
    expect(result.map((o) => o.id).sort()).toEqual([...new Set(occasions.map((o) => o.id))].sort());
    const dates = result.map((o) => o.datum ?? '');
    expect(dates).toEqual([...dates].sort().reverse());

    const sample = result.find((o) => o.typ === 'sonstiges' || o.typ === 'dienst')!;
    const word = sample.beschreibung!.split(' ')[0]!;
    const found = await office.queries.query('hours.occasions', { search: word, limit: 200 });
    expect(found.map((o) => o.id)).toContain(sample.id);
    expect(found.every((o) => o.beschreibung!.toLowerCase().includes(word.toLowerCase()))).toBe(
      true,
    );
    expect(await office.queries.query('hours.occasions', { limit: 3 })).toHaveLength(3);

    // The service's own course occasions name their course: "Title (EH-2026-17)".
    const numbers = new Map(
      (await office.queries.query('courses.list', { limit: 1000 })).items.map((c) => [
        c.courseNumber,
        c.id,
      ]),
    );
    const courseOccasions = result.filter((o) => o.typ === 'kurs');
    expect(courseOccasions.length).toBeGreaterThan(0);
    for (const occasion of courseOccasions) {
      const number = /\(([^()]+)\)$/.exec(occasion.beschreibung ?? '')?.[1];
      expect(occasion.courseId, occasion.beschreibung ?? '').toBe(
        (number && numbers.get(number)) ?? null,
      );
    }
    expect(courseOccasions.some((o) => o.courseId !== null)).toBe(true);
    expect(result.filter((o) => o.typ !== 'kurs').every((o) => o.courseId === null)).toBe(true);
  });

  it('totals the hours per year of a person, newest year first', async () => {
    const hours = await list(
      office.target,
      `/helferstunden?filter[eigene]=false&filter[von]=${DEFAULT_SYNC_OPTIONS.hoursHistoryStart}`,
    );
    const own = hours.filter((h) => relatedId(h, 'user') === trainer.id);
    const expected = new Map<number, { stunden: number; entries: number }>();
    for (const entry of own) {
      const year = Number(String(entry.attributes.von).slice(0, 4));
      const total = expected.get(year) ?? { stunden: 0, entries: 0 };
      total.stunden += Number(entry.attributes.stunden);
      total.entries += 1;
      expected.set(year, total);
    }
    expect(expected.size).toBeGreaterThan(0);
    for (const result of [
      await office.queries.query('hours.years', { userId: trainer.id }),
      await trainer.queries.query('hours.years', { userId: 'self' }),
    ]) {
      expect(result.map((r) => r.year)).toEqual([...expected.keys()].sort().reverse());
      for (const row of result) {
        expect(row.entries).toBe(expected.get(row.year)!.entries);
        expect(row.stunden).toBeCloseTo(expected.get(row.year)!.stunden, 6);
      }
    }
    const everyone = await office.queries.query('hours.years', {});
    expect(everyone.reduce((n, r) => n + r.entries, 0)).toBe(hours.length);
  });

  it('suggests the course days the trainer taught without hours, newest first', async () => {
    const now = serviceWallClock(new Date());
    const from = addDays(today, -60);
    const ownHours = await list(
      trainer.target,
      `/helferstunden?filter[von]=${addDays(from, -1)}&filter[bis]=${addDays(today, 1)}`,
    );
    const daysWithHours = new Set(ownHours.map((h) => String(h.attributes.von).slice(0, 10)));
    const days = await serviceDays(
      trainer.target,
      `/courses?filter[from]=${from}&filter[until]=${addDays(today, 1)}&filter[trainer_user_id]=${trainer.id}`,
    );
    const expected = days.filter(({ course, date }) => {
      const start = String(date.attributes.from);
      return (
        course.attributes.status !== 'cancelled' &&
        start.slice(0, 10) >= from &&
        start.slice(0, 19) <= now &&
        !daysWithHours.has(start.slice(0, 10))
      );
    });
    const result = await trainer.queries.query('hours.suggestions', {});
    expect(result.map((s) => s.dateId).sort()).toEqual(expected.map((e) => e.date.id).sort());
    const starts = result.map((s) => s.from);
    expect(starts).toEqual([...starts].sort().reverse());
    expect(result.every((s) => s.from.slice(0, 19) <= now)).toBe(true);

    const suggestion = result.find((s) => s.dateId === taught.dateId)!;
    expect(suggestion).toMatchObject({
      courseId: taught.courseId,
      title: taught.title,
      courseNumber: taught.number,
      stunden: 7.5,
    });
    // The office (no course of its own) is offered nothing; a range ending before the day neither.
    expect(await office.queries.query('hours.suggestions', {})).toEqual([]);
    expect(
      (await trainer.queries.query('hours.suggestions', { until: addDays(taught.day, -1) })).some(
        (s) => s.dateId === taught.dateId,
      ),
    ).toBe(false);
  });

  it('offers the course’s occasion, and drops the day once the trainer entered hours for it', async () => {
    const dispatcher = createDispatcher(trainer.replica);
    const occasion = await dispatcher.call('helferstunden_anlass.create', {
      attributes: {
        typ: 'kurs',
        beschreibung: `${taught.title} (${taught.number})`,
        datum: taught.day,
      },
    });
    expect(occasion.ok, JSON.stringify(occasion)).toBe(true);
    const occasionId = (occasion as { value: { id: string } }).value.id;
    const before = await trainer.queries.query('hours.suggestions', {});
    expect(before.find((s) => s.dateId === taught.dateId)?.occasionId).toBe(occasionId);

    const [type] = await trainer.queries.query('hours.types', { activeOnly: true });
    const offset = berlinOffset(taught.day);
    const entry = await dispatcher.call('helferstunden.create', {
      attributes: {
        von: `${taught.day}T09:00:00${offset}`,
        bis: `${taught.day}T16:30:00${offset}`,
        stunden: 7.5,
      },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: occasionId } },
        typ: { data: { type: 'helferstunden_typ', id: type!.id } },
      },
    });
    expect(entry.ok, JSON.stringify(entry)).toBe(true);
    const after = await trainer.queries.query('hours.suggestions', {});
    expect(after.some((s) => s.dateId === taught.dateId)).toBe(false);
    expect(after.length).toBe(before.length - 1);

    // Deleted here, the entry no longer counts: the day is offered again.
    const deleted = await dispatcher.call('helferstunden.delete', {
      id: (entry as { value: { id: string } }).value.id,
    });
    expect(deleted.ok).toBe(true);
    const again = await trainer.queries.query('hours.suggestions', {});
    expect(again.some((s) => s.dateId === taught.dateId)).toBe(true);
  });
});

describe('hours.suggestions on the clock', () => {
  it('uses the dispatcher’s clock: a day not yet begun is not offered', async () => {
    const early = typedCaller(
      createDispatcher(trainer.replica, {
        now: () => new Date(`${taught.day}T07:00:00${berlinOffset(taught.day)}`),
      }),
    );
    const result = await early.query('hours.suggestions', {});
    expect(result.some((s) => s.dateId === taught.dateId)).toBe(false);
    expect(result.every((s: { from: string }) => s.from.slice(0, 10) < taught.day)).toBe(true);
  });
});

describe('a trainer’s replica first synced with the office profile', () => {
  it('no longer reports the courses as partly readable once the trainer profile syncs', async () => {
    const user = sandbox.users.find((u) => u.role === 'trainer')!;
    const replica = openReplica(file('profile-switch.sqlite'));
    try {
      const api = createApiClient({
        baseUrl: sandbox.baseUrl,
        tokens: staticToken(user.accessToken),
      });
      const { query } = typedCaller(createDispatcher(replica));
      const coursesArea = async () =>
        (await query('sync.status', {})).unavailableAreas.find((a) => a.area === 'courses');
      // The office profile asks for the clients, which a trainer may not read (403).
      await runSync({ api, replica, options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC } });
      expect(await coursesArea()).toMatchObject({ state: 'partial' });
      // The trainer profile never asks for them again: they are not this replica's business now.
      const summary = await runSync({
        api,
        replica,
        options: { profile: 'trainer', ...EVERY_ITEM_EVERY_SYNC },
      });
      expect(summary.ok).toBe(true);
      expect(await coursesArea()).toBeUndefined();
      expect((await query('sync.areas', {})).find((a) => a.area === 'courses')?.state).toBe(
        'available',
      );
    } finally {
      await replica.close();
    }
  });
});
