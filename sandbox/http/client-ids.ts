// Client-generated ids (JSON:API 1.0), accepted on creation only with `clientIds` on
// (startSandbox({ clientIds: true }), `vorort sandbox --client-ids`). The service's own ids stay
// numeric (users 32 hex): the sandbox takes a client id, which must be a UUID, as an idempotency
// key. It keeps one bookkeeping record per type and client id (`client_generated_id`, in the
// same transaction as the created resource, so it survives a restart with --data), answers the
// created resource with its own id plus `meta: { client_id }`, and answers 409 `already_exists`
// (naming the record created first in the error's `meta`) to every later creation with the
// same client id, also after that record was deleted: nothing is created twice.
import type { ResourceType, StoredResource } from '../data/store';
import type { IdRule } from './body';
import type { ApiContext } from './context';
import { ApiError } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/** The id rule of a creation that takes client-generated ids when the sandbox accepts them. */
export function createRule(context: ApiContext): IdRule {
  return { kind: 'create', clientIds: context.clientIds };
}

function keyOf(type: ResourceType, clientId: string): string {
  return `${type}:${clientId.toLowerCase()}`;
}

/** Throws 409 `already_exists` when a resource of this type was created with this client id. */
export function refuseUsedClientId(
  context: ApiContext,
  type: ResourceType,
  clientId: string | undefined,
): void {
  if (clientId === undefined) return;
  const used = context.store.get('client_generated_id', keyOf(type, clientId));
  if (!used) return;
  const resource = used.relationships.resource;
  const existing = resource && !Array.isArray(resource) ? resource : undefined;
  throw new ApiError(409, [
    {
      code: 'already_exists',
      detail: `A ${type} was already created with the client-generated id ${clientId}${
        existing ? ` (the service's id ${existing.id})` : ''
      }; nothing was created.`,
      source: { pointer: '/data/id' },
      meta: { client_id: clientId, type, id: existing?.id ?? null },
    },
  ]);
}

/**
 * Creates a resource once per client id: 409 when the id was used (see refuseUsedClientId),
 * else `create` and the bookkeeping record in one transaction. Without a client id, just create.
 */
export function createOnce(
  context: ApiContext,
  type: ResourceType,
  clientId: string | undefined,
  create: () => StoredResource,
): StoredResource {
  if (clientId === undefined) return create();
  const { store } = context;
  return store.transaction(() => {
    refuseUsedClientId(context, type, clientId);
    const created = create();
    store.put({
      type: 'client_generated_id',
      id: keyOf(type, clientId),
      attributes: { client_id: clientId },
      relationships: { resource: { type: created.type, id: created.id } },
    });
    return created;
  });
}

/** The `meta` of the created resource object: the client id it was created with. */
export function clientIdMeta(clientId: string | undefined): Record<string, unknown> | undefined {
  return clientId === undefined ? undefined : { client_id: clientId };
}
