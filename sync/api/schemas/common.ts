// Building blocks of the resource schemas (DESIGN rule 14: strict envelope, tolerant attributes).
// A resource schema reads one resource object: its `type`, a string `id`, well-formed
// `relationships` and its attributes, each by a tolerant reader of ./tolerance (no value for
// null, "", absent and zero dates; other JSON types converted or dropped, and counted). Unknown
// attributes are kept, only their empty forms dropped, so two answers that mean the same give
// the same parsed resource (and the same `base` in the replica).
//
// A record is rejected (and quarantined by the caller) only when it cannot be read at all: not
// an object, a wrong or empty `type`, an `id` that is neither a non-empty string nor a number
// (converted, counted), `attributes` present but not an object, malformed `relationships`, or
// a member its schema marks `required` (the few without which the replica cannot file it).
import { z } from 'zod';
import {
  converted,
  isPlainObject,
  objectReader,
  type Fields,
  type ObjectReader,
  type ReadObject,
} from './tolerance';

export {
  code,
  date,
  dateTime,
  flag,
  idText,
  integer,
  list,
  number,
  object,
  raw,
  required,
  text,
  texts,
} from './tolerance';

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

/** A resource as a schema of ./index gives it: `type` as the schema names it, attributes read. */
export interface TypedResource<Type extends string, Attributes> {
  type: Type;
  id: string;
  attributes: Attributes;
  relationships?: Record<string, Relationship>;
  [member: string]: unknown;
}

/**
 * `relationships`: every member `{ data: identifier | identifier[] | null }` (or without `data`).
 * Checked by hand rather than as a zod record of unions: it is the hottest path of a large pull
 * (100,000 hour entries with three relationships each), and this is about four times faster.
 * Returns the value itself when it is well formed, a copy when an identifier's id had to be
 * converted from a number (counted), and undefined when it is malformed.
 */
function readRelationships(value: unknown): Record<string, Relationship> | undefined {
  if (isRelationships(value)) return value as Record<string, Relationship>;
  if (!isPlainObject(value)) return undefined;
  const out: Record<string, Relationship> = {};
  for (const [name, relationship] of Object.entries(value)) {
    if (!isPlainObject(relationship)) return undefined;
    const data = relationship.data;
    if (data === undefined || data === null) {
      out[name] = relationship;
      continue;
    }
    if (Array.isArray(data)) {
      const identifiers: ResourceIdentifier[] = [];
      for (const item of data) {
        const identifier = readIdentifier(item);
        if (identifier === undefined) return undefined;
        identifiers.push(identifier);
      }
      out[name] = { ...relationship, data: identifiers };
    } else {
      const identifier = readIdentifier(data);
      if (identifier === undefined) return undefined;
      out[name] = { ...relationship, data: identifier };
    }
  }
  return out;
}

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

function readIdentifier(value: unknown): ResourceIdentifier | undefined {
  if (!isPlainObject(value)) return undefined;
  const { type, id } = value;
  if (typeof type !== 'string' || type === '') return undefined;
  if (typeof id === 'string' && id !== '') return value as ResourceIdentifier;
  if (typeof id !== 'number' || !Number.isFinite(id)) return undefined;
  converted();
  return { ...value, type, id: String(id) };
}

type Ctx = z.core.$RefinementCtx;

function reject(ctx: Ctx, input: unknown, path: PropertyKey[], message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message, path, input });
  return z.NEVER;
}

interface ReadOptions {
  /** The `type` to require, or null for any non-empty string. */
  type: string | null;
  /** The `type` the result carries; null: the one the resource was sent with. */
  canonical: string | null;
  /** Whether a resource without `attributes` keeps none (anyResource) or reads as `{}`. */
  attributesOptional: boolean;
}

function readResource(
  input: unknown,
  ctx: Ctx,
  attributes: ObjectReader<Fields>,
  options: ReadOptions,
): unknown {
  if (!isPlainObject(input)) return reject(ctx, input, [], 'expected a resource object');
  const { type, id } = input;
  if (typeof type !== 'string' || type === '')
    return reject(ctx, type, ['type'], 'expected a non-empty string');
  if (options.type !== null && type !== options.type)
    return reject(ctx, type, ['type'], `expected "${options.type}"`);
  let readId: string;
  if (typeof id === 'string' && id !== '') readId = id;
  else if (typeof id === 'number' && Number.isFinite(id)) {
    converted();
    readId = String(id);
  } else return reject(ctx, id, ['id'], 'expected a non-empty string');

  const out: Record<string, unknown> = { ...input, type: options.canonical ?? type, id: readId };
  const source = input.attributes;
  if (source === undefined) {
    if (options.attributesOptional) delete out.attributes;
    else {
      const read = attributes({});
      if (read.missing !== undefined)
        return reject(ctx, undefined, ['attributes', read.missing], 'required, but no value');
      out.attributes = read.value;
    }
  } else if (!isPlainObject(source)) {
    return reject(ctx, source, ['attributes'], 'expected an object');
  } else {
    const read = attributes(source);
    if (read.missing !== undefined)
      return reject(
        ctx,
        source[read.missing],
        ['attributes', read.missing],
        'required, but no readable value',
      );
    out.attributes = read.value;
  }
  if (input.relationships !== undefined) {
    const relationships = readRelationships(input.relationships);
    if (relationships === undefined)
      return reject(
        ctx,
        input.relationships,
        ['relationships'],
        'expected relationships of the form { name: { data: {type, id} | [{type, id}] | null } }',
      );
    out.relationships = relationships;
  }
  return out;
}

const noFields = objectReader({});

/**
 * Any resource object: what `included` holds for types the client has no schema for. Its
 * attributes are kept as sent, only their empty forms dropped.
 */
export const anyResource = z.transform(
  (input: unknown, ctx) =>
    readResource(input, ctx, noFields, {
      type: null,
      canonical: null,
      attributesOptional: true,
    }) as {
      type: string;
      id: string;
      attributes?: Record<string, unknown>;
      relationships?: Record<string, Relationship>;
      [member: string]: unknown;
    },
);
/** A resource of any type; those of a known type were checked against their schema when parsed. */
export type Resource = z.infer<typeof anyResource>;

export interface ResourceSchemaOptions {
  /**
   * For the types the seed leaves open (trainings, checks, honours, course types, UVTs, tax
   * rates): any non-empty `type` is accepted, since the endpoint says what the resource is, and
   * the result carries the canonical `type` given here, so code after the parse can rely on it.
   */
  anyTypeSpelling?: boolean;
}

/**
 * The schema of one resource type: its `type`, a string id, the attributes read by `fields`
 * (unknown ones kept) and the relationships. Other members (`links`, `meta`) are kept unchecked.
 */
export function resourceSchema<const Type extends string, S extends Fields>(
  type: Type,
  fields: S,
  options: ResourceSchemaOptions = {},
) {
  const attributes = objectReader(fields) as ObjectReader<Fields>;
  const read: ReadOptions = {
    type: options.anyTypeSpelling === true ? null : type,
    canonical: type,
    attributesOptional: false,
  };
  return z.transform(
    (input: unknown, ctx) =>
      readResource(input, ctx, attributes, read) as TypedResource<Type, ReadObject<S>>,
  );
}

/**
 * A plain-JSON object (user-info, a form) read like attributes; not an object, or a required
 * member without value, is rejected.
 */
export function plainObjectSchema<S extends Fields>(fields: S) {
  const read = objectReader(fields);
  return z.transform((input: unknown, ctx): ReadObject<S> => {
    if (!isPlainObject(input)) return reject(ctx, input, [], 'expected an object');
    const result = read(input);
    if (result.missing !== undefined)
      return reject(
        ctx,
        input[result.missing],
        [result.missing],
        'required, but no readable value',
      );
    return result.value;
  });
}
