// The JSON:API layer over the transport: addresses below the base URL, documents checked
// against their schemas, lists followed page by page, writes sent as they are.
import { hash } from 'node:crypto';
import { z } from 'zod';
import {
  check,
  linkHref,
  malformed,
  parseEnvelope,
  parseIncluded,
  parseJson,
  parseResource,
  type Envelope,
  type Origin,
} from './document';
import type { Page, Single } from './pages';
import type { Resource } from './schemas/common';
import type { HttpResponse, Transport } from './transport';
import { buildUrl, resolveLink, type Query } from './urls';

export interface RequestOptions {
  signal?: AbortSignal;
  /** For lists: give each page its digest (Page.digest), to pass as `knownDigest` next time. */
  withDigest?: boolean;
  /**
   * For lists: the digest of the last answer the caller applied. When the service answers the
   * very same bytes in one page, the list yields a single page marked `unchanged` (no data) and
   * skips parsing and checking what the caller already has. Implies `withDigest`.
   */
  knownDigest?: string;
}

export type WriteMethod = 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface SendOptions extends RequestOptions {
  query?: Query;
  /** A JSON:API document; serialised as JSON. */
  body?: unknown;
}

/** The answer to a write: the parsed document, with resources of known types checked against their schemas. */
export interface SentDocument {
  status: number;
  data: Resource | Resource[] | null;
  included: Resource[];
  meta?: Record<string, unknown>;
  links?: Envelope['links'];
  serverDate: Date | null;
  url: string;
}

export interface ApiCore {
  getOne<S extends z.ZodType>(
    path: string,
    query: Query,
    schema: S,
    options?: RequestOptions,
  ): Promise<Single<z.infer<S>>>;
  list<S extends z.ZodType>(
    path: string,
    query: Query,
    schema: S,
    options?: RequestOptions,
  ): AsyncGenerator<Page<z.infer<S>>>;
  /** A plain-JSON endpoint (user-info, forms): `url` is absolute. */
  getJson<S extends z.ZodType>(url: URL, schema: S, options?: RequestOptions): Promise<z.infer<S>>;
  send(method: WriteMethod, path: string, options?: SendOptions): Promise<SentDocument | null>;
  readonly base: URL;
}

const JSON_API = 'application/vnd.api+json';

export function createCore(base: URL, transport: Transport): ApiCore {
  async function fetchDocument(url: URL, signal: AbortSignal | undefined) {
    const response = await transport({ method: 'GET', url, accept: JSON_API, signal });
    return { response, ...parseDocument(url, response) };
  }

  function parseDocument(url: URL, response: HttpResponse) {
    const origin: Origin = { method: 'GET', url: url.href, status: response.status };
    if (response.body.trim() === '') throw malformed(origin, 'the body is empty');
    return { origin, document: parseEnvelope(response.body, origin) };
  }

  return {
    base,

    async getOne(path, query, schema, options = {}) {
      const url = buildUrl(base, path, query);
      const { response, origin, document } = await fetchDocument(url, options.signal);
      if (document.data === null || Array.isArray(document.data))
        throw malformed(origin, 'data: expected one resource');
      return {
        data: check(schema, document.data, origin, 'data'),
        included: parseIncluded(document.included, origin),
        meta: document.meta,
        serverDate: response.serverDate,
        url: url.href,
      };
    },

    async *list(path, query, schema, options = {}) {
      const listSchema = listSchemaOf(schema);
      const withDigest = options.withDigest === true || options.knownDigest !== undefined;
      const seen = new Set<string>();
      let url: URL | null = buildUrl(base, path, query);
      while (url !== null) {
        seen.add(url.href);
        const response = await transport({
          method: 'GET',
          url,
          accept: JSON_API,
          signal: options.signal,
        });
        const digest = withDigest ? digestOf(response.body) : undefined;
        // The very bytes of an answer applied before: one page (its links had no next), valid.
        if (seen.size === 1 && digest !== undefined && digest === options.knownDigest) {
          yield {
            data: [],
            included: [],
            serverDate: response.serverDate,
            url: url.href,
            digest,
            unchanged: true,
          };
          return;
        }
        const { origin, document } = parseDocument(url, response);
        if (!Array.isArray(document.data))
          throw malformed(origin, 'data: expected a list of resources');
        const next = nextPage(document, origin);
        const page = {
          data: check(listSchema, document.data, origin, 'data'),
          included: parseIncluded(document.included, origin),
          meta: document.meta,
          serverDate: response.serverDate,
          url: url.href,
          ...(digest === undefined ? {} : { digest }),
        };
        if (next !== null && seen.has(next.href))
          throw malformed(origin, `links.next leads back to ${next.href}`);
        yield page;
        url = next;
      }
    },

    async getJson(url, schema, options = {}) {
      const response = await transport({
        method: 'GET',
        url,
        accept: 'application/json',
        signal: options.signal,
      });
      const origin: Origin = { method: 'GET', url: url.href, status: response.status };
      return check(schema, parseJson(response.body, origin), origin, 'body');
    },

    async send(method, path, options = {}) {
      const url = buildUrl(base, path, options.query);
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const response = await transport({
        method,
        url,
        accept: JSON_API,
        body,
        signal: options.signal,
      });
      return parseWriteAnswer(response, { method, url: url.href, status: response.status });
    },
  };

  function nextPage(document: Envelope, origin: Origin): URL | null {
    const href = linkHref(document.links?.next);
    if (href === null || href === '') return null;
    const next = resolveLink(base, href);
    if (next === null) throw malformed(origin, `links.next points to another site: ${href}`);
    return next;
  }
}

function parseWriteAnswer(response: HttpResponse, origin: Origin): SentDocument | null {
  if (response.status === 204 || response.body.trim() === '') return null;
  const document = parseEnvelope(response.body, origin);
  const data = document.data ?? null;
  return {
    status: response.status,
    data: Array.isArray(data)
      ? data.map((item, index) => parseResource(item, origin, `data[${index}]`))
      : data === null
        ? null
        : parseResource(data, origin, 'data'),
    included: parseIncluded(document.included, origin),
    meta: document.meta,
    links: document.links,
    serverDate: response.serverDate,
    url: origin.url,
  };
}

/** A digest of an answer's bytes: equal digests, equal answers. */
function digestOf(body: string): string {
  return hash('sha256', body, 'base64url');
}

const listSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema of a list of `schema`, built once: one array parse rather than one per item is
 * measurably faster on lists of 100,000 resources, and building it per request is not free.
 */
function listSchemaOf<S extends z.ZodType>(schema: S): z.ZodArray<S> {
  let listSchema = listSchemas.get(schema);
  if (!listSchema) {
    listSchema = z.array(schema);
    listSchemas.set(schema, listSchema);
  }
  return listSchema as z.ZodArray<S>;
}
