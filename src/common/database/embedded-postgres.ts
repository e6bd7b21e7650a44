import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataDirLock } from './data-dir-lock';

export interface EmbeddedPostgresOptions {
  /** Folder that holds the database files, the lock and the socket directory; created when missing. */
  dataDir: string;
  /** Connections the socket server accepts; must be at least the pool size or extra clients are reset. */
  maxConnections: number;
}

/** libpq's name for a server socket in its directory (`psql -h <dir>` finds it there). */
const SOCKET_FILE = '.s.PGSQL.5432';
/** sun_path is 108 bytes on Linux (104 on macOS) including the terminating NUL. */
const MAX_SOCKET_PATH = 103;

/**
 * PostgreSQL compiled to WebAssembly (PGlite), run inside this process and exposed on a Unix socket
 * so the ordinary `pg` driver and TypeORM talk to it exactly as to a real server. PGlite checks no
 * credentials, so the socket lives in a directory only this OS user may enter (0700): no TCP port,
 * and no other local user, can reach the database.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly lock: DataDirLock | undefined,
    /** Directory holding the socket; removed at stop when it was a temporary one. */
    readonly socketDir: string,
    private readonly temporarySocketDir: boolean,
  ) {}

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const dataDir = resolve(options.dataDir);
    const lock = DataDirLock.acquire(dataDir);
    try {
      // The database files are as readable as the socket is reachable: both owner-only. mkdir
      // honours the umask and leaves an existing directory's mode alone, hence the chmod.
      const pgDir = join(dataDir, 'pglite');
      const socketDir = join(dataDir, 'run');
      for (const dir of [pgDir, socketDir]) {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        chmodSync(dir, 0o700);
      }
      // The data-directory lock is held, so a socket file here is a dead process's leftover.
      rmSync(join(socketDir, SOCKET_FILE), { force: true });
      const db = await PGlite.create(pgDir);
      return await EmbeddedPostgres.serve(db, lock, socketDir, false, options.maxConnections);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** A throw-away database in memory, for tools that need the app wired but keep no data. */
  static async startInMemory(): Promise<EmbeddedPostgres> {
    // mkdtemp creates the directory with mode 0700.
    const socketDir = mkdtempSync(join(tmpdir(), 'pki-pglite-'));
    return EmbeddedPostgres.serve(await PGlite.create(), undefined, socketDir, true, 20);
  }

  private static async serve(
    db: PGlite,
    lock: DataDirLock | undefined,
    socketDir: string,
    temporarySocketDir: boolean,
    maxConnections: number,
  ): Promise<EmbeddedPostgres> {
    const path = join(socketDir, SOCKET_FILE);
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
      throw new Error(`the embedded database's socket path ${path} is longer than Unix sockets allow: use a shorter DATA_DIR`);
    }
    const server = new PGLiteSocketServer({ db, path, maxConnections });
    await server.start();
    chmodSync(path, 0o600);
    return new EmbeddedPostgres(db, server, lock, socketDir, temporarySocketDir);
  }

  /** A libpq-style URL whose host is the socket directory (percent-encoded, as pg expects). */
  get url(): string {
    return `postgres://postgres@${encodeURIComponent(this.socketDir)}/postgres`;
  }

  async stop(): Promise<void> {
    try {
      await this.server.stop();
      await this.db.close();
    } finally {
      if (this.temporarySocketDir) rmSync(this.socketDir, { recursive: true, force: true });
      this.lock?.release();
    }
  }
}
