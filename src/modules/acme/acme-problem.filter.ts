import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '../../common/errors/domain-error';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { AcmeNonces } from './acme-nonces';
import { AcmeProblem } from './acme-problem';

/**
 * ACME answers errors as RFC 7807 problem documents with the RFC 8555 §6.7 types, and every answer (errors too)
 * carries a fresh Replay-Nonce, so a client can retry a badNonce at once. The application's other routes keep the
 * global filter's `{"detail": …}`; only the ACME controller uses this one.
 */
@Injectable()
@Catch()
export class AcmeProblemFilter implements ExceptionFilter {
  constructor(
    private readonly nonces: AcmeNonces,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const response = host.switchToHttp().getResponse<Response>();
    const request = host.switchToHttp().getRequest<Request>();
    const problem = this.problemOf(exception, request);
    try {
      response.setHeader('Replay-Nonce', await this.nonces.issue());
    } catch (error) {
      this.logger.error({ err: error }, 'ACME: no nonce for an error answer');
    }
    response.setHeader('Cache-Control', 'no-store');
    if (problem.location !== undefined) response.setHeader('Location', problem.location);
    response.status(problem.status).type('application/problem+json').send(JSON.stringify(problem.document()));
  }

  private problemOf(exception: unknown, request: Request): AcmeProblem {
    if (exception instanceof AcmeProblem) return exception;
    if (exception instanceof DomainError) {
      if (exception.kind === 'not_found') return new AcmeProblem('malformed', exception.message, 404);
      if (exception.kind === 'invalid') return new AcmeProblem('malformed', exception.message);
      if (exception.kind === 'forbidden' || exception.kind === 'unauthenticated') return new AcmeProblem('unauthorized', exception.message);
      if (exception.kind === 'unavailable') return new AcmeProblem('serverInternal', 'The service is temporarily unavailable', 503);
      return new AcmeProblem('malformed', exception.message, 409);
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return new AcmeProblem('malformed', exception.message, exception.getStatus());
    }
    this.logger.error({ err: exception, path: request.path }, 'ACME request failed');
    return new AcmeProblem('serverInternal', 'Internal server error');
  }
}
