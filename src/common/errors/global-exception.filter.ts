import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { QueryFailedError } from 'typeorm';
import { DatabaseUnavailableError } from './common-errors';
import { isDatabaseUnavailable } from './database-unavailable';
import { DomainError, ErrorDetail, ErrorKind } from './domain-error';

const STATUS_BY_KIND: Record<ErrorKind, HttpStatus> = {
  invalid: HttpStatus.BAD_REQUEST,
  unauthenticated: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  not_found: HttpStatus.NOT_FOUND,
  conflict: HttpStatus.CONFLICT,
  too_many_requests: HttpStatus.TOO_MANY_REQUESTS,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
};

/** PostgreSQL error codes that mean the client sent something the schema refuses, not a bug. */
const CLIENT_SQL_ERRORS: Record<string, { status: number; detail: string }> = {
  '23505': { status: HttpStatus.CONFLICT, detail: 'A resource with these values already exists' },
  '23503': { status: HttpStatus.CONFLICT, detail: 'The operation conflicts with a related resource' },
  '23001': { status: HttpStatus.CONFLICT, detail: 'The operation conflicts with a related resource' },
  // Two writers waiting on each other's rows: the database cancelled this one, nothing was written.
  '40P01': { status: HttpStatus.CONFLICT, detail: 'The operation conflicted with a concurrent change; nothing was written, retry it' },
};

/** Errors raised by Express's body parsers carry their status and a `type` such as `entity.parse.failed`. */
interface BodyParserError {
  status: number;
  type: string;
  expose?: boolean;
}

const BODY_PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'Malformed request body: it is not valid JSON',
  'entity.too.large': 'Request body is too large',
  'encoding.unsupported': 'Unsupported request body encoding',
  'charset.unsupported': 'Unsupported request body charset',
  'request.aborted': 'Request was aborted',
};

export interface ErrorResponse {
  status: HttpStatus;
  detail: ErrorDetail;
  headers: Record<string, string>;
  /** Sent as the whole body instead of `{"detail": …}` on platform routes (NetBox's validation errors). */
  bareBody?: unknown;
}

/** Routes answered in NetBox's error style: the platform API, GraphQL and plugins' upstream URLs, not the PKI API. */
function isPlatformPath(path: string, apiV1Prefix: string): boolean {
  return (path.startsWith('/api/') && !path.startsWith(`${apiV1Prefix}/`)) || path.startsWith('/graphql') || path.startsWith('/plugins/');
}

/**
 * The one place where errors become HTTP responses: `{"detail": …}` with the status the error's kind
 * maps to. A database that is down or does not answer is a 503 with Retry-After. Anything unexpected
 * is logged (with the request id, via the logger) and answered as a bare 500, so no stack trace, SQL
 * or internal message ever reaches a client.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly apiV1Prefix = '/api/v1',
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const response = host.switchToHttp().getResponse<Response>();
    const request = host.switchToHttp().getRequest<Request>();
    const error = this.toErrorResponse(exception);
    if (response.headersSent) {
      response.end();
      return;
    }
    if (isPlatformPath(request.path, this.apiV1Prefix)) {
      // NetBox answers missing or bad credentials with 403 and no challenge, and 404 as "Not found.".
      const status = error.status === HttpStatus.UNAUTHORIZED ? HttpStatus.FORBIDDEN : error.status;
      const headers = Object.fromEntries(Object.entries(error.headers).filter(([name]) => name.toLowerCase() !== 'www-authenticate'));
      const body = error.bareBody ?? { detail: status === HttpStatus.NOT_FOUND ? 'Not found.' : error.detail };
      response.status(status).set(headers).json(body);
      return;
    }
    response.status(error.status).set(error.headers).json({ detail: error.detail });
  }

  toErrorResponse(exception: unknown): ErrorResponse {
    if (exception instanceof DomainError) {
      const bare =
        'bareBody' in exception && typeof exception.bareBody === 'function'
          ? { bareBody: (exception as { bareBody(): unknown }).bareBody() }
          : {};
      return { status: STATUS_BY_KIND[exception.kind], detail: exception.detail(), headers: exception.headers(), ...bare };
    }
    if (exception instanceof HttpException) {
      return { status: exception.getStatus(), detail: httpExceptionDetail(exception), headers: {} };
    }
    if (isBodyParserError(exception)) {
      const detail = BODY_PARSER_MESSAGES[exception.type] ?? 'Malformed request body';
      return { status: exception.status, detail, headers: {} };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ err: exception }, 'database unavailable');
      return this.toErrorResponse(new DatabaseUnavailableError());
    }
    if (exception instanceof QueryFailedError) {
      const code = (exception.driverError as { code?: string } | undefined)?.code;
      const known = code ? CLIENT_SQL_ERRORS[code] : undefined;
      if (known) return { status: known.status, detail: known.detail, headers: {} };
    }
    this.logger.error({ err: exception }, 'unhandled error');
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, detail: 'Internal Server Error', headers: {} };
  }
}

function httpExceptionDetail(exception: HttpException): ErrorDetail {
  const status = exception.getStatus();
  if (status === (HttpStatus.NOT_FOUND as number)) return 'Not Found';
  if (status >= 500) return 'Internal Server Error';
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return exception.message;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as Partial<BodyParserError>;
  return typeof candidate.type === 'string' && typeof candidate.status === 'number' && candidate.status >= 400 && candidate.status < 500;
}
