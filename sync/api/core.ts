// The JSON:API layer over the transport: addresses below the base URL, documents checked
// against their schemas, lists followed page by page, writes sent as they are.
//
// Lists on a paging service (DESIGN rules 9 and 11). The real service answers a list in one
// response; a service that pages by offset shifts every later record one place forward when a
// record is deleted between two pages, so the first record of the next page is never listed (a
// full scan would delete it from the replica, an incremental pull would lose its edit and move
// the watermark past it). So a list answer that took more than one page is read a second time,
// from its first page (the verification pass), and the list is the union of both passes: the
// second pass yields only the records the first did not give (pages marked `verification`),
// and within a paged answer no record is given twice. A one-page answer costs nothing extra and
// keeps its digest; the watermark stays the clock of the first page (Page.serverDate of the
// first page yielded). A record gone between the passes is still listed by the first: its
// deletion is found by the next scan. Every page of both passes is a request like any other
// (the client's onRequest, so the sync's budget counts it).
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
import { listDocumentSink, type StreamedList } from './stream-document';
import type { HttpRequest, HttpResponse, Transport } from './transport';
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
  /**
   * For lists: read an answer that took more than one page a second time and give what only the
   * second pass listed (see the header). Default true; false only where a record the paging hid
   * costs nothing: a caller that neither removes what a list does not name nor moves a watermark
   * past it.
   */
  verifyPaged?: boolean;
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
  /**
   * list, with each readable entry of `data` turned by `map` into what the caller keeps (its
   * rows) as soon as it is read: a large answer is read as it arrives (see STREAM_ANSWERS_FROM_BYTES)
   * and neither its text nor its resources are held, only what `map` made of them.
   */
  listMapped<S extends z.ZodType, M>(
    path: string,
    query: Query,
    schema: S,
    map: (item: z.infer<S>) => M,
    options?: RequestOptions,
  ): AsyncGenerator<Page<M>>;
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

/**
 * A list answer of at least this many bytes (Content-Length), or of an unknown length, is read as
 * it arrives instead of whole (sync/api/stream-document.ts). Read whole, an answer costs about
 * ten times its size while it is parsed and checked (its text, its parsed tree and the checked
 * copy); read as a stream, about what the caller keeps of it, but the parser (JavaScript, not the
 * engine's JSON.parse) takes a few times longer per byte. At scale `large` the people's list
 * (21 MB) is streamed; a month of everyone's hours (3.5 to 4.1 MB) is read whole, one at a time,
 * which made a sync that reads such windows 15 to 20% faster and left its peak memory where it
 * was (docs/benches.md). The hundreds of small answers of a sync stay with JSON.parse.
 */
export const STREAM_ANSWERS_FROM_BYTES = 5_000_000;

export interface CoreOptions {
  backoff?: BackoffOptions;
  /** See STREAM_ANSWERS_FROM_BYTES; Infinity reads every answer whole, 0 streams every list answer. */
  streamAnswersFromBytes?: number;
}

/** How a list's entries are read and what the caller keeps of each. */
interface ListReading<T, M> {
  schema: z.ZodType<T>;
  map: ((item: T) => M) | null;
  /** Whether an answer read as a stream gets its digest. */
  digest: boolean;
}

/** A list answer read: its document, or (read as a stream) what the stream reader made of it. */
interface Fetched<M> {
  response: HttpResponse;
  origin: Origin;
  digest?: string;
  /** null: the answer equals the known digest (not read), or it was read as a stream. */
  document: Envelope | null;
  streamed?: StreamedList<M>;
}

export function createCore(base: URL, transport: Transport, options: CoreOptions = {}): ApiCore {
  const backoff = options.backoff ?? {};
  const streamFrom = options.streamAnswersFromBytes ?? STREAM_ANSWERS_FROM_BYTES;

  /**
   * GETs a JSON:API document. An answer whose bytes equal `knownDigest` comes back unparsed
   * (`document` null); an answer that cannot be parsed as a document is fetched again, bounded.
   * With `reading`, a large answer is read as a stream (`streamed`, see STREAM_ANSWERS_FROM_BYTES).
   */
  async function fetchDocument<T, M>(
    url: URL,
    signal: AbortSignal | undefined,
    knownDigest?: string,
    reading?: ListReading<T, M>,
  ): Promise<Fetched<M>> {
    for (let retry = 0; ; retry += 1) {
      const request: HttpRequest = { method: 'GET', url, accept: JSON_API, signal };
      if (reading) {
        request.consume = ({ status, headers }) => {
          const length = Number(headers.get('content-length') ?? Number.NaN);
          if (Number.isFinite(length) ? length < streamFrom : streamFrom === Infinity) return null;
          const origin: Origin = { method: 'GET', url: url.href, status };
          return listDocumentSink(
            reading.schema,
            reading.map ?? ((item) => item as unknown as M),
            origin,
            {
              digest: reading.digest,
            },
          );
        };
      }
      try {
        const response = await transport(request);
        const origin: Origin = { method: 'GET', url: url.href, status: response.status };
        if (response.streamed !== undefined) {
          const streamed = response.streamed as StreamedList<M>;
          return { response, origin, digest: streamed.digest, document: null, streamed };
        }
        const digest = knownDigest === undefined ? undefined : digestOf(response.body);
        if (digest !== undefined && digest === knownDigest)
          return { response, origin, digest, document: null };
        if (response.body.trim() === '') throw malformed(origin, 'the body is empty');
        const document = parseEnvelope(response.body, origin);
        // The text is not needed once parsed: a 21 MB answer should not stay alive beside its tree.
        return { response: { ...response, body: '' }, origin, digest, document };
      } catch (error) {
        if (!(error instanceof ApiError) || error.kind !== 'malformed') throw error;
        if (retry >= MALFORMED_ANSWER_RETRIES) throw error;
        await pause(retryDelayMs(retry, undefined, backoff), signal, url);
      }
    }
  }

  /** See ApiCore.list and ApiCore.listMapped. */
  async function* listPages<T, M>(
    path: string,
    query: Query,
    schema: z.ZodType<T>,
    map: ((item: T) => M) | null,
    options: RequestOptions,
  ): AsyncGenerator<Page<M>> {
    const withDigest = options.withDigest === true || options.knownDigest !== undefined;
    const first = buildUrl(base, path, query);
    // Records (`type:id`) and included resources given so far, kept once the answer pages.
    let given: { data: Set<string>; included: Set<string> } | null = null;
    for (const verification of [false, true]) {
      const seen = new Set<string>();
      let url: URL | null = first;
      while (url !== null) {
        seen.add(url.href);
        // Only a one-page answer can equal a known digest (a digest stands for a whole answer).
        const known = seen.size === 1 && !verification ? options.knownDigest : undefined;
        const asked = withDigest && !verification;
        const fetched: Fetched<M> = await fetchDocument(
          url,
          options.signal,
          asked ? (known ?? '') : undefined,
          { schema, map, digest: asked },
        );
        const { response, origin, document, streamed } = fetched;
        const digest = fetched.digest;
        // The very bytes of an answer applied before: one page (its links had no next), valid.
        if (
          (document === null && streamed === undefined) ||
          (streamed !== undefined && known !== undefined && digest === known)
        ) {
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
        if (document !== null && !Array.isArray(document.data))
          throw malformed(origin, 'data: expected a list of resources');
        const next: URL | null = nextPage(document ?? { links: streamed?.links }, origin);
        if (next !== null && seen.has(next.href))
          throw malformed(origin, `links.next leads back to ${next.href}`);
        if (given === null && next !== null) given = { data: new Set(), included: new Set() };
        let page: Page<M>;
        if (streamed !== undefined) {
          page = streamedPage(given === null ? streamed : notGivenStreamed(streamed, given), {
            serverDate: response.serverDate,
            url,
            digest: asked ? digest : undefined,
          });
        } else {
          const whole = document as Envelope & { data: unknown[] };
          if (given !== null) {
            whole.data = notGivenYet(whole.data, given.data);
            if (whole.included) whole.included = notGivenYet(whole.included, given.included);
          }
          page = readListPage({ ...fetched, document: whole }, schema, map, url);
        }
        if (!verification) yield page;
        // The verification pass gives only what the first pass did not (nothing, mostly).
        else if (page.data.length + page.quarantined.length + page.included.length > 0)
          yield { ...page, verification: true };
        url = next;
      }
      // A one-page answer is complete as it is; so is any answer where the caller says so.
      if (given === null || options.verifyPaged === false) return;
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

    list(path, query, schema, options = {}) {
      return listPages(path, query, schema as z.ZodType<z.infer<typeof schema>>, null, options);
    },

    listMapped(path, query, schema, map, options = {}) {
      return listPages(path, query, schema as z.ZodType<z.infer<typeof schema>>, map, options);
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
  function readListPage<T, M>(
    fetched: {
      response: { serverDate: Date | null };
      origin: Origin;
      digest?: string;
      document: Envelope;
    },
    schema: z.ZodType<T>,
    map: ((item: T) => M) | null,
    url: URL,
  ): Page<M> {
    const { response, origin, digest, document } = fetched;
    if (!Array.isArray(document.data))
      throw malformed(origin, 'data: expected a list of resources');
    const data = readResources(document.data, schema, origin, 'data', true);
    const included = readResources<Resource>(
      document.included ?? [],
      null,
      origin,
      'included',
      true,
    );
    const page = {
      data: map === null ? (data.items as unknown as M[]) : data.items.map(map),
      included: included.items,
      quarantined: [...data.quarantined, ...included.quarantined],
      conversions: data.conversions + included.conversions,
      meta: document.meta,
      serverDate: response.serverDate,
      url: url.href,
      ...(digest === undefined ? {} : { digest }),
    };
    return page;
  }

  function nextPage(document: Pick<Envelope, 'links'>, origin: Origin): URL | null {
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

/**
 * The entries of a paged answer not given on an earlier page (of either pass), each noted as
 * given. An entry without a string `type` and `id` stays, for the reader to refuse.
 */
function notGivenYet(entries: readonly unknown[], given: Set<string>): unknown[] {
  return entries.filter((entry) => {
    if (typeof entry !== 'object' || entry === null) return true;
    const { type, id } = entry as { type?: unknown; id?: unknown };
    if (typeof type !== 'string' || typeof id !== 'string') return true;
    const key = `${type}:${id}`;
    if (given.has(key)) return false;
    given.add(key);
    return true;
  });
}

/** A page of a list from what the stream reader made of its answer. */
function streamedPage<M>(
  streamed: StreamedList<M>,
  at: { serverDate: Date | null; url: URL; digest: string | undefined },
): Page<M> {
  return {
    data: streamed.data,
    included: streamed.included,
    quarantined: streamed.quarantined,
    conversions: streamed.conversions,
    meta: streamed.meta,
    serverDate: at.serverDate,
    url: at.url.href,
    ...(at.digest === undefined ? {} : { digest: at.digest }),
  };
}

/** notGivenYet for an answer read as a stream: its entries by their `type:id`. */
function notGivenStreamed<M>(
  streamed: StreamedList<M>,
  given: { data: Set<string>; included: Set<string> },
): StreamedList<M> {
  const fresh = (set: Set<string>, key: string) => {
    if (set.has(key)) return false;
    set.add(key);
    return true;
  };
  const keep = streamed.dataKeys.map((key) => fresh(given.data, key));
  const included = streamed.included.filter((r) => fresh(given.included, `${r.type}:${r.id}`));
  const quarantined = streamed.quarantined.filter((r) =>
    fresh(r.where.startsWith('included') ? given.included : given.data, `${r.type}:${r.id}`),
  );
  return {
    ...streamed,
    data: streamed.data.filter((_, index) => keep[index]),
    dataKeys: streamed.dataKeys.filter((_, index) => keep[index]),
    included,
    quarantined,
  };
}

/** A digest of an answer's bytes: equal digests, equal answers. */
function digestOf(body: string): string {
  return hash('sha256', body, 'base64url');
}
