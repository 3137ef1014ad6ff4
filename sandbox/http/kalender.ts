// Calendars (tag "Kalender"): the caller's own calendars, creating one, reading and deleting
// one. Every calendar carries its owner's private feed URL (`ical_url`, stored as a path and
// served absolute; see views.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Principal } from '../auth/types';
import type { AccountAttributes, StoredResource } from '../data/store';
import { feedPath } from '../data/generate';
import { readDocument } from './body';
import { clientIdMeta, createOnce, createRule, refuseUsedClientId } from './client-ids';
import type { ApiContext } from './context';
import { changeTimeOf, principalOf } from './context';
import { notFound } from './errors';
import { requireSelfOrOffice } from './permissions';
import { Query } from './query';
import { toOneId } from './records';
import { sendList, sendNoContent, sendResource } from './respond';
import { nonEmptyText } from './schemas';

const kalenderPost = z.strictObject({
  name: nonEmptyText,
  farbe: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Expected a colour #RRGGBB.')
    .optional(),
  beschreibung: z.string().optional(),
});

export function registerKalenderRoutes(app: FastifyInstance, context: ApiContext): void {
  function kalenderFor(principal: Principal, id: string): StoredResource {
    const kalender = context.store.get('kalender', id);
    if (!kalender) throw notFound(`No calendar ${id}.`);
    requireSelfOrOffice(principal, toOneId(kalender, 'user') ?? '', 'Using the calendar');
    return kalender;
  }

  app.get('/kalender', async (request, reply) => {
    const query = Query.read(request, []);
    return sendList(
      context,
      request,
      reply,
      query,
      context.store.related('kalender', 'user', principalOf(request).userId),
    );
  });

  app.post('/kalender', async (request, reply) => {
    Query.read(request, []);
    const { userId } = principalOf(request);
    const document = readDocument(request, {
      type: 'kalender',
      id: createRule(context),
      attributes: kalenderPost,
    });
    refuseUsedClientId(context, 'kalender', document.id);
    const account = context.store.get('account', userId)?.attributes as
      AccountAttributes | undefined;
    const kalender = createOnce(context, 'kalender', document.id, () =>
      context.store.put({
        type: 'kalender',
        id: context.store.nextId('kalender'),
        attributes: {
          farbe: '#c62828',
          beschreibung: '',
          ...document.attributes,
          typ: 'privat',
          ical_url: account ? feedPath(account.feedHash) : '',
          created_at: changeTimeOf(context),
        },
        relationships: { user: { type: 'user', id: userId } },
      }),
    );
    return sendResource(context, reply, kalender, {
      status: 201,
      meta: clientIdMeta(document.id),
    });
  });

  app.get<{ Params: { id: string } }>('/kalender/:id', async (request, reply) => {
    Query.read(request, []);
    return sendResource(context, reply, kalenderFor(principalOf(request), request.params.id));
  });

  app.delete<{ Params: { id: string } }>('/kalender/:id', async (request, reply) => {
    Query.read(request, []);
    const kalender = kalenderFor(principalOf(request), request.params.id);
    context.store.transaction(() => context.store.remove('kalender', kalender.id));
    return sendNoContent(reply);
  });
}
