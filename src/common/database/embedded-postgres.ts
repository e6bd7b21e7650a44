import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataDirLock } from './data-dir-lock';

export interface EmbeddedPostgresOptions {
  /** Folder that holds the database files (and the lock); created when missing. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Connections the socket server accepts; must be at least the pool size or extra clients are reset. */
  maxConnections: number;
}

/**
 * PostgreSQL compiled to WebAssembly (PGlite), run inside this process and exposed on a loopback TCP
 * port so the ordinary `pg` driver and TypeORM talk to it exactly as to a real server.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly lock: DataDirLock | undefined,
    readonly host: string,
    readonly port: number,
  ) {}

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const dataDir = resolve(options.dataDir);
    const lock = DataDirLock.acquire(dataDir);
    try {
      const pgDir = join(dataDir, 'pglite');
      mkdirSync(pgDir, { recursive: true });
      const db = await PGlite.create(pgDir);
      return await EmbeddedPostgres.serve(db, lock, options);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** A throw-away database in memory, for tools that need the app wired but keep no data. */
  static async startInMemory(): Promise<EmbeddedPostgres> {
    return EmbeddedPostgres.serve(await PGlite.create(), undefined, { port: 0, maxConnections: 20 });
  }

  private static async serve(
    db: PGlite,
    lock: DataDirLock | undefined,
    options: Pick<EmbeddedPostgresOptions, 'port' | 'maxConnections'>,
  ): Promise<EmbeddedPostgres> {
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: options.port, maxConnections: options.maxConnections });
    await server.start();
    const [host, port] = splitHostPort(server.getServerConn());
    return new EmbeddedPostgres(db, server, lock, host, port);
  }

  get url(): string {
    return `postgres://postgres@${this.host}:${this.port}/postgres`;
  }

  async stop(): Promise<void> {
    try {
      await this.server.stop();
      await this.db.close();
    } finally {
      this.lock?.release();
    }
  }
}

function splitHostPort(conn: string): [string, number] {
  const index = conn.lastIndexOf(':');
  return [conn.slice(0, index), Number(conn.slice(index + 1))];
}
