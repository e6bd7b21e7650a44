import { Logger } from 'pino';
import { AppConfig } from '../config/app-config';

/** Where the app's PostgreSQL is: the server named by DATABASE_URL, or an embedded one it owns. */
export interface DatabaseConnection {
  url: string;
  embedded: boolean;
  /** Stops the embedded server (no-op for an external one); call after the app has closed its pool. */
  close(): Promise<void>;
}

export async function openDatabaseConnection(config: AppConfig, logger: Logger): Promise<DatabaseConnection> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, embedded: false, close: async () => undefined };
  }
  // Loaded only in embedded mode: PGlite is never used with a PostgreSQL server. `require`, not
  // `import()`: Jest's CommonJS runtime, which runs the CLI commands in tests, has no dynamic import.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EmbeddedPostgres } = require('./embedded-postgres') as typeof import('./embedded-postgres');
  const embedded = await EmbeddedPostgres.start({
    dataDir: config.dataDir,
    // Headroom over the pool for the migration lock holder and ad-hoc psql sessions.
    maxConnections: config.databasePoolSize + 5,
  });
  logger.info({ data_dir: config.dataDir, socket_dir: embedded.socketDir }, 'embedded PostgreSQL (PGlite) started');
  return { url: embedded.url, embedded: true, close: () => embedded.stop() };
}
