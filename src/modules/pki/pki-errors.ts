import { ConflictError, InvalidRequestError, NotFoundError } from '../../common/errors/common-errors';
import { DomainError, ErrorDetail } from '../../common/errors/domain-error';

export function caNotFound(id: number | string): NotFoundError {
  return new NotFoundError(`Certificate Authority with ID ${id} not found`, 'ca_not_found');
}

export function caNamedNotFound(name: string): NotFoundError {
  return new NotFoundError(`Certificate Authority named '${name}' not found`, 'ca_not_found');
}

export function certificateNotFound(id: number | string): NotFoundError {
  return new NotFoundError(`Certificate with ID ${id} not found`, 'certificate_not_found');
}

export function certificateWithSerialNotFound(serial: string): NotFoundError {
  return new NotFoundError(`Certificate with serial number ${serial} not found`, 'certificate_not_found');
}

export class LeafIssuanceNotAllowedError extends InvalidRequestError {
  constructor(caId: number, why: string) {
    super(`CA ${caId} does not allow leaf certificate issuance (${why})`, 'leaf_certs_not_allowed');
  }
}

export class CaHasChildrenError extends ConflictError {
  constructor(caId: number, children: number) {
    super(`CA ${caId} has ${children} child CA(s); delete them first`, 'ca_has_children');
  }
}

export class AlreadyRevokedError extends ConflictError {
  constructor(certificateId: number) {
    super(`Certificate ${certificateId} is already revoked`, 'certificate_already_revoked');
  }
}

/** Renewal refusals, with the structured `{code, message}` detail the spec names. */
export class RenewalError extends DomainError {
  readonly kind = 'invalid';

  override detail(): ErrorDetail {
    return { code: this.code, message: this.message };
  }
}
