// The course module: courses and their window, creating a course, course types,
// participations with their included company and the cancellation, custom fields, clients,
// UVTs, and 423 when the organisation has not licensed the module.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredResource } from '../data/store';
import { startSandbox, type RunningSandbox } from '../server';
import { addMonthsToDate, berlinMidnight, formatBerlinDate } from './berlin-time';
import { ApiClient, expectError, many, one, relId, type Answer, type Res } from './test-client';

let sandbox: RunningSandbox;
let office: ApiClient;
let trainerId: string;
let trainer: ApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 'small', seed: 3 });
  office = ApiClient.as(sandbox, 'office');
  // The trainer with the most courses, so that every test finds one of theirs.
  const trainers = sandbox.users.filter((user) => user.role === 'trainer');
  const busiest = trainers.sort(
    (a, b) =>
      sandbox.store.related('course', 'trainers', b.id).length -
      sandbox.store.related('course', 'trainers', a.id).length,
  )[0]!;
  trainerId = busiest.id;
  trainer = new ApiClient(sandbox.baseUrl, busiest.accessToken);
});
afterAll(() => sandbox.close());

const ids = (resources: { id: string }[]) => resources.map((resource) => resource.id);
const toMany = (resource: Res, name: string) =>
  (resource.relationships?.[name]?.data as { type: string; id: string }[]).map((ref) => ref.id);

/** Courses with a date beginning in [from, until), from the store. */
function coursesInWindow(
  from: number,
  until: number,
  courses: readonly StoredResource[] = sandbox.store.all('course'),
): string[] {
  return courses
    .filter((course) =>
      (course.relationships.dates as { id: string }[]).some((ref) => {
        const start = Date.parse(
          sandbox.store.get('course_date', ref.id)!.attributes.from as string,
        );
        return start >= from && start < until;
      }),
    )
    .map((course) => course.id);
}

function expectDatesAndLocationIncluded(answer: Answer, courses: Res[]): void {
  const included = new Set(
    (answer.doc.included ?? []).map((resource) => `${resource.type}/${resource.id}`),
  );
  for (const course of courses) {
    for (const dateId of toMany(course, 'dates'))
      expect(included.has(`course_date/${dateId}`)).toBe(true);
    const location = course.relationships?.location;
    if (location)
      expect(included.has(`address/${(location.data as { id: string }).id}`)).toBe(true);
  }
}

describe('GET /courses', () => {
  it('lists courses with a date from today to twelve months ahead by default, dates and locations included', async () => {
    const today = formatBerlinDate(Date.now());
    const answer = await office.get('/courses');
    const courses = many(answer);
    expect(ids(courses)).toEqual(
      coursesInWindow(berlinMidnight(today), berlinMidnight(addMonthsToDate(today, 12))),
    );
    expect(courses.length).toBeGreaterThan(0);
    expectDatesAndLocationIncluded(answer, courses);
    expect(new Set((answer.doc.included ?? []).map((resource) => resource.type))).toEqual(
      new Set(['course_date', 'address']),
    );
  });

  it('takes an explicit window and a trainer, and includes clients and course types on request', async () => {
    const answer = await office.get(
      `/courses?filter[from]=2020-01-01&filter[until]=2030-01-01&filter[trainer_user_id]=${trainerId}&include=client,course_type`,
    );
    const courses = many(answer);
    expect(ids(courses)).toEqual(
      coursesInWindow(
        berlinMidnight('2020-01-01'),
        berlinMidnight('2030-01-01'),
        sandbox.store.related('course', 'trainers', trainerId),
      ),
    );
    const types = new Set((answer.doc.included ?? []).map((resource) => resource.type));
    expect(types.has('course_type')).toBe(true);
    for (const course of courses) expect(toMany(course, 'trainers')).toContain(trainerId);
    expect(ids(many(await office.get('/courses?filter[from]=2030-01-01')))).toEqual([]);
  });

  it('counts only participations that are not cancelled', async () => {
    for (const course of many(
      await office.get('/courses?filter[from]=2020-01-01&filter[until]=2030-01-01'),
    )) {
      const active = sandbox.store
        .related('participation', 'course', course.id)
        .filter((p) => p.attributes.status !== 'cancelled');
      expect(course.attributes.number_of_participants).toBe(active.length);
    }
  });

  it('leaves out the location of a course without one', async () => {
    const withoutLocation = sandbox.store
      .all('course')
      .find((course) => !course.relationships.location)!;
    const answer = await office.get(`/courses/${withoutLocation.id}`);
    expect(one(answer).relationships).not.toHaveProperty('location');
    expect((answer.doc.included ?? []).some((resource) => resource.type === 'address')).toBe(false);
  });

  it('leaves out geo of an address whose position is unknown', async () => {
    const answer = await office.get('/courses?filter[from]=2000-01-01&filter[until]=2100-01-01');
    const addresses = (answer.doc.included ?? []).filter((resource) => resource.type === 'address');
    expect(addresses.some((address) => !('geo' in address.attributes))).toBe(true);
    expect(addresses.some((address) => address.attributes.geo?.lat !== undefined)).toBe(true);
    expect(addresses.every((address) => address.attributes.geo !== null)).toBe(true);
  });

  it('reads one course with includes; unknown ids are 404', async () => {
    const course = sandbox.store.related('course', 'trainers', trainerId)[0]!;
    const answer = await trainer.get(`/courses/${course.id}?include=client,course_type`);
    expect(one(answer).id).toBe(course.id);
    expect((answer.doc.included ?? []).map((resource) => resource.type)).toContain('course_type');
    expectDatesAndLocationIncluded(answer, [one(answer)]);
    expectError(await office.get('/courses/999999'), 404);
    expect(
      expectError(await office.get('/courses/1?include=participations'), 400).source?.parameter,
    ).toBe('include');
  });
});

describe('POST /courses', () => {
  const courseType = () => sandbox.store.all('course_type')[0]!;
  const courseDoc = (
    overrides: {
      relationships?: Record<string, unknown>;
      included?: unknown[];
      attributes?: Record<string, unknown>;
    } = {},
  ) => ({
    data: {
      type: 'course',
      attributes: { max_participants: 2, comment: 'Neu', ...overrides.attributes },
      relationships: {
        course_type: { data: { type: 'course_type', id: courseType().id } },
        dates: {
          data: [
            { type: 'course_date', id: 'new-1' },
            { type: 'course_date', id: 'new-2' },
          ],
        },
        location: { data: { type: 'address', id: 'new-3' } },
        trainers: { data: [{ type: 'user', id: trainerId }] },
        ...overrides.relationships,
      },
    },
    included: overrides.included ?? [
      {
        type: 'course_date',
        id: 'new-1',
        attributes: { from: '2027-02-06T09:00:00+01:00', to: '2027-02-06T16:30:00+01:00' },
      },
      {
        type: 'course_date',
        id: 'new-2',
        attributes: { from: '2027-02-07T09:00:00+01:00', to: '2027-02-07T16:30:00+01:00' },
      },
      {
        type: 'address',
        id: 'new-3',
        attributes: {
          description: 'Gemeindehaus',
          street: 'Kirchweg 1',
          postal_code: '12345',
          city: 'Musterstadt',
        },
      },
    ],
  });

  it('creates a draft course with its dates and location', async () => {
    const answer = await office.post('/courses', courseDoc());
    expect(answer.status).toBe(201);
    const course = one(answer);
    expect(course.attributes).toMatchObject({
      title: courseType().attributes.name,
      status: 'draft',
      number_of_participants: 0,
      max_participants: 2,
      price: courseType().attributes.default_price,
    });
    expect(course.attributes.course_number).toMatch(
      new RegExp(`^${courseType().attributes.short_name}-2027-\\d+$`),
    );
    expect(toMany(course, 'dates')).toHaveLength(2);
    expectDatesAndLocationIncluded(answer, [course]);
    const address = answer.doc.included!.find((resource) => resource.type === 'address')!;
    expect(address.attributes).toMatchObject({
      description: 'Gemeindehaus',
      street_name: '',
      country: '',
    });
    expect(address.attributes).not.toHaveProperty('geo');
    expect(toMany(one(await trainer.get(`/courses/${course.id}`)), 'trainers')).toEqual([
      trainerId,
    ]);
  });

  it('creates a course without a location', async () => {
    const answer = await office.post(
      '/courses',
      courseDoc({
        relationships: { location: { data: null } },
        included: courseDoc().included.slice(0, 2),
      }),
    );
    expect(answer.status).toBe(201);
    expect(one(answer).relationships).not.toHaveProperty('location');
  });

  it('refuses documents that do not link their included resources both ways', async () => {
    const [first, second, address] = courseDoc().included;
    expect(
      expectError(await office.post('/courses', courseDoc({ included: [first, address] })), 422)
        .source?.pointer,
    ).toBe('/data/relationships/dates/data/1');
    expect(
      expectError(
        await office.post(
          '/courses',
          courseDoc({ included: [first, second, address, { ...(second as object), id: 'new-9' }] }),
        ),
        422,
      ).source?.pointer,
    ).toBe('/included/3');
    const backwards = {
      type: 'course_date',
      id: 'new-2',
      attributes: { from: '2027-02-07T09:00:00+01:00', to: '2027-02-07T08:00:00+01:00' },
    };
    expect(
      expectError(
        await office.post('/courses', courseDoc({ included: [first, backwards, address] })),
        422,
      ).source?.pointer,
    ).toBe('/included/1/attributes/to');
    expect(
      expectError(
        await office.post('/courses', courseDoc({ relationships: { course_type: undefined } })),
        422,
      ).source?.pointer,
    ).toBe('/data/relationships/course_type');
    const unknownType = { course_type: { data: { type: 'course_type', id: '999' } } };
    expect(
      expectError(await office.post('/courses', courseDoc({ relationships: unknownType })), 404)
        .source?.pointer,
    ).toBe('/data/relationships/course_type/data');
    expectError(await trainer.post('/courses', courseDoc()), 403);
  });
});

describe('participations', () => {
  let course: Res;
  beforeAll(async () => {
    const answer = await office.post('/courses', {
      data: {
        type: 'course',
        attributes: { max_participants: 2 },
        relationships: {
          course_type: {
            data: { type: 'course_type', id: sandbox.store.all('course_type')[0]!.id },
          },
          dates: { data: [{ type: 'course_date', id: 'new-1' }] },
          trainers: { data: [{ type: 'user', id: trainerId }] },
        },
      },
      included: [
        {
          type: 'course_date',
          id: 'new-1',
          attributes: { from: '2027-03-06T09:00:00+01:00', to: '2027-03-06T16:30:00+01:00' },
        },
      ],
    });
    course = one(answer);
  });
  const path = () => `/courses/${course.id}/participations`;
  const uvt = () => sandbox.store.all('uvt')[0]!.id;
  const participationDoc = (
    attributes: Record<string, unknown>,
    relationships: Record<string, unknown> = {},
    included?: unknown[],
    id?: string,
  ) => ({
    data: { type: 'participation', ...(id ? { id } : {}), attributes, relationships },
    ...(included ? { included } : {}),
  });

  it('registers a participant with a new company, created and linked', async () => {
    const answer = await trainer.post(
      path(),
      participationDoc(
        { first_name: 'Ida', last_name: 'Kurz', email: 'ida@example.org' },
        {
          company: { data: { type: 'company', id: 'new-c' } },
          uvt: { data: { type: 'uvt', id: uvt() } },
        },
        [
          {
            type: 'company',
            id: 'new-c',
            attributes: { name: 'Bäckerei Kurz', city: 'Musterstadt' },
            relationships: { uvt: { data: { type: 'uvt', id: uvt() } } },
          },
        ],
      ),
    );
    expect(answer.status).toBe(201);
    const participation = one(answer);
    expect(participation.attributes).toMatchObject({
      status: 'registered',
      attended: false,
      paid: false,
      birthday: '',
    });
    const companyId = relId(participation, 'company')!;
    expect(companyId).toMatch(/^\d+$/);
    expect(sandbox.store.get('company', companyId)?.attributes).toMatchObject({
      name: 'Bäckerei Kurz',
      street: '',
    });
    expect(
      answer.doc.included?.map((resource) => `${resource.type}/${resource.id}`).sort(),
    ).toEqual([`company/${companyId}`, `uvt/${uvt()}`].sort());
    expect(one(await office.get(`/courses/${course.id}`)).attributes.number_of_participants).toBe(
      1,
    );
  });

  it('refuses what breaks the participation rules', async () => {
    const company = { type: 'company', id: 'new-x', attributes: { name: 'X' } };
    expect(
      expectError(await office.post(path(), participationDoc({ first_name: 'A' })), 422).source
        ?.pointer,
    ).toBe('/data/attributes/last_name');
    expect(
      expectError(
        await office.post(
          path(),
          participationDoc({ first_name: 'A', last_name: 'B', status: 'cancelled' }),
        ),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/status');
    expect(
      expectError(
        await office.post(
          path(),
          participationDoc({ first_name: 'A', last_name: 'B' }, {}, [company]),
        ),
        422,
      ).source?.pointer,
    ).toBe('/included/0');
    const two = [company, { ...company, id: 'new-y' }];
    expect(
      expectError(
        await office.post(
          path(),
          participationDoc(
            { first_name: 'A', last_name: 'B' },
            { company: { data: { type: 'company', id: 'new-x' } } },
            two,
          ),
        ),
        422,
      ).source?.pointer,
    ).toBe('/included/1');
    expect(
      expectError(
        await office.post(
          path(),
          participationDoc({ first_name: 'A', last_name: 'B' }, {}, [{ ...company, id: '12' }]),
        ),
        422,
      ).source?.pointer,
    ).toBe('/included/0/id');
    expect(
      expectError(
        await office.post(
          path(),
          participationDoc(
            { first_name: 'A', last_name: 'B' },
            { uvt: { data: { type: 'uvt', id: '999' } } },
          ),
        ),
        404,
      ).source?.pointer,
    ).toBe('/data/relationships/uvt/data');
  });

  it('is read, listed with includes and changed with only the given attributes', async () => {
    const [first] = many(await trainer.get(`${path()}?include=company,uvt`));
    expect(one(await trainer.get(`${path()}/${first!.id}?include=company`)).id).toBe(first!.id);
    const changed = one(
      await trainer.patch(
        `${path()}/${first!.id}`,
        participationDoc({ status: 'confirmed', paid: true }, {}, undefined, first!.id),
      ),
    );
    expect(changed.attributes).toMatchObject({
      status: 'confirmed',
      paid: true,
      first_name: 'Ida',
    });
    const moved = await trainer.patch(
      `${path()}/${first!.id}`,
      participationDoc(
        {},
        { company: { data: { type: 'company', id: 'new-n' } } },
        [{ type: 'company', id: 'new-n', attributes: { name: 'Neuer Arbeitgeber' } }],
        first!.id,
      ),
    );
    const companyId = relId(one(moved), 'company')!;
    expect(companyId).not.toBe(relId(first!, 'company'));
    expect(
      moved.doc.included?.find((resource) => resource.type === 'company')?.attributes.name,
    ).toBe('Neuer Arbeitgeber');
    expect(one(moved).attributes.paid).toBe(true);
    const otherCourse = sandbox.store
      .all('participation')
      .find((p) => (p.relationships.course as { id: string }).id !== course.id)!;
    expectError(await office.get(`${path()}/${otherCourse.id}`), 404);
  });

  it('is full at max_participants', async () => {
    expect(
      (await office.post(path(), participationDoc({ first_name: 'Zweite', last_name: 'Person' })))
        .status,
    ).toBe(201);
    expectError(
      await office.post(path(), participationDoc({ first_name: 'Dritte', last_name: 'Person' })),
      409,
    );
  });

  it('is cancelled once, with a cancellation, and then final', async () => {
    const [first] = many(await office.get(path()));
    const answer = await trainer.post(`${path()}/${first!.id}/cancel`, {
      data: { type: 'cancellation', attributes: { reason: 'krank' } },
    });
    expect(answer.status).toBe(201);
    const cancellation = one(answer);
    expect(cancellation.type).toBe('cancellation');
    expect(cancellation.attributes.reason).toBe('krank');
    expect(cancellation.attributes.cancelled_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(relId(cancellation, 'participation')).toBe(first!.id);
    expect(one(await office.get(`${path()}/${first!.id}`)).attributes.status).toBe('cancelled');
    expect(one(await office.get(`/courses/${course.id}`)).attributes.number_of_participants).toBe(
      1,
    );
    expectError(
      await trainer.post(`${path()}/${first!.id}/cancel`, {
        data: { type: 'cancellation', attributes: {} },
      }),
      409,
    );
    expectError(
      await trainer.patch(
        `${path()}/${first!.id}`,
        participationDoc({ paid: false }, {}, undefined, first!.id),
      ),
      409,
    );
    // The place is free again.
    expect(
      (await office.post(path(), participationDoc({ first_name: 'Nach', last_name: 'Rücker' })))
        .status,
    ).toBe(201);
  });
});

describe('custom fields', () => {
  const fieldDoc = (attributes: Record<string, unknown>, id?: string) => ({
    data: { type: 'customfield', ...(id ? { id } : {}), attributes },
  });
  const ownCourse = () => sandbox.store.related('course', 'trainers', trainerId)[0]!;

  it('are listed by position, created, read, changed and deleted by the course trainer', async () => {
    const path = `/courses/${ownCourse().id}/customfields`;
    const before = many(await trainer.get(path));
    const created = await trainer.post(
      path,
      fieldDoc({ name: 'Schuhgröße', field_type: 'number' }),
    );
    expect(created.status).toBe(201);
    const field = one(created);
    expect(field.attributes).toMatchObject({ value: '', required: false, options: [] });
    const positions = many(await trainer.get(path)).map(
      (candidate) => candidate.attributes.position as number,
    );
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(many(await trainer.get(path))).toHaveLength(before.length + 1);
    expect(
      one(await trainer.patch(`${path}/${field.id}`, fieldDoc({ value: '42.5' }, field.id)))
        .attributes.value,
    ).toBe('42.5');
    expect(one(await trainer.get(`${path}/${field.id}`)).attributes.name).toBe('Schuhgröße');
    expect((await trainer.delete(`${path}/${field.id}`)).status).toBe(204);
    expectError(await trainer.get(`${path}/${field.id}`), 404);
  });

  it('keep values that fit their type', async () => {
    const path = `/courses/${ownCourse().id}/customfields`;
    expect(
      expectError(await office.post(path, fieldDoc({ name: 'X', field_type: 'select' })), 422)
        .source?.pointer,
    ).toBe('/data/attributes/options');
    expect(
      expectError(
        await office.post(
          path,
          fieldDoc({ name: 'X', field_type: 'select', options: ['a'], value: 'b' }),
        ),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/value');
    expect(
      expectError(
        await office.post(path, fieldDoc({ name: 'X', field_type: 'checkbox', value: 'ja' })),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/value');
    expect(
      expectError(
        await office.post(path, fieldDoc({ name: 'X', field_type: 'date', required: true })),
        422,
      ).source?.pointer,
    ).toBe('/data/attributes/value');
    expect(
      expectError(await office.post(path, fieldDoc({ name: 'X', field_type: 'farbe' })), 422).source
        ?.pointer,
    ).toBe('/data/attributes/field_type');
    expect(
      (
        await office.post(
          path,
          fieldDoc({ name: 'Datum', field_type: 'date', value: '2027-01-31' }),
        )
      ).status,
    ).toBe(201);
    const foreign = sandbox.store
      .all('customfield')
      .find((field) => (field.relationships.course as { id: string }).id !== ownCourse().id)!;
    expectError(await office.get(`${path}/${foreign.id}`), 404);
  });
});

describe('clients', () => {
  it('are listed and read by office staff', async () => {
    expect(ids(many(await office.get('/clients')))).toEqual(ids([...sandbox.store.all('client')]));
    const client = sandbox.store.all('client')[0]!;
    expect(one(await office.get(`/clients/${client.id}`)).attributes.name).toBe(
      client.attributes.name,
    );
    expectError(await office.get('/clients/999'), 404);
  });

  it('have the courses they order or send participants to', async () => {
    for (const client of sandbox.store.all('client')) {
      const expected = new Set(
        sandbox.store.related('course', 'client', client.id).map((course) => course.id),
      );
      for (const participation of sandbox.store.related('participation', 'client', client.id)) {
        expected.add((participation.relationships.course as { id: string }).id);
      }
      const answer = await office.get(
        `/clients/${client.id}/courses?include=course_type,course_date,address`,
      );
      const courses = many(answer);
      expect(new Set(ids(courses))).toEqual(expected);
      expectDatesAndLocationIncluded(answer, courses);
      if (courses[0]) {
        const single = await office.get(
          `/clients/${client.id}/courses/${courses[0].id}?include=client`,
        );
        expect(one(single).id).toBe(courses[0].id);
      }
    }
    const client = sandbox.store.all('client')[0]!;
    const unrelated = sandbox.store
      .all('course')
      .find(
        (course) =>
          relIdOrNull(course, 'client') !== client.id &&
          !sandbox.store
            .related('participation', 'course', course.id)
            .some((p) => relIdOrNull(p, 'client') === client.id),
      )!;
    expectError(await office.get(`/clients/${client.id}/courses/${unrelated.id}`), 404);
  });

  it('have their participants', async () => {
    const client = sandbox.store
      .all('client')
      .find(
        (candidate) => sandbox.store.related('participation', 'client', candidate.id).length > 0,
      )!;
    const participants = many(await office.get(`/clients/${client.id}/participants`));
    expect(participants.length).toBe(
      sandbox.store.related('participation', 'client', client.id).length,
    );
    expect(
      participants.every(
        (participant) =>
          participant.type === 'participation' && relId(participant, 'client') === client.id,
      ),
    ).toBe(true);
  });
});

describe('course types and UVTs', () => {
  it('lists the course types', async () => {
    const types = many(await trainer.get('/courses/types'));
    expect(types.length).toBe(sandbox.store.count('course_type'));
    expect(types[0]!.attributes).toHaveProperty('short_name');
  });

  it('lists only the favourite UVTs while the setting is on', async () => {
    expect(sandbox.store.settings().uvtFavorites).toBe(true);
    const uvts = many(await trainer.get('/uvts'));
    const favourites = sandbox.store.all('uvt').filter((uvt) => uvt.attributes.favorite === true);
    expect(ids(uvts)).toEqual(ids([...favourites]));
    expect(favourites.length).toBeLessThan(sandbox.store.count('uvt'));
  });
});

describe('without the course module', () => {
  it('answers 423 on every path of the module and nothing else', async () => {
    const unlicensed = await startSandbox({ scale: 'small', seed: 3, withoutCourses: true });
    try {
      const client = ApiClient.as(unlicensed, 'office');
      for (const path of [
        '/courses',
        '/courses/types',
        '/courses/1',
        '/courses/1/participations',
        '/courses/1/customfields',
        '/clients',
        '/clients/1/courses',
        '/uvts',
      ]) {
        expectError(await client.get(path), 423);
      }
      expectError(
        await client.post('/courses/1/participations', {
          data: { type: 'participation', attributes: {} },
        }),
        423,
      );
      expect((await client.get('/personal/selbst')).status).toBe(200);
      expect(
        one(await client.get('/organisation/selbst/stammdaten')).attributes.module,
      ).not.toContain('kurse');
      expectError(await client.get('/courses', { token: null }), 401);
    } finally {
      await unlicensed.close();
    }
  });
});

function relIdOrNull(resource: StoredResource, name: string): string | null {
  const ref = resource.relationships[name];
  return ref && !Array.isArray(ref) ? ref.id : null;
}
