// The escape hatch for tests: any record of any type changed or removed as it is, for a change
// the other endpoints do not model.
//   PATCH  /records/:type/:id  { attributes?, relationships?, touch? }
//   DELETE /records/:type/:id
// Attributes are merged member by member, relationships replaced per name. `touch` (default
// true) gives the record a new change time and its `updated_at` attribute (unless the body sets
// one); `touch: false` keeps both, for a change the service makes without a trace.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RESOURCE_TYPES, type ResourceType } from '../data/store';
import { type AdminContext, change } from './context';
import { noSuchRecord } from './errors';
import { readBody } from './input';
import { requireRecord, withChangeTime } from './lookup';

const ref = z.strictObject({ type: z.enum(RESOURCE_TYPES), id: z.string().min(1) });

const recordChange = z.strictObject({
  attributes: z.record(z.string(), z.unknown()).optional(),
  relationships: z.record(z.string(), z.union([ref, z.array(ref), z.null()])).optional(),
  touch: z.boolean().optional(),
});

function requireType(type: string): ResourceType {
  if (!(RESOURCE_TYPES as readonly string[]).includes(type))
    throw noSuchRecord(`The sandbox has no record type "${type}".`);
  return type as ResourceType;
}

function patchRecord(admin: AdminContext, type: string, id: string, body: unknown) {
  const { api } = admin;
  const input = readBody(recordChange, body);
  const record = requireRecord(api, requireType(type), id);
  const merged = { ...record.attributes, ...input.attributes };
  const next = {
    ...record,
    relationships: { ...record.relationships, ...input.relationships },
  };
  return change(admin, () => {
    if (input.touch === false) {
      return api.store.putWithTime({ ...next, attributes: merged }, record.updatedAt);
    }
    const setsOwnTime = input.attributes !== undefined && 'updated_at' in input.attributes;
    return api.store.put({
      ...next,
      attributes: setsOwnTime ? merged : withChangeTime(api, merged),
    });
  });
}

export function registerRecordChanges(scope: FastifyInstance, admin: AdminContext): void {
  scope.patch<{ Params: { type: string; id: string } }>('/records/:type/:id', async (request) => {
    const { changed } = patchRecord(admin, request.params.type, request.params.id, request.body);
    return { changed };
  });

  scope.delete<{ Params: { type: string; id: string } }>('/records/:type/:id', async (request) => {
    const type = requireType(request.params.type);
    const record = requireRecord(admin.api, type, request.params.id);
    const { changed } = change(admin, () => admin.api.store.remove(type, record.id));
    return { changed };
  });
}
