// The HTTP client of the admin interface's own tests: plain fetch with the admin token, JSON in
// and out, so each test reads as the request it makes.
import type { RunningSandbox } from '../server';

export interface AdminAnswer {
  status: number;
  headers: Headers;
  // Tests read answers freely and let expect() judge them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export class AdminClient {
  constructor(
    readonly url: string,
    readonly token: string | null,
  ) {}

  static of(sandbox: RunningSandbox): AdminClient {
    if (!sandbox.admin) throw new Error('the sandbox was started without admin');
    return new AdminClient(sandbox.admin.url, sandbox.admin.token);
  }

  async request(method: string, path: string, body?: unknown): Promise<AdminAnswer> {
    const headers: Record<string, string> = {};
    if (this.token !== null) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.url + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
  }

  get(path: string) {
    return this.request('GET', path);
  }
  post(path: string, body?: unknown) {
    return this.request('POST', path, body ?? {});
  }
  put(path: string, body: unknown) {
    return this.request('PUT', path, body);
  }
  patch(path: string, body: unknown) {
    return this.request('PATCH', path, body);
  }
  delete(path: string) {
    return this.request('DELETE', path);
  }
}
