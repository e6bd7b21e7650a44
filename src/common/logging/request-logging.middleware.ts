import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from 'pino';
import { requestContext } from './request-context';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Ids from clients are echoed into logs and headers, so only plain tokens are accepted. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Assigns each request its id (the client's `X-Request-ID` when acceptable, else a new UUID),
 * echoes it back, runs the rest of the request inside that context and writes one access-log line.
 * Only the path is logged: query strings and headers can carry credentials.
 */
export function requestLoggingMiddleware(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const offered = req.header(REQUEST_ID_HEADER);
    const requestId = offered && ACCEPTABLE_REQUEST_ID.test(offered) ? offered : randomUUID();
    res.setHeader('X-Request-ID', requestId);
    const started = process.hrtime.bigint();
    requestContext.run({ requestId }, () => {
      res.on('finish', () => {
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info(
          {
            request_id: requestId,
            method: req.method,
            path: req.path,
            status: res.statusCode,
            duration_ms: Math.round(durationMs * 10) / 10,
            remote_address: req.ip,
          },
          'request completed',
        );
      });
      next();
    });
  };
}
