import { DomainError, ErrorDetail } from '../../../common/errors/domain-error';

/** NetBox's 400 body: `{field: [messages]}`, `{"non_field_errors": [...]}`, or for bulk writes one such object per item. */
export type FieldErrors = Record<string, string[]>;

/** The body is NetBox's error object itself, not wrapped in `detail`. */
export interface BareErrorBody {
  bareBody(): unknown;
}

export class ResourceValidationError extends DomainError implements BareErrorBody {
  readonly kind = 'invalid';

  constructor(readonly errors: FieldErrors | FieldErrors[]) {
    super('validation_error', 'The submitted data is invalid');
  }

  override detail(): ErrorDetail {
    return Array.isArray(this.errors) ? this.errors : { ...this.errors };
  }

  bareBody(): unknown {
    return this.errors;
  }
}

export function nonFieldError(message: string): ResourceValidationError {
  return new ResourceValidationError({ non_field_errors: [message] });
}

/** Deleting an object that PROTECT references still point at. */
export class ProtectedObjectError extends DomainError {
  readonly kind = 'conflict';

  constructor(message: string) {
    super('protected', message);
  }
}
