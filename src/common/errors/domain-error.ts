/**
 * What kind of failure a domain error is. Services say what went wrong in domain terms; the one
 * global exception filter decides the HTTP status for each kind.
 */
export type ErrorKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests' | 'unavailable';

/** The `detail` of an error body: a message, or a structured object such as `{code, field, value}`. */
export type ErrorDetail = string | Record<string, unknown> | Array<Record<string, unknown>>;

/**
 * Base of every typed error the application raises on purpose. `code` is a stable machine-readable
 * name (snake_case) that tests and clients can match on; `message` is for people.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The body's `detail`; structured errors override this. */
  detail(): ErrorDetail {
    return this.message;
  }

  /** Extra response headers (e.g. `Retry-After`, `WWW-Authenticate`). */
  headers(): Record<string, string> {
    return {};
  }
}
