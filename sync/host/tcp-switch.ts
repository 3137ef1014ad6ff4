// A TCP proxy in front of a service on this computer that can stop (refusing new connections and
// dropping the open ones) and start again on the same port: to a client that is exactly a service
// that went away and came back, while the service itself keeps its state (a restarted sandbox
// forgets every token, which would sign the client out instead of letting it go back online).
import { connect, createServer, type Server, type Socket } from 'node:net';

export class TcpSwitch {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** 0 until the first start; then the same port on every start. */
  port = 0;
  constructor(private readonly target: number) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
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

  /** The URL with its port replaced by the switch's (start first). */
  through(url: string): string {
    const switched = new URL(url);
    switched.port = String(this.port);
    return switched.toString().replace(/\/$/, '');
  }
}
