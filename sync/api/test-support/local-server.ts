// A tiny HTTP server on 127.0.0.1:0 for protocol tests of the client: answers the sandbox
// cannot produce on purpose (a looping links.next, no Date header, a 401 then a 200, a counted
// number of parallel requests). Integration with the real interface is tested against the sandbox.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** The most requests that were being answered at the same time. */
  peakConcurrency: () => number;
  close(): Promise<void>;
}

export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: RecordedRequest[] = [];
  let active = 0;
  let peak = 0;
  const server = createServer((incoming, response) => {
    active += 1;
    peak = Math.max(peak, active);
    // Counted as finished when the answer is ended, synchronously: by the time the client can
    // see the answer and send its next request, this one no longer counts as in flight.
    let finished = false;
    const finish = () => {
      if (!finished) active -= 1;
      finished = true;
    };
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.end = ((...args: unknown[]) => {
      finish();
      return end(...args);
    }) as ServerResponse['end'];
    response.on('close', finish);
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      Promise.resolve(handler(request, response)).catch((error: unknown) => {
        response.statusCode = 599;
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    peakConcurrency: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers a JSON:API document (with a Date header, as a real server sends). */
export function sendJsonApi(response: ServerResponse, document: unknown, status = 200): void {
  response.writeHead(status, { 'content-type': 'application/vnd.api+json' });
  response.end(JSON.stringify(document));
}

/** A minimal valid `user` resource. */
export function user(id: string, attributes: Record<string, unknown> = {}) {
  return {
    type: 'user',
    id,
    attributes: { vorname: 'Erika', nachname: 'Muster', status: 'aktiv', ...attributes },
  };
}
