// Organisation (tag "Organisation"): the master data of the own organisation, for every role.
import type { FastifyInstance } from 'fastify';
import type { ApiContext } from './context';
import { notFound } from './errors';
import { Query } from './query';
import { sendResource } from './respond';

export function registerOrganisationRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get('/organisation/selbst/stammdaten', async (request, reply) => {
    Query.read(request, []);
    const orga = context.store.all('orga')[0];
    if (!orga) throw notFound('The sandbox holds no organisation master data.');
    return sendResource(context, reply, orga);
  });
}
