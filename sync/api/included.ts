// Resolving relationships against a document's `included` resources.
import type { Relationship, Resource } from './schemas/common';
import type { ResourceOfType, ResourceType } from './endpoints/index';

export interface IncludedIndex {
  /** The included resource `type:id`; typed for known types (their schema was checked when parsed). */
  get<T extends ResourceType>(type: T, id: string): ResourceOfType<T> | undefined;
  get(type: string, id: string): Resource | undefined;
  readonly size: number;
}

export function indexIncluded(included: readonly Resource[]): IncludedIndex {
  const byKey = new Map<string, Resource>();
  for (const resource of included) byKey.set(`${resource.type}:${resource.id}`, resource);
  return {
    get: (type: string, id: string) => byKey.get(`${type}:${id}`),
    size: byKey.size,
  } as IncludedIndex;
}

/** The ids a relationship points at: none for a missing or empty one, one for to-one, all for to-many. */
export function relatedIds(
  resource: { relationships?: Record<string, Relationship> },
  name: string,
): string[] {
  const data = resource.relationships?.[name]?.data;
  if (data === undefined || data === null) return [];
  return Array.isArray(data) ? data.map((identifier) => identifier.id) : [data.id];
}
