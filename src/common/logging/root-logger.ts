import pino, { DestinationStream, Logger } from 'pino';
import { LogLevel } from '../config/app-config';
import { currentRequestId } from './request-context';

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

/** The process's one JSON logger; every line carries the request id of the request it belongs to. */
export function createRootLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'pki-inventory' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { request_id: requestId } : {};
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
