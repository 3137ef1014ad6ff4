// The HTTP client of the sandbox's own tests: plain fetch, and every JSON:API answer checked on
// the way in (exact media type, JSON:API 1.0 response schema), so no test can forget it.
import { expect } from 'vitest';
import { assertJsonApiDocument } from '../../test/support/jsonapi-conformance';
import type { RunningSandbox } from '../server';
import type { Role } from '../data/store';

export const JSON_API = 'application/vnd.api+json';

/** A JSON:API document as tests read it: loosely typed on purpose. */
export interface Doc {
  data?: Res | Res[] | null;
  included?: Res[];
  links?: Record<string, string>;
  meta?: Record<string, unknown>;
  errors?: {
    status: string;
    code?: string;
    title: string;
    detail: string;
    source?: { pointer?: string; parameter?: string };
  }[];
}

export interface Res {
  type: string;
  id: string;
  // Tests read attributes freely and let expect() judge them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  attributes: Record<string, any>;
  relationships?: Record<
    string,
    { data: { type: string; id: string } | { type: string; id: string }[] | null }
  >;
  links: { self: string };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body of a JSON:API answer (checked against the schema), else {}. */
  doc: Doc;
}

export interface RequestOptions {
  /** Default: the client's token; null sends no Authorization header. */
  token?: string | null;
  contentType?: string;
  headers?: Record<string, string>;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
  ) {}

  static as(sandbox: RunningSandbox, role: Role, index = 0): ApiClient {
    const user = sandbox.users.filter((candidate) => candidate.role === role)[index];
    if (!user) throw new Error(`no ${role} account #${index}`);
    return new ApiClient(sandbox.baseUrl, user.accessToken);
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<Answer> {
    const token = options.token === undefined ? this.token : options.token;
    const headers: Record<string, string> = { accept: JSON_API, ...options.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = options.contentType ?? JSON_API;
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const url = path.startsWith('http') ? path : this.baseUrl + path;
    const response = await fetch(url, { method, headers, body: payload });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    let doc: Doc = {};
    if (contentType.startsWith(JSON_API)) {
      expect(contentType, 'JSON:API media type without parameters').toBe(JSON_API);
      doc = JSON.parse(text) as Doc;
      assertJsonApiDocument(doc);
      expect(doc).toHaveProperty('jsonapi', { version: '1.0' });
    }
    return { status: response.status, headers: response.headers, text, doc };
  }

  get(path: string, options?: RequestOptions): Promise<Answer> {
    return this.request('GET', path, undefined, options);
  }
  post(path: string, body: unknown, options?: RequestOptions): Promise<Answer> {
    return this.request('POST', path, body, options);
  }
  patch(path: string, body: unknown, options?: RequestOptions): Promise<Answer> {
    return this.request('PATCH', path, body, options);
  }
  put(path: string, body: unknown, options?: RequestOptions): Promise<Answer> {
    return this.request('PUT', path, body, options);
  }
  delete(path: string, options?: RequestOptions): Promise<Answer> {
    return this.request('DELETE', path, undefined, options);
  }
}

/** The primary data of a single-resource answer. */
export function one(answer: Answer): Res {
  const data = answer.doc.data;
  if (!data || Array.isArray(data))
    throw new Error(`expected one resource, got ${answer.status} ${answer.text.slice(0, 300)}`);
  return data;
}

/** The primary data of a list answer. */
export function many(answer: Answer): Res[] {
  const data = answer.doc.data;
  if (!Array.isArray(data))
    throw new Error(`expected a list, got ${answer.status} ${answer.text.slice(0, 300)}`);
  return data;
}

/** Asserts the status and that the errors array names it, and returns the first error. */
export function expectError(answer: Answer, status: number): NonNullable<Doc['errors']>[number] {
  expect(answer.status, answer.text.slice(0, 500)).toBe(status);
  const [error] = answer.doc.errors ?? [];
  expect(error, 'a JSON:API error object').toBeDefined();
  expect(error!.status).toBe(String(status));
  expect(error!.title).toBeTruthy();
  expect(error!.detail).toBeTruthy();
  return error!;
}

/** The relationship's target id (to-one). */
export function relId(resource: Res, name: string): string | null {
  const data = resource.relationships?.[name]?.data;
  if (data === undefined || Array.isArray(data))
    throw new Error(`${resource.type} ${resource.id} has no to-one ${name}`);
  return data === null ? null : data.id;
}
