import type { DataSourceOptions, MigrationInterface } from 'typeorm';
import type { DatabaseTimeouts } from '../config/app-config';
import { FrozenServerClient } from './frozen-server-client';

/** How long tools and migrations wait for a connection before failing, rather than hanging forever. */
const CONNECTION_TIMEOUT_MS = 5000;

/**
 * How much longer than the statement timeout the client waits for any answer: the server's own
 * timeout normally fires first; this one covers a server that has stopped answering altogether.
 */
const READ_TIMEOUT_MARGIN_MS = 2000;

export type MigrationClass = new () => MigrationInterface;

/**
 * TypeORM settings shared by the app, the migration command and the test harness, so every path
 * runs the same SQL on the same schema. `synchronize` is never on: migrations own the schema.
 * `gen_random_uuid()` (core since PostgreSQL 13, present in PGlite) replaces uuid-ossp, and
 * extensions are never installed implicitly. `migrations` come from the caller (an entry point: the
 * application, the migration command, the test setup), so this layer loads no plugin. `timeouts` are
 * given for the app's own pool only: a migration may rightly run longer than any request.
 */
export function dataSourceOptions(
  url: string,
  poolSize: number,
  migrations: readonly MigrationClass[],
  timeouts?: DatabaseTimeouts,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: [...migrations],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: false,
    // keepAlive lets the OS notice a peer that vanished without closing the connection.
    extra: { max: poolSize, connectionTimeoutMillis: CONNECTION_TIMEOUT_MS, keepAlive: true, ...(timeouts && sessionTimeouts(timeouts)) },
  };
}

/**
 * pg settings: server-side statement and lock timeouts, a client-side read timeout (clients whose
 * connection is dropped when a query gets no answer), the acquire timeout. JIT is off: the app's
 * statements are short, and the planner's cost estimate for the wide list statements (a device page
 * with its config context) crosses `jit_above_cost`, so each request compiled hundreds of functions
 * for seconds to save milliseconds.
 */
function sessionTimeouts(timeouts: DatabaseTimeouts): Record<string, unknown> {
  return {
    Client: FrozenServerClient,
    options: '-c jit=off',
    statement_timeout: timeouts.statementMs,
    lock_timeout: timeouts.lockMs,
    readTimeoutMillis: timeouts.statementMs + READ_TIMEOUT_MARGIN_MS,
    connectionTimeoutMillis: timeouts.connectMs,
  };
}
