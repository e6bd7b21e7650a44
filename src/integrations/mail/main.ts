import { readMailWorkerConfig } from './config';
import { createWorkerLogger } from './logger';

/**
 * `npm run mail-worker`: the mail worker process. Reads and validates its settings (one line per
 * bad value, exit 1), starts tracing when an OTLP endpoint is set, then loads and runs the worker:
 * loaded only now so the HTTP instrumentation is in place before the worker's modules use http.
 */
async function main(): Promise<void> {
  const { config, problems, warnings } = readMailWorkerConfig(process.env);
  if (!config) {
    for (const problem of problems) process.stderr.write(`mail-worker: ${problem}\n`);
    process.exit(1);
  }
  const logger = createWorkerLogger(config.logLevel, config.logFormat);
  for (const warning of warnings) logger.warn(warning);
  let flushSpans = () => Promise.resolve();
  if (config.tracing) {
    const { startTracing } = await import('../../common/tracing/tracing.js');
    const tracing = startTracing(config.tracing, logger);
    flushSpans = () => tracing.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'exporting the last spans failed'));
    logger.info({ service_name: config.tracing.serviceName, sampler: config.tracing.sampler }, 'tracing to an OTLP collector');
  }
  const { runMailWorker } = await import('./worker.js');
  await runMailWorker(config, logger, flushSpans);
}

main().catch((error: Error) => {
  // A port in use or the like: one line and a failing exit, not a stack trace of an unhandled rejection.
  process.stderr.write(`mail-worker: cannot start: ${error.message}\n`);
  process.exit(1);
});
