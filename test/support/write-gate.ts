// An HTTP proxy in front of a service on this computer that can hold the service's writes: while
// held, every request that would change something (POST, PATCH, PUT, DELETE) is answered 503 as
// a service in maintenance would (no Retry-After: the client backs off by itself), and reads pass.
// To a client that is a service that came back and refuses writes for a while: its pushes wait
// and retry, its pulls bring what changed on the service meanwhile (a change made on both sides
// then meets a local change still queued, which is how the engine sees a conflict).
import { createServer, request, type Server } from 'node:http';
import type { Socket } from 'node:net';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export class WriteGate {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** 0 until started. */
  port = 0;
  /** While true, writes are answered 503. */
  held = false;
  /** The writes answered 503 since start, as "METHOD path". */
  readonly refused: string[] = [];

  constructor(private readonly target: number) {}

  async start(): Promise<void> {
    const server = createServer((incoming, answer) => {
      if (this.held && WRITES.has(incoming.method ?? '')) {
        this.refused.push(`${incoming.method} ${incoming.url}`);
        incoming.resume();
        answer.writeHead(503, { 'content-type': 'application/vnd.api+json' });
        answer.end(
          JSON.stringify({
            errors: [
              {
                status: '503',
                title: 'Service Unavailable',
                detail: 'Wartungsarbeiten: Änderungen sind gerade nicht möglich.',
              },
            ],
          }),
        );
        return;
      }
      // Headers as sent (the Host names the address the client used, as the service's links do).
      const upstream = request(
        {
          host: '127.0.0.1',
          port: this.target,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (reply) => {
          answer.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(answer);
        },
      );
      upstream.on('error', () => answer.destroy());
      incoming.pipe(upstream);
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
