// Clients (tag "Clients"): the clients of courses, one client, its courses and its
// participants; office only. A client's courses are those whose `client` it is and those
// where it has participants; like every course document they include dates and location
// (a course without a known location has no `location`, an address without geo no `geo`).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { compareIds } from '../data/ids';
import type { StoredResource } from '../data/store';
import type { ApiContext } from './context';
import { principalOf } from './context';
import { courseIncludes } from './courses';
import { notFound } from './errors';
import { requireOffice } from './permissions';
import { Query } from './query';
import { toOneId } from './records';
import { sendList, sendResource } from './respond';

function clientOf(
  context: ApiContext,
  request: FastifyRequest<{ Params: { clientId: string } }>,
): StoredResource {
  requireOffice(principalOf(request), 'Working with clients');
  const client = context.store.get('client', request.params.clientId);
  if (!client) throw notFound(`No client ${request.params.clientId}.`);
  return client;
}

/** Courses of the client, in id order, each once. */
function coursesOf(context: ApiContext, client: StoredResource): StoredResource[] {
  const ids = new Set<string>(
    context.store.related('course', 'client', client.id).map((course) => course.id),
  );
  for (const participation of context.store.related('participation', 'client', client.id)) {
    const courseId = toOneId(participation, 'course');
    if (courseId) ids.add(courseId);
  }
  return [...ids]
    .flatMap((id) => context.store.get('course', id) ?? [])
    .sort((a, b) => compareIds(a.id, b.id));
}

export function registerClientRoutes(app: FastifyInstance, context: ApiContext): void {
  type ClientParams = { Params: { clientId: string } };

  app.get('/clients', async (request, reply) => {
    requireOffice(principalOf(request), 'Listing clients');
    const query = Query.read(request, []);
    return sendList(context, request, reply, query, context.store.all('client'));
  });

  app.get<ClientParams>('/clients/:clientId', async (request, reply) => {
    Query.read(request, []);
    return sendResource(context, reply, clientOf(context, request));
  });

  app.get<ClientParams>('/clients/:clientId/courses', async (request, reply) => {
    const query = Query.read(request, ['include']);
    const include = courseIncludes(query);
    return sendList(
      context,
      request,
      reply,
      query,
      coursesOf(context, clientOf(context, request)),
      { include },
    );
  });

  app.get<{ Params: { clientId: string; courseId: string } }>(
    '/clients/:clientId/courses/:courseId',
    async (request, reply) => {
      const query = Query.read(request, ['include']);
      const include = courseIncludes(query);
      const course = coursesOf(context, clientOf(context, request)).find(
        (candidate) => candidate.id === request.params.courseId,
      );
      if (!course)
        throw notFound(
          `Client ${request.params.clientId} has no course ${request.params.courseId}.`,
        );
      return sendResource(context, reply, course, { include });
    },
  );

  app.get<ClientParams>('/clients/:clientId/participants', async (request, reply) => {
    const query = Query.read(request, []);
    const client = clientOf(context, request);
    return sendList(
      context,
      request,
      reply,
      query,
      context.store.related('participation', 'client', client.id),
    );
  });
}
