// Building blocks of the resource schemas. They check what the client relies on (ids are
// strings, names are strings, dates look like dates, flags are booleans) and keep every
// attribute they do not know (the real service sends more than the sandbox). They accept the
// real service's empty forms — "" for strings and dates, 0000-00-00 — and leave turning them
// into null to normalizeEmpty, so the replica's base keeps exactly what the service sent.
import { z } from 'zod';

/** An id in a JSON:API body: always a non-empty string (users 32 hex, others numeric). */
export const id = z.string().min(1);

export const text = z.string();

/** 'YYYY-MM-DD', "" or 0000-00-00 (the last matches the pattern, so it passes as it is). */
export const date = z.string().regex(/^(\d{4}-\d{2}-\d{2})?$/, 'expected a date YYYY-MM-DD or ""');

/** ISO 8601 date-time (offset optional, space separator tolerated) or "" (also 0000-00-00 00:00:00). */
export const dateTime = z
  .string()
  .regex(
    /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/,
    'expected an ISO 8601 date-time or ""',
  );

export const number = z.number();
export const integer = z.int();
export const flag = z.boolean();
export const texts = z.array(z.string());

/** A JSON:API link: a URL string, a link object, or null. */
export const link = z.union([z.string(), z.looseObject({ href: z.string() }), z.null()]);

export interface ResourceIdentifier {
  type: string;
  id: string;
  [member: string]: unknown;
}

export interface Relationship {
  data?: ResourceIdentifier | ResourceIdentifier[] | null;
  [member: string]: unknown;
}

/**
 * `relationships`: every member `{ data: identifier | identifier[] | null }`. Checked by hand
 * rather than as a zod record of unions: it is the hottest path of a large pull (100,000 hour
 * entries with three relationships each), and this is about four times faster.
 */
const relationships = z.custom<Record<string, Relationship>>(
  isRelationships,
  'expected relationships of the form { name: { data: {type, id} | [{type, id}] | null } }',
);

function isRelationships(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const relationship of Object.values(value)) {
    if (typeof relationship !== 'object' || relationship === null) return false;
    const data: unknown = (relationship as Relationship).data;
    if (data === undefined || data === null) continue;
    if (Array.isArray(data) ? !data.every(isIdentifier) : !isIdentifier(data)) return false;
  }
  return true;
}

function isIdentifier(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { type, id } = value as Partial<ResourceIdentifier>;
  return typeof type === 'string' && type !== '' && typeof id === 'string' && id !== '';
}

/** Any resource object: what `included` holds for types the client has no schema for. */
export const anyResource = z.looseObject({
  type: z.string().min(1),
  id,
  attributes: z.record(z.string(), z.unknown()).optional(),
  relationships: relationships.optional(),
});
/** A resource of any type; those of a known type were checked against their schema when parsed. */
export type Resource = z.infer<typeof anyResource>;

/**
 * The schema of one resource type: its `type`, a string id, the given attributes and the
 * relationships. Unknown members are kept unchecked, `links` among them: the client does not
 * follow the links of single resources.
 */
export function resourceSchema<const Type extends string, Shape extends z.core.$ZodLooseShape>(
  type: Type,
  attributes: Shape,
) {
  return z.looseObject({
    type: z.literal(type),
    id,
    attributes: z.looseObject(attributes),
    relationships: relationships.optional(),
  });
}
