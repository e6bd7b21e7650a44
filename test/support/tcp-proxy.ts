import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a database, so a test can take the database away (`stop`),
 * make it hang (`blackhole`), and bring it back on the same address (`start`).
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private blackholed = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static forUrl(url: string): TcpProxy {
    const parsed = new URL(url);
    return new TcpProxy(parsed.hostname, Number(parsed.port || 5432));
  }

  /** `url` with its host and port replaced by this proxy's. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /**
   * On: every connection, open or new, stays up but nothing passes, like a database that hangs.
   * Off: the connections that hung are reset (as a recovering network does) and traffic flows again.
   */
  blackhole(on: boolean): void {
    if (!on && this.blackholed) this.dropConnections();
    this.blackholed = on;
  }

  async stop(): Promise<void> {
    this.dropConnections();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.track(client);
    const upstream = createConnection(this.targetPort, this.targetHost);
    this.track(upstream);
    client.on('data', (chunk) => this.blackholed || upstream.write(chunk));
    upstream.on('data', (chunk) => this.blackholed || client.write(chunk));
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  private dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }
}
