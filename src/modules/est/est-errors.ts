import { DomainError, ErrorDetail } from '../../common/errors/domain-error';

/** 401 with the Basic challenge EST clients answer with the account's credentials (RFC 7030 §3.2.3). */
export class EstUnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';

  constructor(message = 'EST needs HTTP Basic credentials: a service account and one of its tokens') {
    super('est_not_authenticated', message);
  }

  override headers(): Record<string, string> {
    return { 'WWW-Authenticate': 'Basic realm="EST", charset="UTF-8"' };
  }
}

/** A request EST refuses for a reason the client can act on: a policy, a revoked certificate, a name change. */
export class EstForbiddenError extends DomainError {
  readonly kind = 'forbidden';

  constructor(
    code: string,
    message: string,
    private readonly extra: Record<string, unknown> = {},
  ) {
    super(code, message);
  }

  override detail(): ErrorDetail {
    return { code: this.code, message: this.message, ...this.extra };
  }
}

/** A body that is not what the operation takes (a base64 PKCS#10 request), named in the message. */
export class EstBadRequestError extends DomainError {
  readonly kind = 'invalid';

  constructor(code: string, message: string) {
    super(code, message);
  }

  override detail(): ErrorDetail {
    return { code: this.code, message: this.message };
  }
}
