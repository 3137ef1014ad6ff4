// UVTs (tag "Uvt"): the statutory accident insurers; with the organisation's setting "select
// favorites" (on in the demo data) only the favourites are listed.
import type { FastifyInstance } from 'fastify';
import type { Store, StoredResource } from '../data/store';
import type { ApiContext } from './context';
import { principalOf } from './context';
import { requireRole } from './permissions';
import { Query } from './query';
import { sendList } from './respond';

export function registerUvtRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get('/uvts', async (request, reply) => {
    requireRole(principalOf(request), ['office', 'trainer'], 'Reading UVTs');
    const query = Query.read(request, []);
    return sendList(context, request, reply, query, listedUvts(context.store));
  });
}

/** The UVTs that GET /uvts lists: all, or with the setting "select favorites" the favourites. */
export function listedUvts(store: Store): readonly StoredResource[] {
  const uvts = store.all('uvt');
  return store.settings().uvtFavorites
    ? uvts.filter((uvt) => uvt.attributes.favorite === true)
    : uvts;
}
