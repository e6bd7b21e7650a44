import { PGlite, PGliteInterface } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * Hands out fresh embedded databases to test files. It runs in jest's global setup (the parent
 * process), because PGlite cannot load inside jest's module sandbox, and answers over loopback
 * HTTP: POST /databases clones the migrated template and serves the clone on its own port;
 * DELETE /databases/<id> stops it.
 */
export class PgliteBroker {
  private readonly clones = new Map<string, { db: PGliteInterface; server: PGLiteSocketServer }>();
  private http?: Server;

  constructor(private readonly template: PGlite) {}

  async start(): Promise<string> {
    // Each answer closes its connection: tests run in this process, and under load the event loop
    // can hand a request to a kept-alive socket just as the server's idle timer closes it (ECONNRESET).
    const headers = { 'content-type': 'application/json', connection: 'close' };
    this.http = createServer((req, res) => {
      this.handle(req.method ?? '', req.url ?? '')
        .then((body) => {
          res.writeHead(200, headers);
          res.end(JSON.stringify(body));
        })
        .catch((error: Error) => {
          res.writeHead(500, headers);
          res.end(JSON.stringify({ error: error.message }));
        });
    });
    await new Promise<void>((resolve) => this.http!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  private async handle(method: string, url: string): Promise<unknown> {
    if (method === 'POST' && url === '/databases') return this.createClone();
    const match = /^\/databases\/([\w-]+)$/.exec(url);
    if (method === 'DELETE' && match) {
      await this.dropClone(match[1]);
      return {};
    }
    throw new Error(`unknown broker request ${method} ${url}`);
  }

  private async createClone(): Promise<{ id: string; url: string }> {
    const db = await this.template.clone();
    // clone() is typed as the interface; the socket server needs the class it actually returns.
    const server = new PGLiteSocketServer({ db: db as PGlite, host: '127.0.0.1', port: 0, maxConnections: 30 });
    await server.start();
    const id = randomUUID();
    this.clones.set(id, { db, server });
    return { id, url: `postgres://postgres@${server.getServerConn()}/postgres` };
  }

  private async dropClone(id: string): Promise<void> {
    const clone = this.clones.get(id);
    if (!clone) return;
    this.clones.delete(id);
    await clone.server.stop();
    await clone.db.close();
  }

  async stop(): Promise<void> {
    for (const id of [...this.clones.keys()]) await this.dropClone(id);
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    await this.template.close();
  }
}
