import type { Logger } from 'pino';
import type { LogFormat, LogLevel } from '../../common/config/app-config';
import { createRootLogger, resolveLogFormat } from '../../common/logging/root-logger';

export type { Logger };

/** The worker's log lines: the server's logger and format (LOG_FORMAT), as `service: 'mail-worker'`; secrets are never passed to it. */
export const createWorkerLogger = (level: LogLevel, format: LogFormat | undefined): Logger =>
  createRootLogger(level, undefined, resolveLogFormat(format), 'mail-worker');
