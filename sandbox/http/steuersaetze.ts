// Tax rates (tag "Steuersaetze"): reference data for office staff and trainers.
import type { FastifyInstance } from 'fastify';
import type { ApiContext } from './context';
import { principalOf } from './context';
import { requireRole } from './permissions';
import { Query } from './query';
import { sendList } from './respond';

export function registerSteuersaetzeRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get('/steuersaetze', async (request, reply) => {
    requireRole(principalOf(request), ['office', 'trainer'], 'Reading tax rates');
    const query = Query.read(request, []);
    return sendList(context, request, reply, query, context.store.all('steuersatz'));
  });
}
