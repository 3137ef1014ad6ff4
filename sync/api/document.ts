// Turning a response body into checked data. Either the whole document is valid and comes back
// typed, or parsing throws ApiError 'malformed': never half-applied data (issue 3).
import { z } from 'zod';
import { ApiError } from './errors';
import { anyResource, link, type Resource } from './schemas/common';
import { isResourceType, resourceSchemas } from './schemas/index';

/** The JSON:API top level; `data` and `included` are checked afterwards against their resource schemas. */
const envelope = z.looseObject({
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
  const type = (item as { type?: unknown } | null)?.type;
  const schema =
    typeof type === 'string' && isResourceType(type) ? resourceSchemas[type] : anyResource;
  return check(schema, item, origin, where) as Resource;
}

export function parseIncluded(included: unknown[] | undefined, origin: Origin): Resource[] {
  if (included === undefined) return [];
  return included.map((item, index) => parseResource(item, origin, `included[${index}]`));
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
