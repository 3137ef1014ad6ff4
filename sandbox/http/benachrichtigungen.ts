// Notifications (tag "Benachrichtigungen"): the caller's notifications with `meta.size`,
// marking one read (PATCH gelesen) and deleting one. A notification's id joins the
// notification id and its recipient's user id with a hyphen ("17-<userId>"): it is one
// recipient's copy, so only that recipient may touch it, whatever their role.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Principal } from '../auth/types';
import type { StoredResource } from '../data/store';
import { readDocument } from './body';
import type { ApiContext } from './context';
import { principalOf } from './context';
import { forbidden, notFound } from './errors';
import { Query } from './query';
import { sendList, sendNoContent, sendResource } from './respond';

const benachrichtigungPatch = z.strictObject({ gelesen: z.boolean() }).partial();

/** The recipient part of a combined id; the user id is 32 hex characters and contains no hyphen. */
function recipientOf(id: string): string {
  return id.slice(id.indexOf('-') + 1);
}

export function registerBenachrichtigungenRoutes(app: FastifyInstance, context: ApiContext): void {
  function ownNotification(principal: Principal, id: string): StoredResource {
    const notification = context.store.get('benachrichtigung', id);
    if (!notification) throw notFound(`No notification ${id}.`);
    if (recipientOf(id) !== principal.userId)
      throw forbidden(`Notification ${id} is addressed to another person.`);
    return notification;
  }

  app.get('/benachrichtigungen', async (request, reply) => {
    const query = Query.read(request, []);
    const suffix = `-${principalOf(request).userId}`;
    const own = context.store
      .all('benachrichtigung')
      .filter((notification) => notification.id.endsWith(suffix));
    return sendList(context, request, reply, query, own, { meta: { size: own.length } });
  });

  app.patch<{ Params: { id: string } }>('/benachrichtigungen/:id', async (request, reply) => {
    Query.read(request, []);
    const notification = ownNotification(principalOf(request), request.params.id);
    const document = readDocument(request, {
      type: 'benachrichtigung',
      id: { kind: 'update', id: notification.id },
      attributes: benachrichtigungPatch,
    });
    const updated = context.store.transaction(() =>
      context.store.put({
        ...notification,
        attributes: { ...notification.attributes, ...document.attributes },
      }),
    );
    return sendResource(context, reply, updated);
  });

  app.delete<{ Params: { id: string } }>('/benachrichtigungen/:id', async (request, reply) => {
    Query.read(request, []);
    const notification = ownNotification(principalOf(request), request.params.id);
    context.store.transaction(() => context.store.remove('benachrichtigung', notification.id));
    return sendNoContent(reply);
  });
}
