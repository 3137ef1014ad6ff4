// Turning a response body into checked data (DESIGN rule 14): the envelope is strict — a body
// that is not a JSON:API document, or a resource without `type` and `id`, throws ApiError
// 'malformed' and nothing of it is applied — while each resource is read on its own: one that
// its schema rejects is set aside as quarantined, with its raw JSON and the reason, and the
// rest of the answer is used. The schemas read attributes tolerantly and count what they convert.
import { z } from 'zod';
import { ApiError } from './errors';
import { anyResource, link, type Resource } from './schemas/common';
import { isResourceType, resourceSchemas } from './endpoints/index';
import { countConversions } from './schemas/tolerance';

/** The JSON:API top level; `data` and `included` are checked afterwards against their resource schemas. */
export const envelope = z.looseObject({
  jsonapi: z.looseObject({ version: z.string().optional() }).optional(),
  data: z.unknown().optional(),
  included: z.array(z.unknown()).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  links: z.record(z.string(), link).optional(),
});
export type Envelope = z.infer<typeof envelope>;

/** What a request was, for the error a bad answer turns into. */
export interface Origin {
  method: string;
  url: string;
  status?: number;
}

export function malformed(origin: Origin, problem: string, cause?: unknown): ApiError {
  return new ApiError({ kind: 'malformed', ...origin, problem, cause });
}

/** JSON.parse that reports a body that is not JSON as 'malformed'. */
export function parseJson(body: string, origin: Origin): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    throw malformed(origin, 'the body is not JSON', error);
  }
}

/** Checks `value` against `schema`; a mismatch becomes 'malformed' naming the first problems and where they are. */
export function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
  origin: Origin,
  where: string,
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw malformed(origin, describeIssues(result.error, where), result.error);
}

export function parseEnvelope(body: string, origin: Origin): Envelope {
  return check(envelope, parseJson(body, origin), origin, 'document');
}

/** A resource checked against the schema of its type; a type without a schema only as a resource. */
export function parseResource(item: unknown, origin: Origin, where: string): Resource {
  return check(schemaOfType(item), item, origin, where) as Resource;
}

function schemaOfType(item: unknown): z.ZodType {
  const type = (item as { type?: unknown } | null)?.type;
  return typeof type === 'string' && isResourceType(type) ? resourceSchemas[type] : anyResource;
}

/** Included resources of a write's answer, each checked against the schema of its type. */
export function parseIncluded(included: unknown[] | undefined, origin: Origin): Resource[] {
  if (included === undefined) return [];
  return included.map((item, index) => parseResource(item, origin, `included[${index}]`));
}

/** A resource the client could not read: skipped, kept with its raw JSON and the reason. */
export interface QuarantinedRecord {
  type: string;
  id: string;
  /** Where in the answer it was: 'data[3]', 'included[0]'. */
  where: string;
  reason: string;
  raw: string;
  url: string;
}

/** What reading an answer's resources gave: the readable ones, the quarantined ones, and how many values were converted. */
export interface ReadResources<T> {
  items: T[];
  quarantined: QuarantinedRecord[];
  conversions: number;
}

/**
 * Reads `values` one resource at a time. The envelope's part stays strict: every entry must be
 * an object with a non-empty string `type` and `id`, or the whole answer is 'malformed'. An
 * entry its schema rejects is quarantined and the others are kept. `schema` null: each entry by
 * the schema of its own type (for `included`).
 */
export function readResources<T>(
  values: readonly unknown[],
  schema: z.ZodType<T> | null,
  origin: Origin,
  where: string,
  /** Let each raw value go once read (`values` is a parse result nobody else holds). */
  release = false,
): ReadResources<T> {
  const items: T[] = [];
  const quarantined: QuarantinedRecord[] = [];
  let conversions = 0;
  values.forEach((value, index) => {
    if (release) (values as unknown[])[index] = null;
    const at = `${where}[${index}]`;
    const { type, id } = identityOf(value, origin, at);
    const read = readEntry(value, schema, origin, at, type, id);
    conversions += read.conversions;
    if ('item' in read) items.push(read.item);
    else quarantined.push(read.quarantined);
  });
  return { items, quarantined, conversions };
}

/**
 * One entry of `data` or `included` whose identity was checked: read by `schema` (null: the
 * schema of its type), or set aside as quarantined with its raw JSON and the reason.
 */
export function readEntry<T>(
  value: unknown,
  schema: z.ZodType<T> | null,
  origin: Origin,
  at: string,
  type: string,
  id: string,
): { item: T; conversions: number } | { quarantined: QuarantinedRecord; conversions: number } {
  const read = countConversions(() => (schema ?? schemaOfType(value)).safeParse(value));
  if (read.value.success) return { item: read.value.data as T, conversions: read.conversions };
  return {
    quarantined: {
      type,
      id,
      where: at,
      reason: describeIssues(read.value.error, at),
      raw: JSON.stringify(value),
      url: origin.url,
    },
    conversions: read.conversions,
  };
}

/** The resource identity JSON:API requires of every resource object: without it the document is broken. */
export function identityOf(
  value: unknown,
  origin: Origin,
  where: string,
): { type: string; id: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw malformed(origin, `${where}: expected a resource object`);
  const { type, id } = value as { type?: unknown; id?: unknown };
  if (typeof type !== 'string' || type === '')
    throw malformed(origin, `${where}.type: expected a non-empty string`);
  // A numeric id is a common slip of JSON producers; the schemas convert it (and count it).
  if ((typeof id !== 'string' || id === '') && !(typeof id === 'number' && Number.isFinite(id)))
    throw malformed(origin, `${where}.id: expected a non-empty string`);
  return { type, id: String(id) };
}

/** The `href` of a link member, whether written as a string or as a link object. */
export function linkHref(value: z.infer<typeof link> | undefined): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : value.href;
}

function describeIssues(error: z.ZodError, where: string): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path
      .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
      .join('');
    return `${where}${path}: ${issue.message}`;
  });
  const more =
    error.issues.length > shown.length ? ` (and ${error.issues.length - shown.length} more)` : '';
  return shown.join('; ') + more;
}
