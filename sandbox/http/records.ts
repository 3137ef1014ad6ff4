// Looking up the records a request document names: an unknown related resource is 404 with a
// pointer to where the document names it (JSON:API: "references a related resource that does
// not exist").
import type { ResourceRef, Store, StoredResource } from '../data/store';
import { ApiError } from './errors';

export function requireRecord(store: Store, ref: ResourceRef, pointer: string): StoredResource {
  const record = store.get(ref.type, ref.id);
  if (!record)
    throw new ApiError(404, [
      { code: 'not_found', detail: `No ${ref.type} ${ref.id}.`, source: { pointer } },
    ]);
  return record;
}

/** The id a to-one relationship points at, undefined when it is empty. */
export function toOneId(resource: StoredResource, name: string): string | undefined {
  const relationship = resource.relationships[name];
  return relationship && !Array.isArray(relationship) ? relationship.id : undefined;
}
