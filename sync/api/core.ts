// The JSON:API layer over the transport: addresses below the base URL, documents checked
// against their schemas, lists followed page by page, writes sent as they are.
import { hash } from 'node:crypto';
import type { z } from 'zod';
import { sleep } from './abort';
import { retryDelayMs, type BackoffOptions } from './backoff';
import {
  check,
  linkHref,
  malformed,
  parseEnvelope,
  parseIncluded,
  parseJson,
  parseResource,
  readResources,
  type Envelope,
  type Origin,
} from './document';
import { ApiError } from './errors';
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

/**
 * A GET answered 200 with a body that is cut off or not a JSON:API document is fetched again this
 * many times, like a 5xx: a truncated transfer is a transient fault, not the service's meaning.
 */
export const MALFORMED_ANSWER_RETRIES = 2;

export function createCore(base: URL, transport: Transport, backoff: BackoffOptions = {}): ApiCore {
  /**
   * GETs a JSON:API document. An answer whose bytes equal `knownDigest` comes back unparsed
   * (`document` null); an answer that cannot be parsed as a document is fetched again, bounded.
   */
  async function fetchDocument(url: URL, signal: AbortSignal | undefined, knownDigest?: string) {
    for (let retry = 0; ; retry += 1) {
      const response = await transport({ method: 'GET', url, accept: JSON_API, signal });
      const origin: Origin = { method: 'GET', url: url.href, status: response.status };
      const digest = knownDigest === undefined ? undefined : digestOf(response.body);
      if (digest !== undefined && digest === knownDigest)
        return { response, origin, digest, document: null };
      try {
        if (response.body.trim() === '') throw malformed(origin, 'the body is empty');
        const document = parseEnvelope(response.body, origin);
        // The text is not needed once parsed: a 21 MB answer should not stay alive beside its tree.
        return { response: { ...response, body: '' }, origin, digest, document };
      } catch (error) {
        if (!(error instanceof ApiError) || retry >= MALFORMED_ANSWER_RETRIES) throw error;
        await pause(retryDelayMs(retry, undefined, backoff), signal, url);
      }
    }
  }

  return {
    base,

    async getOne(path, query, schema, options = {}) {
      const url = buildUrl(base, path, query);
      const { response, origin, document } = await fetchDocument(url, options.signal);
      if (!document || document.data === null || Array.isArray(document.data))
        throw malformed(origin, 'data: expected one resource');
      const read = readResources(
        [document.data],
        schema as z.ZodType<z.infer<typeof schema>>,
        origin,
        'data',
      );
      const [data] = read.items;
      // One resource that cannot be read leaves nothing to apply: the caller keeps what it has.
      if (data === undefined) throw malformed(origin, read.quarantined[0]?.reason ?? 'data');
      const included = readResources<Resource>(document.included ?? [], null, origin, 'included');
      return {
        data,
        included: included.items,
        quarantined: included.quarantined,
        conversions: read.conversions + included.conversions,
        meta: document.meta,
        serverDate: response.serverDate,
        url: url.href,
      };
    },

    async *list(path, query, schema, options = {}) {
      const withDigest = options.withDigest === true || options.knownDigest !== undefined;
      const seen = new Set<string>();
      let url: URL | null = buildUrl(base, path, query);
      while (url !== null) {
        seen.add(url.href);
        // Only a one-page answer can equal a known digest (a digest stands for a whole answer).
        const known = seen.size === 1 ? options.knownDigest : undefined;
        const fetched = await fetchDocument(
          url,
          options.signal,
          withDigest ? (known ?? '') : undefined,
        );
        const { response, origin, document } = fetched;
        const digest = fetched.digest;
        // The very bytes of an answer applied before: one page (its links had no next), valid.
        if (document === null) {
          yield {
            data: [],
            included: [],
            quarantined: [],
            conversions: 0,
            serverDate: response.serverDate,
            url: url.href,
            ...(digest === undefined ? {} : { digest }),
            unchanged: true,
          };
          return;
        }
        const read: { page: Page<z.infer<typeof schema>>; next: URL | null } = readListPage(
          fetched,
          schema as z.ZodType<z.infer<typeof schema>>,
          url,
        );
        const { page, next } = read;
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

  /**
   * One page of a list, read from its document. The raw resources are let go as they are read
   * (and the document with this frame), so a large answer is not held twice while it is applied.
   */
  function readListPage<T>(
    fetched: {
      response: { serverDate: Date | null };
      origin: Origin;
      digest?: string;
      document: Envelope;
    },
    schema: z.ZodType<T>,
    url: URL,
  ): { page: Page<T>; next: URL | null } {
    const { response, origin, digest, document } = fetched;
    if (!Array.isArray(document.data))
      throw malformed(origin, 'data: expected a list of resources');
    const next: URL | null = nextPage(document, origin);
    const data = readResources(document.data, schema, origin, 'data', true);
    const included = readResources<Resource>(
      document.included ?? [],
      null,
      origin,
      'included',
      true,
    );
    const page = {
      data: data.items,
      included: included.items,
      quarantined: [...data.quarantined, ...included.quarantined],
      conversions: data.conversions + included.conversions,
      meta: document.meta,
      serverDate: response.serverDate,
      url: url.href,
      ...(digest === undefined ? {} : { digest }),
    };
    return { page, next };
  }

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

/** Waits before fetching again; a cancelled caller is not kept waiting. */
async function pause(ms: number, signal: AbortSignal | undefined, url: URL): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch {
    throw new ApiError({ kind: 'cancelled', method: 'GET', url: url.href });
  }
}

/** A digest of an answer's bytes: equal digests, equal answers. */
function digestOf(body: string): string {
  return hash('sha256', body, 'base64url');
}
