import { ConflictError, ForbiddenError, ProtectedObjectError, ResourceValidationError } from '../../platform/plugin-api';

/**
 * fms's own endpoints (plan actions, the strand map, the trace, …) answer a refusal as upstream's
 * views do, `{"error": "<message>"}`, and keep the platform's shape beside it: `detail` for 403 and
 * 409, the `{field: [messages]}` map for 400. A client written for either reads what it expects.
 */

type FieldErrors = Record<string, string[]>;

function messageOf(errors: FieldErrors | FieldErrors[]): string {
  const maps = Array.isArray(errors) ? errors : [errors];
  return maps
    .flatMap((map) =>
      Object.entries(map).flatMap(([field, messages]) =>
        messages.map((message) => (field === 'non_field_errors' ? message : `${field}: ${message}`)),
      ),
    )
    .join(' ');
}

export class EndpointValidationError extends ResourceValidationError {
  override bareBody(): unknown {
    return { error: messageOf(this.errors), ...(Array.isArray(this.errors) ? { detail: this.errors } : this.errors) };
  }
}

export class EndpointConflictError extends ConflictError {
  bareBody(): unknown {
    return { error: this.message, detail: this.message };
  }
}

export class EndpointForbiddenError extends ForbiddenError {
  bareBody(): unknown {
    return { error: this.message, detail: this.message };
  }
}

/** The same refusal in the endpoint's shape; other errors (404, 500) pass unchanged. */
export function asEndpointError(error: unknown): unknown {
  if (error instanceof EndpointValidationError || error instanceof EndpointConflictError || error instanceof EndpointForbiddenError)
    return error;
  if (error instanceof ResourceValidationError) return new EndpointValidationError(error.errors);
  if (error instanceof ConflictError || error instanceof ProtectedObjectError) return new EndpointConflictError(error.message, error.code);
  if (error instanceof ForbiddenError) return new EndpointForbiddenError(error.message, error.code);
  return error;
}

/** A handler whose refusals, its own and those of the models it writes through, answer in the endpoint's shape. */
export function withErrorBody<C, R>(handle: (context: C) => Promise<R>): (context: C) => Promise<R> {
  return async (context) => {
    try {
      return await handle(context);
    } catch (error) {
      throw asEndpointError(error);
    }
  };
}
