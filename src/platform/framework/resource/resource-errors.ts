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

/**
 * A refusal of an action declared `errorKey` (upstream fms answers `{"error": "…"}`): the usual body,
 * `{"detail": …}` or the field map, with the message also under that key.
 */
export class KeyedActionError extends DomainError implements BareErrorBody {
  readonly kind;

  constructor(
    private readonly original: DomainError,
    private readonly key: string,
  ) {
    super(original.code, original.message);
    this.kind = original.kind;
  }

  override detail(): ErrorDetail {
    return this.original.detail();
  }

  override headers(): Record<string, string> {
    return this.original.headers();
  }

  bareBody(): unknown {
    const body = 'bareBody' in this.original ? (this.original as BareErrorBody).bareBody() : { detail: this.original.detail() };
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    return { [this.key]: messageOf(body as Record<string, unknown>), ...body };
  }
}

/** One line from an error body: the detail, or each field's messages as `field: message`. */
function messageOf(body: Record<string, unknown>): string {
  if (typeof body.detail === 'string') return body.detail;
  return Object.entries(body)
    .map(([field, messages]) => {
      const text = Array.isArray(messages) ? messages.join(' ') : JSON.stringify(messages);
      return field === 'non_field_errors' ? text : `${field}: ${text}`;
    })
    .join('; ');
}
