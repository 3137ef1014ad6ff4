// Finding the records an admin request names, and writing a change the way the service does:
// a record it changes gets a new change time, and its `updated_at` attribute when it has one
// (course, participation, hours, occasion, training, check), as the interface's PATCH does.
import type { ResourceType, StoredResource } from '../data/store';
import type { ApiContext } from '../http/context';
import { changeTimeOf } from '../http/context';
import { noSuchRecord } from './errors';

export function requireRecord(
  api: ApiContext,
  type: ResourceType,
  id: string,
  what: string = type,
): StoredResource {
  const record = api.store.get(type, id);
  if (!record) throw noSuchRecord(`The sandbox holds no ${what} ${id}.`);
  return record;
}

/** The attributes with `updated_at` set to the change time, when the record has that attribute. */
export function withChangeTime(
  api: ApiContext,
  attributes: Record<string, unknown>,
): Record<string, unknown> {
  return 'updated_at' in attributes ? { ...attributes, updated_at: changeTimeOf(api) } : attributes;
}

/** Writes the record as changed now: a new updatedAt, and its `updated_at` attribute. */
export function putTouched(
  api: ApiContext,
  record: Omit<StoredResource, 'updatedAt'>,
): StoredResource {
  return api.store.put({ ...record, attributes: withChangeTime(api, record.attributes) });
}
