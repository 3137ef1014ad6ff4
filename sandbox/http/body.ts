// Request documents: `{ data: { type, id, attributes, relationships }, [included] }`, checked in
// the order JSON:API prescribes. A body that is no such document is 400, a `type` or `id` that
// does not fit the endpoint is 409, a client-generated id on creation is 403 (the sandbox, like
// most servers, assigns ids itself; with `clientIds` on, a UUID is accepted, see client-ids.ts),
// and attributes, relationships or included resources that
// break their zod schema are 422 with a JSON pointer to each offending member.
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { isUuid } from './client-ids';
import { ApiError, badDocument, conflict, type ErrorObject } from './errors';

/** How the document's `data.id` must relate to the endpoint. */
export type IdRule =
  /** `clientIds`: a UUID in `data.id` is accepted as a client-generated id (see client-ids.ts). */
  | { kind: 'create'; clientIds?: boolean }
  | { kind: 'update'; id: string }
  /** PUT by identifier: any id, checked by the route. */
  | { kind: 'free' };

export interface DocumentSpec<A extends z.ZodType, R extends z.ZodType, I extends z.ZodType> {
  type: string;
  id: IdRule;
  attributes: A;
  relationships?: R;
  /** The schema of each `included` item; without it, `included` is refused. */
  included?: I;
}

export interface ParsedDocument<A, R, I> {
  id: string | undefined;
  attributes: A;
  relationships: R;
  included: I[];
}

const DOCUMENT_MEMBERS = new Set(['data', 'included', 'meta', 'jsonapi', 'links']);
const DATA_MEMBERS = new Set(['type', 'id', 'attributes', 'relationships', 'meta', 'links']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointerToken(token: PropertyKey): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** zod issues as JSON:API errors, each pointing below `base` (e.g. /data/attributes). */
function issuesToErrors(
  base: string,
  issues: readonly z.core.$ZodIssue[],
): Omit<ErrorObject, 'status' | 'title'>[] {
  return issues.flatMap((issue) => {
    const at = base + issue.path.map((token) => '/' + escapePointerToken(token)).join('');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        code: 'unknown_member',
        detail: `"${key}" is not a member the service accepts here.`,
        source: { pointer: `${at}/${escapePointerToken(key)}` },
      }));
    }
    return [{ code: 'invalid_attribute', detail: issue.message, source: { pointer: at } }];
  });
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, base: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(422, issuesToErrors(base, result.error.issues));
  return result.data;
}

function checkId(rule: IdRule, id: unknown): string | undefined {
  if (id !== undefined && typeof id !== 'string')
    throw badDocument('/data/id', 'The id must be a string.');
  if (rule.kind === 'create') {
    if (id === undefined || id === '') return undefined;
    if (rule.clientIds && isUuid(id)) return id;
    throw new ApiError(403, [
      {
        code: 'client_generated_id',
        detail: rule.clientIds
          ? `A client-generated id must be a UUID, not "${id}"; or leave data.id out.`
          : 'The service assigns ids; leave data.id out (or empty) when creating.',
        source: { pointer: '/data/id' },
      },
    ]);
  }
  if (rule.kind === 'update') {
    if (id === undefined)
      throw badDocument('/data/id', 'data.id is required when changing a resource.');
    if (id !== rule.id)
      throw conflict(`data.id "${id}" does not match the id "${rule.id}" in the path.`, '/data/id');
  }
  return id === '' ? undefined : id;
}

/** Reads and validates the request document; throws ApiError (400/403/409/422) when it does not fit. */
export function readDocument<A extends z.ZodType, R extends z.ZodType, I extends z.ZodType>(
  request: FastifyRequest,
  spec: DocumentSpec<A, R, I>,
): ParsedDocument<z.output<A>, z.output<R> | undefined, z.output<I>> {
  const body: unknown = request.body;
  if (!isObject(body))
    throw badDocument(
      '',
      'The request body must be a JSON:API document (a JSON object with "data").',
    );
  for (const member of Object.keys(body)) {
    if (!DOCUMENT_MEMBERS.has(member) || (member === 'included' && !spec.included)) {
      throw badDocument(
        `/${escapePointerToken(member)}`,
        `"${member}" is not allowed at the top level of this document.`,
      );
    }
  }
  const data = body.data;
  if (!isObject(data)) throw badDocument('/data', 'data must be a resource object.');
  for (const member of Object.keys(data)) {
    if (!DATA_MEMBERS.has(member)) {
      throw badDocument(
        `/data/${escapePointerToken(member)}`,
        `"${member}" is not a member of a resource object.`,
      );
    }
  }
  if (typeof data.type !== 'string') throw badDocument('/data/type', 'data.type is required.');
  if (data.type !== spec.type) {
    throw conflict(
      `data.type "${data.type}" does not match this endpoint, which takes "${spec.type}".`,
      '/data/type',
    );
  }
  const id = checkId(spec.id, data.id);
  if (data.attributes !== undefined && !isObject(data.attributes)) {
    throw badDocument('/data/attributes', 'attributes must be an object.');
  }
  if (data.relationships !== undefined && !isObject(data.relationships)) {
    throw badDocument('/data/relationships', 'relationships must be an object.');
  }
  const attributes = parseOrThrow(spec.attributes, data.attributes ?? {}, '/data/attributes');
  const relationships = spec.relationships
    ? parseOrThrow(spec.relationships, data.relationships ?? {}, '/data/relationships')
    : emptyRelationships(data.relationships);
  const included = readIncluded(body.included, spec.included);
  return { id, attributes, relationships, included };
}

function emptyRelationships(relationships: unknown): undefined {
  if (isObject(relationships) && Object.keys(relationships).length > 0) {
    const [name] = Object.keys(relationships);
    throw new ApiError(422, [
      {
        code: 'unknown_member',
        detail: `"${name}" is not a relationship the service accepts here.`,
        source: { pointer: `/data/relationships/${escapePointerToken(name ?? '')}` },
      },
    ]);
  }
  return undefined;
}

function readIncluded<I extends z.ZodType>(
  included: unknown,
  schema: I | undefined,
): z.output<I>[] {
  if (included === undefined || !schema) return [];
  if (!Array.isArray(included))
    throw badDocument('/included', 'included must be an array of resource objects.');
  return included.map((item, index) => parseOrThrow(schema, item, `/included/${index}`));
}
