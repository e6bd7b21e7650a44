import { createServer, request, type Server } from 'node:http';

/**
 * A loopback HTTP reverse proxy that sends each request to the next backend in turn (per request,
 * not per connection, so a keep-alive client still reaches every replica), as a load balancer
 * in front of several replicas does. A backend that cannot be reached answers 502.
 */
export class RoundRobinProxy {
  private server?: Server;
  private next = 0;
  private readonly served = new Map<number, number>();
  port = 0;

  constructor(private readonly backendPorts: readonly number[]) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Requests sent to the backend on `port` so far. */
  requestsTo(port: number): number {
    return this.served.get(port) ?? 0;
  }

  async start(): Promise<void> {
    const server = createServer((incoming, outgoing) => {
      const port = this.backendPorts[this.next++ % this.backendPorts.length];
      this.served.set(port, this.requestsTo(port) + 1);
      const forwarded = request(
        { host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent: false },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => {
        if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end('backend unreachable');
      });
      incoming.pipe(forwarded);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
