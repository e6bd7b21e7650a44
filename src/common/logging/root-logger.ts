import pino, { DestinationStream, Logger } from 'pino';
import type { LogFormat, LogLevel } from '../config/app-config';
import { currentRequestId } from './request-context';
import { terseDestination } from './terse-format';

/**
 * Paths pino blanks out wherever they appear in a logged object. Log calls never pass bodies or
 * headers on purpose; this is the safety net for when one does.
 */
export const REDACTED_PATHS = [
  'password',
  'new_password',
  'token',
  'access_token',
  'refresh_token',
  'private_key',
  'secret',
  'secretKey',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.private_key',
  '*.secret',
  '*.authorization',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** LOG_FORMAT, or when unset: pretty for a person at a terminal, JSON for a log collector. */
export function resolveLogFormat(setting: LogFormat | undefined, stdoutIsTerminal = process.stdout.isTTY === true): LogFormat {
  return setting ?? (stdoutIsTerminal ? 'pretty' : 'json');
}

/**
 * The process's one logger: JSON lines on stdout (or, `pretty`, the same lines made terse for a
 * terminal); every line carries the request id of the request it belongs to. The mail worker uses
 * it too, as `service: 'mail-worker'`.
 */
export function createRootLogger(
  level: LogLevel,
  destination?: DestinationStream,
  format: LogFormat = 'json',
  service = 'pki-inventory',
): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { request_id: requestId } : {};
      },
    },
    destination ?? (format === 'pretty' ? terseDestination() : pino.destination({ dest: 1, sync: true })),
  );
}
