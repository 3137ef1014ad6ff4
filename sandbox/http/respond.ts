// Sending answers: JSON:API documents as preserialized strings with their media type (so
// Fastify does no schema work on output), lists through paging, and bodiless 204s.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredResource } from '../data/store';
import type { ApiContext } from './context';
import { paginate } from './paging';
import type { IncludePath, Query } from './query';

export const JSON_API = 'application/vnd.api+json';

/**
 * Sends a serialized body with exactly this media type. A Buffer, because Fastify appends
 * "; charset=utf-8" to string bodies, and JSON:API forbids parameters on its media type.
 */
export function sendBody(
  reply: FastifyReply,
  status: number,
  body: string,
  contentType = JSON_API,
): FastifyReply {
  return reply.code(status).header('content-type', contentType).send(Buffer.from(body));
}

/**
 * One resource, with the related resources of `include` and a top-level `links.self`; `meta`
 * becomes the resource object's own `meta`.
 */
export function sendResource(
  context: ApiContext,
  reply: FastifyReply,
  resource: StoredResource,
  options: {
    include?: readonly IncludePath[];
    status?: number;
    meta?: Record<string, unknown> | undefined;
  } = {},
): FastifyReply {
  const self = context.links.self(resource);
  const body = context.renderer.document(
    resource,
    options.include ?? [],
    { links: { self } },
    options.meta,
  );
  const status = options.status ?? 200;
  if (status === 201) reply.header('location', self);
  return sendBody(reply, status, body);
}

/** A list (paged when the sandbox pages), with `links.self` and, while more remain, `links.next`. */
export function sendList(
  context: ApiContext,
  request: FastifyRequest,
  reply: FastifyReply,
  query: Query,
  records: readonly StoredResource[],
  options: { include?: readonly IncludePath[]; meta?: Record<string, unknown> } = {},
): FastifyReply {
  const page = paginate(records, query, context.links.request(request.url), context.pageSize);
  const body = context.renderer.document(page.items, options.include ?? [], {
    links: page.links,
    ...(options.meta ? { meta: options.meta } : {}),
  });
  return sendBody(reply, 200, body);
}

export function sendNoContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}
