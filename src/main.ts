// First: the compile cache covers only modules loaded after it is on.
import './common/process/compile-cache';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppConfig } from './common/config/app-config';
import { loadEnvironmentOrExit } from './common/config/load-environment';
import type { DatabaseConnection } from './common/database/database-connection';
import { readyLine } from './common/logging/ready-line';
import { createRootLogger, resolveLogFormat } from './common/logging/root-logger';
import { ClusterPrimary, serverProcessCount } from './common/process/cluster-primary';
import type { Tracing } from './common/tracing/tracing';
import './plugin-configuration-check';

/**
 * One process serves HTTP, or (PostgreSQL server, WEB_CONCURRENCY above 1) a primary supervises a
 * cluster of workers that each run the whole application. The configuration is validated before
 * anything else, in the primary too, so a bad setting fails at once with its message.
 */
function main(): void {
  const config = loadEnvironmentOrExit();
  const rootLogger = createRootLogger(config.logLevel, undefined, resolveLogFormat(config.logFormat));
  if (cluster.isWorker) {
    void serve(config, rootLogger.child({ worker: cluster.worker!.id }));
    return;
  }
  reportSecretKeyFile(config, rootLogger);
  const processes = serverProcessCount(config);
  if (processes === 1) {
    void serve(config, rootLogger);
    return;
  }
  new ClusterPrimary({
    processes,
    // Workers sign and verify with the key the primary read, even if its file changes meanwhile.
    workerEnv: config.secretKeyFile ? { SECRET_KEY: config.secretKey } : {},
    shutdownGraceSeconds: config.shutdownGraceSeconds,
    logger: rootLogger.child({ worker: 0 }),
  }).start();
}

/** Runs the application in this process until a signal stops it. */
async function serve(config: AppConfig, logger: Logger): Promise<void> {
  // Before the application's modules: the instrumentations patch http, express and pg as they are loaded.
  const tracing = await startTracingIfEnabled(config, logger);
  // Loaded here, not at the top: a cluster primary never needs the application's modules.
  await import('reflect-metadata');
  const [{ closeApp, createApp }, { openDatabaseConnection }, { DataSource }] = await Promise.all([
    import('./app.factory.js'),
    import('./common/database/database-connection.js'),
    import('typeorm'),
  ]);
  let database: DatabaseConnection | undefined;
  try {
    database = await openDatabaseConnection(config, logger);
    const app = await createApp({ config, logger, database });
    // A keep-alive connection stays with the process (or replica, behind a layer-4 balancer) that
    // accepted it: closing it after this many requests (the client reconnects) spreads long-lived
    // connections over every worker, one that started late or replaced a crashed one included.
    (app.getHttpServer() as Server).maxRequestsPerSocket = config.keepAliveMaxRequests;
    await app.listen(config.port, config.host);
    // Only for the hint in the ready line: a failed look-up leaves the hint out, not the server down.
    const hasUsers = await app
      .get(DataSource)
      .query('SELECT 1 FROM users LIMIT 1')
      .then(
        (rows: unknown[]) => rows.length > 0,
        () => true,
      );
    const ready = readyLine(config, hasUsers);
    logger.info(
      { host: config.host, port: config.port, database: database.embedded ? 'embedded' : 'server', ...ready.fields },
      ready.message,
    );
    handleShutdownSignals(app, database, tracing, config, logger, closeApp);
  } catch (error) {
    logger.fatal({ err: error }, 'server failed to start');
    await database?.close().catch(() => undefined);
    await tracing?.shutdown().catch(() => undefined);
    process.exit(1);
  }
}

/** Tracing is optional: with it off the OpenTelemetry SDK is not even loaded. */
async function startTracingIfEnabled(config: AppConfig, logger: Logger): Promise<Tracing | undefined> {
  if (!config.tracing) return undefined;
  const { startTracing } = await import('./common/tracing/tracing.js');
  const tracing = startTracing(config.tracing, logger);
  logger.info({ service_name: config.tracing.serviceName, sampler: config.tracing.sampler }, 'tracing to an OTLP collector');
  return tracing;
}

function reportSecretKeyFile(config: AppConfig, logger: Logger): void {
  if (!config.secretKeyFile) return;
  const { path, created } = config.secretKeyFile;
  logger.warn(
    { path },
    `SECRET_KEY is not set: ${created ? 'generated' : 'using'} the key file ${path}, which signs sessions and keys API tokens; ` +
      'keep it with DATA_DIR, and set SECRET_KEY for production or several replicas',
  );
}

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish, close the pool and the
 * embedded database, export the buffered spans, exit 0. Nest's own shutdown hooks re-raise the signal
 * (exit 143), so the signals are handled here instead. A shutdown that overruns the grace period exits 1.
 */
function handleShutdownSignals(
  app: NestExpressApplication,
  database: DatabaseConnection,
  tracing: Tracing | undefined,
  config: AppConfig,
  logger: Logger,
  closeApp: (app: NestExpressApplication) => Promise<void>,
): void {
  let shuttingDown = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    const overrun = setTimeout(() => {
      logger.error({ grace_seconds: config.shutdownGraceSeconds }, 'shutdown overran its grace period');
      process.exit(1);
    }, config.shutdownGraceSeconds * 1000);
    overrun.unref();
    try {
      await closeApp(app);
      await database.close();
      // The spans of the last requests are still in the batch; a failed export must not fail the shutdown.
      await tracing?.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'exporting the last spans failed'));
      logger.info('shutdown complete');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}

main();
