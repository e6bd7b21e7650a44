import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';

/** How long a request waits for a pool connection before failing, rather than hanging forever. */
const CONNECTION_TIMEOUT_MS = 5000;

/**
 * TypeORM settings shared by the app, the migration command and the test harness, so every path
 * runs the same SQL on the same schema. `synchronize` is never on: migrations own the schema.
 * `gen_random_uuid()` (core since PostgreSQL 13, present in PGlite) replaces uuid-ossp, and
 * extensions are never installed implicitly.
 */
export function dataSourceOptions(url: string, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: false,
    // keepAlive lets the OS notice a peer that vanished without closing the connection.
    extra: { max: poolSize, connectionTimeoutMillis: CONNECTION_TIMEOUT_MS, keepAlive: true },
  };
}
