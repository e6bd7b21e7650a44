import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP receiver on a random loopback port that records the raw body of every request, by path, and answers 200. */
export class BodyRecorder {
  readonly bodies: Array<{ path: string; text: string }> = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.bodies.push({ path: request.url ?? '', text: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** The parsed bodies delivered to `path` about the object named `name`. */
  about(path: string, name: string): any[] {
    return this.bodies
      .filter((body) => body.path === path)
      .map((body) => JSON.parse(body.text))
      .filter((body) => body.data?.name === name);
  }
}
