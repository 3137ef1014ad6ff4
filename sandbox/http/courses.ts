// Courses (tag "Course"): the course list with its date window, one course, creating a course,
// and the course types. A course's dates (`course_date`) and location (`address`) are always
// included; `include` adds `client` and `course_type` (naming `course_date` or `address` is
// accepted and changes nothing).
//
// Filters of GET /courses (Berlin dates, meaning midnight at their start): a course matches
// when one of its dates begins in [filter[from], filter[until]); defaults: today and today in
// 12 months. filter[trainer_user_id]: only courses with this trainer. Trainers always get only
// their own courses.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Principal } from '../auth/types';
import type { ResourceRef, StoredResource } from '../data/store';
import { addMonthsToDate, berlinMidnight, formatBerlinDate } from './berlin-time';
import { readDocument } from './body';
import { clientIdMeta, createOnce, createRule, refuseUsedClientId } from './client-ids';
import type { ApiContext } from './context';
import { changeTimeOf, principalOf, todayOf } from './context';
import { forbidden, invalidAttribute, notFound } from './errors';
import { requireRecord } from './records';
import { isOffice, requireCourseAccess, requireOffice, requireRole } from './permissions';
import { type IncludePath, Query } from './query';
import { sendList, sendResource } from './respond';
import { amount, dateTime, nonEmptyText, toMany, toOne, toOneOrNull } from './schemas';

/** Include names of course documents; dates and location are in every course document anyway. */
const DATES: IncludePath = ['dates'];
const LOCATION: IncludePath = ['location'];
const COURSE_INCLUDES: Readonly<Record<string, IncludePath>> = {
  client: ['client'],
  course_type: ['course_type'],
  course_date: DATES,
  address: LOCATION,
};
const ALWAYS_INCLUDED: readonly IncludePath[] = [DATES, LOCATION];

/** The include paths of a course document: always dates and location, plus what was asked. */
export function courseIncludes(query: Query): IncludePath[] {
  return [
    ...ALWAYS_INCLUDED,
    ...query.include(COURSE_INCLUDES).filter((path) => !ALWAYS_INCLUDED.includes(path)),
  ];
}

function startOf(courseDate: StoredResource): number {
  return Date.parse(courseDate.attributes.from as string);
}

export function datesOf(context: ApiContext, course: StoredResource): StoredResource[] {
  const refs = course.relationships.dates;
  if (!Array.isArray(refs)) return [];
  return refs.flatMap((ref) => context.store.get('course_date', ref.id) ?? []);
}

function courseOrNotFound(context: ApiContext, id: string): StoredResource {
  const course = context.store.get('course', id);
  if (!course) throw notFound(`No course ${id}.`);
  return course;
}

/** A course the caller may work with: office staff any, trainers theirs (members never), else 403/404. */
export function accessibleCourse(
  context: ApiContext,
  principal: Principal,
  courseId: string,
  action: string,
): StoredResource {
  requireRole(principal, ['office', 'trainer'], action);
  const course = courseOrNotFound(context, courseId);
  requireCourseAccess(principal, course);
  return course;
}

function listCourses(context: ApiContext, principal: Principal, query: Query): StoredResource[] {
  requireRole(principal, ['office', 'trainer'], 'Listing courses');
  const today = todayOf(context);
  const from = query.dateMidnight('filter[from]') ?? berlinMidnight(today);
  const until = query.dateMidnight('filter[until]') ?? berlinMidnight(addMonthsToDate(today, 12));
  let trainer = query.string('filter[trainer_user_id]');
  if (!isOffice(principal)) {
    if (trainer !== undefined && trainer !== principal.userId)
      throw forbidden('Trainers may list only their own courses.');
    trainer = principal.userId;
  }
  const candidates =
    trainer === undefined
      ? context.store.all('course')
      : context.store.related('course', 'trainers', trainer);
  return candidates.filter((course) =>
    datesOf(context, course).some((courseDate) => {
      const start = startOf(courseDate);
      return start >= from && start < until;
    }),
  );
}

const NEW_ID = z
  .string()
  .regex(/^new-./, 'Ids of resources created with this request start with "new-".');

const addressAttributes = z
  .strictObject({
    description: z.string(),
    street: z.string(),
    street_name: z.string(),
    street_number: z.string(),
    address_addition: z.string(),
    postal_code: z.string(),
    city: z.string(),
    country: z.string(),
    contact_person_salutation: z.string(),
    contact_person_name: z.string(),
    phone: z.string(),
    mobile: z.string(),
    email: z.string(),
    geo: z.strictObject({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }),
  })
  .partial();

const includedItem = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('course_date'),
    id: NEW_ID,
    attributes: z.strictObject({ from: dateTime, to: dateTime }),
  }),
  z.strictObject({ type: z.literal('address'), id: NEW_ID, attributes: addressAttributes }),
]);
type IncludedItem = z.output<typeof includedItem>;

const coursePost = {
  attributes: z
    .strictObject({
      title: nonEmptyText,
      max_participants: z.number().int().min(0),
      comment: z.string(),
      price: amount,
      organizer_on_site: z.string(),
      uvt_registration_number: z.string(),
    })
    .partial(),
  relationships: z
    .strictObject({
      course_type: toOne('course_type'),
      dates: toMany('course_date'),
      location: toOneOrNull('address'),
      client: toOneOrNull('client'),
      trainers: toMany('user'),
    })
    .partial()
    .required({ course_type: true, dates: true }),
  included: includedItem,
};
type CourseRelationshipsInput = z.output<typeof coursePost.relationships>;

/** Full linkage both ways: every new date and address is named by the course, and vice versa. */
function matchIncluded(
  context: ApiContext,
  relationships: CourseRelationshipsInput,
  included: IncludedItem[],
) {
  const byKey = new Map<string, { item: IncludedItem; index: number; used: boolean }>();
  included.forEach((item, index) => {
    const key = `${item.type}/${item.id}`;
    if (byKey.has(key))
      throw invalidAttribute(`/included/${index}/id`, `${key} is included twice.`);
    byKey.set(key, { item, index, used: false });
  });
  const take = (ref: ResourceRef, pointer: string) => {
    const entry = byKey.get(`${ref.type}/${ref.id}`);
    if (!entry) throw invalidAttribute(pointer, `${ref.type} "${ref.id}" is not in included.`);
    entry.used = true;
    return entry;
  };
  const dates = relationships.dates.data.map((ref, index) => {
    const { item, index: at } = take(ref, `/data/relationships/dates/data/${index}`);
    const attributes = item.attributes as { from: string; to: string };
    if (Date.parse(attributes.to) <= Date.parse(attributes.from)) {
      throw invalidAttribute(
        `/included/${at}/attributes/to`,
        'A course date must end after it begins.',
      );
    }
    return attributes;
  });
  if (dates.length === 0)
    throw invalidAttribute('/data/relationships/dates/data', 'A course needs at least one date.');
  const location = relationships.location?.data ?? null;
  let newAddress: Record<string, unknown> | null = null;
  if (location && location.id.startsWith('new-')) {
    newAddress = take(location, '/data/relationships/location/data').item.attributes;
  } else if (location) {
    requireRecord(context.store, location, '/data/relationships/location/data');
  }
  for (const { item, index, used } of byKey.values()) {
    if (!used)
      throw invalidAttribute(
        `/included/${index}`,
        `${item.type} "${item.id}" is included but not named by the course.`,
      );
  }
  return { dates, location, newAddress };
}

const BLANK_ADDRESS = Object.fromEntries(
  Object.keys(addressAttributes.shape)
    .filter((name) => name !== 'geo')
    .map((name) => [name, '']),
);

function courseNumber(context: ApiContext, shortName: string, firstStart: number): string {
  const prefix = `${shortName}-${formatBerlinDate(firstStart).slice(0, 4)}-`;
  const taken = context.store
    .all('course')
    .filter((course) => String(course.attributes.course_number).startsWith(prefix)).length;
  return `${prefix}${taken + 1}`;
}

function createCourse(
  context: ApiContext,
  document: ReturnType<typeof readCoursePost>,
): StoredResource {
  const { attributes: input, relationships, included } = document;
  const courseType = requireRecord(
    context.store,
    relationships.course_type.data,
    '/data/relationships/course_type/data',
  );
  if (relationships.client?.data)
    requireRecord(context.store, relationships.client.data, '/data/relationships/client/data');
  (relationships.trainers?.data ?? []).forEach((ref, index) =>
    requireRecord(context.store, ref, `/data/relationships/trainers/data/${index}`),
  );
  const { dates, location, newAddress } = matchIncluded(context, relationships, included);
  const firstStart = Math.min(...dates.map((courseDate) => Date.parse(courseDate.from)));
  const now = changeTimeOf(context);
  const { store } = context;
  return store.transaction(() => {
    const courseId = store.nextId('course');
    const dateRefs = dates.map((courseDate) => {
      const stored = store.put({
        type: 'course_date',
        id: store.nextId('course_date'),
        attributes: { from: courseDate.from, to: courseDate.to },
        relationships: { course: { type: 'course', id: courseId } },
      });
      return { type: 'course_date' as const, id: stored.id };
    });
    let locationRef: ResourceRef | null = location;
    if (newAddress) {
      const address = store.put({
        type: 'address',
        id: store.nextId('address'),
        attributes: { ...BLANK_ADDRESS, ...newAddress },
        relationships: {},
      });
      locationRef = { type: 'address', id: address.id };
    }
    return store.put({
      type: 'course',
      id: courseId,
      attributes: {
        title: courseType.attributes.name,
        course_number: courseNumber(context, String(courseType.attributes.short_name), firstStart),
        uvt_registration_number: '',
        status: 'draft',
        comment: '',
        number_of_participants: 0,
        max_participants: 0,
        organizer_on_site: '',
        price: courseType.attributes.default_price,
        ...input,
        created_at: now,
        updated_at: now,
      },
      relationships: {
        course_type: relationships.course_type.data,
        dates: dateRefs,
        ...(locationRef ? { location: locationRef } : {}),
        client: relationships.client?.data ?? null,
        trainers: relationships.trainers?.data ?? [],
      },
    });
  });
}

function readCoursePost(context: ApiContext, request: Parameters<typeof readDocument>[0]) {
  const document = readDocument(request, {
    type: 'course',
    id: createRule(context),
    ...coursePost,
  });
  refuseUsedClientId(context, 'course', document.id);
  return { ...document, relationships: document.relationships! };
}

export function registerCourseRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get('/courses', async (request, reply) => {
    const query = Query.read(request, [
      'filter[from]',
      'filter[until]',
      'filter[trainer_user_id]',
      'include',
    ]);
    const include = courseIncludes(query);
    return sendList(
      context,
      request,
      reply,
      query,
      listCourses(context, principalOf(request), query),
      { include },
    );
  });

  app.post('/courses', async (request, reply) => {
    requireOffice(principalOf(request), 'Creating a course');
    Query.read(request, []);
    const document = readCoursePost(context, request);
    const course = createOnce(context, 'course', document.id, () =>
      createCourse(context, document),
    );
    return sendResource(context, reply, course, {
      include: ALWAYS_INCLUDED,
      status: 201,
      meta: clientIdMeta(document.id),
    });
  });

  app.get('/courses/types', async (request, reply) => {
    requireRole(principalOf(request), ['office', 'trainer'], 'Reading course types');
    const query = Query.read(request, []);
    return sendList(context, request, reply, query, context.store.all('course_type'));
  });

  app.get<{ Params: { id: string } }>('/courses/:id', async (request, reply) => {
    const query = Query.read(request, ['include']);
    const include = courseIncludes(query);
    const course = accessibleCourse(
      context,
      principalOf(request),
      request.params.id,
      'Reading courses',
    );
    return sendResource(context, reply, course, { include });
  });
}
