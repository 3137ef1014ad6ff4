// GET /_admin/changes?after=N: the journal's entries after seq N (default 0: all kept), oldest
// first, and `last`, the seq of the latest write. Pass `last` as the next `after`. The journal
// keeps the latest 200,000 entries: when the first entry answered has a seq above after + 1,
// entries in between were forgotten. `limit` caps the entries of one answer.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AdminContext } from './context';
import { countParameter, readQuery } from './input';

const changesQuery = z.strictObject({
  after: countParameter.optional(),
  limit: countParameter.optional(),
});

export function registerChangesRoute(scope: FastifyInstance, admin: AdminContext): void {
  scope.get('/changes', async (request) => {
    const { after = 0, limit } = readQuery(changesQuery, request.query);
    return { changes: admin.journal.after(after, limit), last: admin.journal.last };
  });
}
