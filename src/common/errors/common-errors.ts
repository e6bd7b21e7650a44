import { DomainError, ErrorDetail } from './domain-error';

/** One bad input field: where it was (`["body","password"]`), what is wrong, and a type code. */
export interface FieldProblem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export class RequestValidationError extends DomainError {
  readonly kind = 'invalid';

  constructor(readonly problems: FieldProblem[]) {
    super('validation_error', problems.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; '));
  }

  override detail(): ErrorDetail {
    return this.problems.map((p) => ({ ...p }));
  }
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found';

  constructor(message = 'Not Found', code = 'not_found') {
    super(code, message);
  }
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict';

  constructor(message: string, code = 'conflict') {
    super(code, message);
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';

  constructor(message = 'Insufficient permissions', code = 'forbidden') {
    super(code, message);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';

  constructor(message = 'Not authenticated', code = 'not_authenticated') {
    super(code, message);
  }

  override headers(): Record<string, string> {
    return { 'WWW-Authenticate': 'Bearer' };
  }
}

export class InvalidRequestError extends DomainError {
  readonly kind = 'invalid';

  constructor(message: string, code = 'invalid_request') {
    super(code, message);
  }
}

export class TooManyRequestsError extends DomainError {
  readonly kind = 'too_many_requests';

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code = 'rate_limited',
  ) {
    super(code, message);
  }

  override headers(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfterSeconds) };
  }
}

/** The database refused, dropped or did not answer in time: the request may succeed when retried. */
export class DatabaseUnavailableError extends DomainError {
  readonly kind = 'unavailable';

  constructor(readonly retryAfterSeconds = 5) {
    super('database_unavailable', 'The database is unavailable; try again shortly');
  }

  override headers(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfterSeconds) };
  }
}
