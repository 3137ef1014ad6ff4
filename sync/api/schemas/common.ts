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

export const resourceIdentifier = z.looseObject({ type: z.string().min(1), id });

/** A JSON:API link: a URL string, a link object, or null. */
export const link = z.union([z.string(), z.looseObject({ href: z.string() }), z.null()]);
export const links = z.record(z.string(), link);

export const relationship = z.looseObject({
  data: z.union([resourceIdentifier, z.array(resourceIdentifier), z.null()]).optional(),
  links: links.optional(),
});
export type Relationship = z.infer<typeof relationship>;

/** Any resource object: what `included` holds for types the client has no schema for. */
export const anyResource = z.looseObject({
  type: z.string().min(1),
  id,
  attributes: z.record(z.string(), z.unknown()).optional(),
  relationships: z.record(z.string(), relationship).optional(),
  links: links.optional(),
});
/** A resource of any type; those of a known type were checked against their schema when parsed. */
export type Resource = z.infer<typeof anyResource>;

/** The schema of one resource type: its `type`, a string id, and the given attributes (unknown ones kept). */
export function resourceSchema<const Type extends string, Shape extends z.core.$ZodLooseShape>(
  type: Type,
  attributes: Shape,
) {
  return z.looseObject({
    type: z.literal(type),
    id,
    attributes: z.looseObject(attributes),
    relationships: z.record(z.string(), relationship).optional(),
    links: links.optional(),
  });
}
