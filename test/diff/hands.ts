// The tester's hands on the service, in plain fetch: writes through the public interface (as the
// office, the way another user changes things between two syncs) and the sandbox's admin
// interface (the changes only the service's web interface makes, the clock, paging, backups).

export interface Answer {
  status: number;
  body: unknown;
}

async function send(
  url: string,
  token: string,
  method: string,
  body: unknown,
  contentType: string,
): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: contentType,
      ...(body === undefined ? {} : { 'content-type': contentType }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

export class ServiceClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  write(method: string, path: string, body?: unknown): Promise<Answer> {
    return send(`${this.baseUrl}${path}`, this.token, method, body, 'application/vnd.api+json');
  }
}

export class AdminClient {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  /** Any admin request; answers the status and body (refusals are answers, not throws). */
  request(method: string, path: string, body?: unknown): Promise<Answer> {
    return send(`${this.url}${path}`, this.token, method, body, 'application/json');
  }

  /** An admin request that must succeed: throws with the sandbox's words otherwise. */
  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const answer = await this.request(method, path, body);
    if (answer.status >= 300)
      throw new Error(`admin ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async clock(): Promise<number> {
    const { now } = (await this.call('GET', '/clock')) as { now: string };
    return Date.parse(now);
  }
}
