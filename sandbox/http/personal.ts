// Personnel (tag "Personal"): the own record, the list with its filters, creating and changing
// people (POST, PATCH, PUT by user_id or mitgliednr), and a person's trainings, checks and
// honours. A person's `ausbildungen` attribute embeds the same entries as their trainings
// list, so deleting a training also changes the person (and their change time).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/types';
import type { EmbeddedAusbildung, UserAttributes } from '../data/model';
import type { ResourceType, StoredResource } from '../data/store';
import { readDocument } from './body';
import { clientIdMeta, createOnce, createRule, refuseUsedClientId } from './client-ids';
import type { ApiContext } from './context';
import { principalOf } from './context';
import { badParameter, conflict, notFound } from './errors';
import { requireOffice, requireSelfOrOffice } from './permissions';
import {
  applyUserInput,
  blankUser,
  requireNamesForCreation,
  USER_STATUSES,
  userInput,
  type UserInput,
} from './personal-input';
import { Query } from './query';
import { toOneId } from './records';
import { sendList, sendNoContent, sendResource } from './respond';

const USER_ID = /^[0-9a-f]{32}$/;
const IDENTIFIERS = ['user_id', 'mitgliednr'] as const;

function userOrNotFound(context: ApiContext, userId: string): StoredResource {
  const user = context.store.get('user', userId);
  if (!user) throw notFound(`No person with id "${userId}".`);
  return user;
}

function updatedSince(
  records: readonly StoredResource[],
  instant: number | undefined,
): readonly StoredResource[] {
  if (instant === undefined) return records;
  const since = new Date(instant).toISOString();
  return records.filter((record) => record.updatedAt >= since);
}

/** 409 when another person already carries the (non-empty) member number. */
function requireUniqueMemberNumber(
  context: ApiContext,
  mitgliednr: string | undefined,
  ownId: string | undefined,
): void {
  if (!mitgliednr) return;
  const holder = context.store
    .all('user')
    .find((user) => user.attributes.mitgliednr === mitgliednr && user.id !== ownId);
  if (holder)
    throw conflict(
      `Member number "${mitgliednr}" already belongs to person ${holder.id}.`,
      '/data/attributes/mitgliednr',
    );
}

function createUser(context: ApiContext, id: string, input: UserInput): StoredResource {
  requireNamesForCreation(input);
  requireUniqueMemberNumber(context, input.mitgliednr, undefined);
  const organisation = context.store.all('organisation')[0];
  const orga = context.store.all('orga')[0];
  const kuerzel = typeof orga?.attributes.kuerzel === 'string' ? orga.attributes.kuerzel : '';
  return context.store.transaction(() =>
    context.store.put({
      type: 'user',
      id,
      attributes: { ...applyUserInput(blankUser(kuerzel), input) },
      relationships: {
        organisation: organisation ? { type: 'organisation', id: organisation.id } : null,
      },
    }),
  );
}

function updateUser(context: ApiContext, user: StoredResource, input: UserInput): StoredResource {
  requireUniqueMemberNumber(context, input.mitgliednr, user.id);
  const attributes = applyUserInput(user.attributes as unknown as UserAttributes, input);
  return context.store.transaction(() =>
    context.store.put({ ...user, attributes: { ...attributes } }),
  );
}

function newUserId(context: ApiContext): string {
  for (;;) {
    const id = randomBytes(16).toString('hex');
    if (!context.store.get('user', id)) return id;
  }
}

/** PUT /personal/{identifier_name}/{identifier_value}: update the match, or create when none. */
function putUser(context: ApiContext, request: FastifyRequest, name: string, value: string) {
  if (!(IDENTIFIERS as readonly string[]).includes(name)) {
    throw badParameter(
      'identifier_name',
      `"${name}" is not an identifier; use one of ${IDENTIFIERS.join(', ')}.`,
    );
  }
  const document = readDocument(request, {
    type: 'user',
    id: { kind: 'free' },
    attributes: userInput,
  });
  const input = document.attributes;
  if (name === 'user_id') {
    if (!USER_ID.test(value))
      throw badParameter('identifier_value', `"${value}" is not a user id (32 hex characters).`);
    if (document.id !== undefined && document.id !== value) {
      throw conflict(
        `data.id "${document.id}" does not match the user id "${value}" in the path.`,
        '/data/id',
      );
    }
    const existing = context.store.get('user', value);
    return existing
      ? { user: updateUser(context, existing, input), created: false }
      : { user: createUser(context, value, input), created: true };
  }
  const matches = context.store.all('user').filter((user) => user.attributes.mitgliednr === value);
  if (matches.length > 1)
    throw conflict(`Member number "${value}" belongs to ${matches.length} people.`);
  const [existing] = matches;
  if (document.id !== undefined && document.id !== existing?.id) {
    throw conflict(
      `data.id "${document.id}" is not the person with member number "${value}".`,
      '/data/id',
    );
  }
  if (existing) return { user: updateUser(context, existing, input), created: false };
  if (input.mitgliednr !== undefined && input.mitgliednr !== value) {
    throw conflict(
      `mitgliednr "${input.mitgliednr}" contradicts the identifier "${value}" in the path.`,
      '/data/attributes/mitgliednr',
    );
  }
  return {
    user: createUser(context, newUserId(context), { ...input, mitgliednr: value }),
    created: true,
  };
}

/** GET of a person's sub-resource list (trainings, checks, honours), for office or the person. */
function personList(
  app: FastifyInstance,
  context: ApiContext,
  path: string,
  type: ResourceType,
  options: { filters: boolean; what: string },
): void {
  app.get<{ Params: { userId: string } }>(`/personal/:userId/${path}`, async (request, reply) => {
    requireSelfOrOffice(principalOf(request), request.params.userId, `Reading the ${options.what}`);
    const query = Query.read(request, options.filters ? ['filter[updated_since]', 'include'] : []);
    const since = query.instant('filter[updated_since]');
    const include = query.include({ user: ['user'] });
    const user = userOrNotFound(context, request.params.userId);
    const records = updatedSince(context.store.related(type, 'user', user.id), since);
    return sendList(context, request, reply, query, records, { include });
  });
}

function deleteTraining(
  context: ApiContext,
  principal: Principal,
  userId: string,
  trainingId: string,
): void {
  requireOffice(principal, 'Deleting a training entry');
  const user = userOrNotFound(context, userId);
  const training = context.store.get('ausbildung', trainingId);
  if (!training || toOneId(training, 'user') !== user.id) {
    throw notFound(`Person ${userId} has no training entry ${trainingId}.`);
  }
  const embedded = (user.attributes.ausbildungen ?? []) as EmbeddedAusbildung[];
  context.store.transaction(() => {
    context.store.remove('ausbildung', training.id);
    context.store.put({
      ...user,
      attributes: {
        ...user.attributes,
        ausbildungen: embedded.filter((entry) => entry.id !== training.id),
      },
    });
  });
}

export function registerPersonalRoutes(app: FastifyInstance, context: ApiContext): void {
  app.get('/personal/selbst', async (request, reply) => {
    Query.read(request, []);
    return sendResource(context, reply, userOrNotFound(context, principalOf(request).userId));
  });

  app.get('/personal', async (request, reply) => {
    requireOffice(principalOf(request), 'Listing personnel');
    const query = Query.read(request, ['filter[updated_since]', 'filter[status]', 'include']);
    const since = query.instant('filter[updated_since]');
    const statuses = query.list('filter[status]', USER_STATUSES);
    const include = query.include({ organisation: ['organisation'] });
    let users = updatedSince(context.store.all('user'), since);
    if (statuses)
      users = users.filter((user) =>
        statuses.includes(user.attributes.status as (typeof USER_STATUSES)[number]),
      );
    return sendList(context, request, reply, query, users, { include });
  });

  app.post('/personal', async (request, reply) => {
    requireOffice(principalOf(request), 'Creating personnel');
    Query.read(request, []);
    const document = readDocument(request, {
      type: 'user',
      id: createRule(context),
      attributes: userInput,
    });
    refuseUsedClientId(context, 'user', document.id);
    const user = createOnce(context, 'user', document.id, () =>
      createUser(context, newUserId(context), document.attributes),
    );
    return sendResource(context, reply, user, { status: 201, meta: clientIdMeta(document.id) });
  });

  app.patch<{ Params: { userId: string } }>('/personal/:userId', async (request, reply) => {
    requireOffice(principalOf(request), 'Changing personnel');
    Query.read(request, []);
    const user = userOrNotFound(context, request.params.userId);
    const document = readDocument(request, {
      type: 'user',
      id: { kind: 'update', id: user.id },
      attributes: userInput,
    });
    return sendResource(context, reply, updateUser(context, user, document.attributes));
  });

  app.put<{ Params: { name: string; value: string } }>(
    '/personal/:name/:value',
    async (request, reply) => {
      requireOffice(principalOf(request), 'Creating or changing personnel');
      Query.read(request, []);
      const { user, created } = putUser(
        context,
        request,
        request.params.name,
        request.params.value,
      );
      return sendResource(context, reply, user, { status: created ? 201 : 200 });
    },
  );

  personList(app, context, 'ausbildungen', 'ausbildung', { filters: true, what: 'trainings' });
  personList(app, context, 'ueberpruefungen', 'ueberpruefung', { filters: true, what: 'checks' });
  personList(app, context, 'ehrungen', 'ehrung', { filters: false, what: 'honours' });

  app.delete<{ Params: { userId: string; id: string } }>(
    '/personal/:userId/ausbildungen/:id',
    async (request, reply) => {
      Query.read(request, []);
      deleteTraining(context, principalOf(request), request.params.userId, request.params.id);
      return sendNoContent(reply);
    },
  );
}
