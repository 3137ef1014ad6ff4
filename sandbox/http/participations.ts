// Participations of a course (tag "Course"): list, read, register (POST), change (PATCH) and
// cancel. POST and PATCH bodies carry an `included` array: at most one new `company`, with an
// id starting "new-" that data.relationships.company names; it is created and linked. Their
// answers include the participation's company and UVT.
//
// Rules: a cancelled participation is final (PATCH or a second cancel: 409); `status` cannot be
// set to "cancelled" directly (use cancel); registering on a full course (non-cancelled
// participations reaching max_participants > 0) or on a cancelled or completed course is 409.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { StoredResource } from '../data/store';
import { readDocument } from './body';
import { clientIdMeta, createOnce, createRule, refuseUsedClientId } from './client-ids';
import type { ApiContext } from './context';
import { changeTimeOf, principalOf } from './context';
import { conflict, invalidAttribute, notFound } from './errors';
import { requireRecord, toOneId } from './records';
import { accessibleCourse } from './courses';
import { type IncludePath, Query } from './query';
import { sendList, sendResource } from './respond';
import { date, emailOrEmpty, nonEmptyText, toOneOrNull } from './schemas';

const PARTICIPATION_INCLUDES: Readonly<Record<string, IncludePath>> = {
  company: ['company'],
  uvt: ['uvt'],
};
const WITH_COMPANY_AND_UVT: readonly IncludePath[] = [['company'], ['uvt']];

const participationAttributes = z.strictObject({
  first_name: nonEmptyText,
  last_name: nonEmptyText,
  birthday: z.union([z.literal(''), date]),
  email: emailOrEmpty,
  phone: z.string(),
  status: z.enum(
    ['registered', 'confirmed', 'attended', 'absent'],
    'Expected registered, confirmed, attended or absent (cancel with the cancel operation).',
  ),
  attended: z.boolean(),
  paid: z.boolean(),
  certificate_number: z.string(),
  comment: z.string(),
});

const companyRef = z.strictObject({
  data: z.strictObject({ type: z.literal('company'), id: z.string().min(1) }).nullable(),
});
const participationRelationships = z
  .strictObject({
    company: companyRef,
    uvt: toOneOrNull('uvt'),
    client: toOneOrNull('client'),
    user: toOneOrNull('user'),
  })
  .partial();

const newCompany = z.strictObject({
  type: z.literal('company'),
  id: z.string().regex(/^new-./, 'A new company\'s id starts with "new-".'),
  attributes: z
    .strictObject({
      name: nonEmptyText,
      street: z.string(),
      postal_code: z.string(),
      city: z.string(),
      uvt_member_number: z.string(),
    })
    .partial()
    .required({ name: true }),
  relationships: z
    .strictObject({ uvt: toOneOrNull('uvt') })
    .partial()
    .optional(),
});
type NewCompany = z.output<typeof newCompany>;
type RelationshipsInput = z.output<typeof participationRelationships>;

const cancellationPost = z.strictObject({ reason: z.string() }).partial();

function participationOf(context: ApiContext, course: StoredResource, id: string): StoredResource {
  const participation = context.store.get('participation', id);
  if (!participation || toOneId(participation, 'course') !== course.id) {
    throw notFound(`Course ${course.id} has no participation ${id}.`);
  }
  return participation;
}

function courseOf(
  context: ApiContext,
  request: FastifyRequest<{ Params: { courseId: string } }>,
): StoredResource {
  return accessibleCourse(
    context,
    principalOf(request),
    request.params.courseId,
    'Working with participations',
  );
}

/** The relationship changes with referenced records checked; a new company is created in the caller's transaction. */
function resolveRelationships(
  context: ApiContext,
  input: RelationshipsInput,
  included: NewCompany[],
) {
  if (included.length > 1)
    throw invalidAttribute(
      '/included/1',
      'At most one new company can be sent with a participation.',
    );
  const [company] = included;
  const named = input.company?.data ?? null;
  if (company && named?.id !== company.id) {
    throw invalidAttribute(
      '/included/0',
      `The new company "${company.id}" must be named by data.relationships.company.`,
    );
  }
  if (named && !company) requireRecord(context.store, named, '/data/relationships/company/data');
  if (company?.relationships?.uvt?.data) {
    requireRecord(
      context.store,
      company.relationships.uvt.data,
      '/included/0/relationships/uvt/data',
    );
  }
  for (const name of ['uvt', 'client', 'user'] as const) {
    const ref = input[name]?.data;
    if (ref) requireRecord(context.store, ref, `/data/relationships/${name}/data`);
  }
  return {
    /** Call inside the write transaction: creates the new company, returns the relationships to store. */
    apply(current: StoredResource['relationships']): StoredResource['relationships'] {
      const next = { ...current };
      for (const name of ['uvt', 'client', 'user'] as const) {
        const change = input[name];
        if (change) next[name] = change.data;
      }
      if (company) {
        const stored = context.store.put({
          type: 'company',
          id: context.store.nextId('company'),
          attributes: {
            street: '',
            postal_code: '',
            city: '',
            uvt_member_number: '',
            ...company.attributes,
          },
          relationships: { uvt: company.relationships?.uvt?.data ?? null },
        });
        next.company = { type: 'company', id: stored.id };
      } else if (input.company) {
        next.company = named;
      }
      return next;
    },
  };
}

function requireOpenCourse(context: ApiContext, course: StoredResource): void {
  if (course.attributes.status === 'cancelled' || course.attributes.status === 'completed') {
    throw conflict(
      `Course ${course.id} is ${String(course.attributes.status)} and takes no registrations.`,
    );
  }
  const max = Number(course.attributes.max_participants);
  const active = context.store
    .related('participation', 'course', course.id)
    .filter((p) => p.attributes.status !== 'cancelled').length;
  if (max > 0 && active >= max)
    throw conflict(`Course ${course.id} is full (${active} of ${max} places taken).`);
}

export function registerParticipationRoutes(app: FastifyInstance, context: ApiContext): void {
  type CourseParams = { Params: { courseId: string } };
  type ParticipationParams = { Params: { courseId: string; id: string } };

  app.get<CourseParams>('/courses/:courseId/participations', async (request, reply) => {
    const query = Query.read(request, ['include']);
    const include = query.include(PARTICIPATION_INCLUDES);
    const course = courseOf(context, request);
    return sendList(
      context,
      request,
      reply,
      query,
      context.store.related('participation', 'course', course.id),
      { include },
    );
  });

  app.get<ParticipationParams>('/courses/:courseId/participations/:id', async (request, reply) => {
    const query = Query.read(request, ['include']);
    const include = query.include(PARTICIPATION_INCLUDES);
    const course = courseOf(context, request);
    return sendResource(context, reply, participationOf(context, course, request.params.id), {
      include,
    });
  });

  app.post<CourseParams>('/courses/:courseId/participations', async (request, reply) => {
    Query.read(request, []);
    const course = courseOf(context, request);
    const document = readDocument(request, {
      type: 'participation',
      id: createRule(context),
      attributes: participationAttributes.partial().required({ first_name: true, last_name: true }),
      relationships: participationRelationships,
      included: newCompany,
    });
    refuseUsedClientId(context, 'participation', document.id);
    const relationships = resolveRelationships(
      context,
      document.relationships ?? {},
      document.included,
    );
    requireOpenCourse(context, course);
    const now = changeTimeOf(context);
    const participation = createOnce(context, 'participation', document.id, () =>
      context.store.put({
        type: 'participation',
        id: context.store.nextId('participation'),
        attributes: {
          birthday: '',
          email: '',
          phone: '',
          status: 'registered',
          attended: false,
          paid: false,
          certificate_number: '',
          comment: '',
          ...document.attributes,
          created_at: now,
          updated_at: now,
        },
        relationships: relationships.apply({
          course: { type: 'course', id: course.id },
          company: null,
          uvt: null,
          client: null,
          user: null,
        }),
      }),
    );
    return sendResource(context, reply, participation, {
      include: WITH_COMPANY_AND_UVT,
      status: 201,
      meta: clientIdMeta(document.id),
    });
  });

  app.patch<ParticipationParams>(
    '/courses/:courseId/participations/:id',
    async (request, reply) => {
      Query.read(request, []);
      const course = courseOf(context, request);
      const participation = participationOf(context, course, request.params.id);
      const document = readDocument(request, {
        type: 'participation',
        id: { kind: 'update', id: participation.id },
        attributes: participationAttributes.partial(),
        relationships: participationRelationships,
        included: newCompany,
      });
      if (participation.attributes.status === 'cancelled')
        throw conflict(`Participation ${participation.id} is cancelled.`);
      const relationships = resolveRelationships(
        context,
        document.relationships ?? {},
        document.included,
      );
      const updated = context.store.transaction(() =>
        context.store.put({
          ...participation,
          attributes: {
            ...participation.attributes,
            ...document.attributes,
            updated_at: changeTimeOf(context),
          },
          relationships: relationships.apply(participation.relationships),
        }),
      );
      return sendResource(context, reply, updated, { include: WITH_COMPANY_AND_UVT });
    },
  );

  app.post<ParticipationParams>(
    '/courses/:courseId/participations/:id/cancel',
    async (request, reply) => {
      Query.read(request, []);
      const course = courseOf(context, request);
      const participation = participationOf(context, course, request.params.id);
      const document = readDocument(request, {
        type: 'cancellation',
        id: { kind: 'create' },
        attributes: cancellationPost,
      });
      if (participation.attributes.status === 'cancelled')
        throw conflict(`Participation ${participation.id} is already cancelled.`);
      const now = changeTimeOf(context);
      const cancellation = context.store.transaction(() => {
        context.store.put({
          ...participation,
          attributes: { ...participation.attributes, status: 'cancelled', updated_at: now },
        });
        return context.store.put({
          type: 'cancellation',
          id: context.store.nextId('cancellation'),
          attributes: { reason: document.attributes.reason ?? '', cancelled_at: now },
          relationships: { participation: { type: 'participation', id: participation.id } },
        });
      });
      return sendResource(context, reply, cancellation, { status: 201 });
    },
  );
}
