import { DomainError, ErrorDetail } from '../../../common/errors/domain-error';

/**
 * A query parameter the API refuses. `problems` is NetBox's 400 body as is:
 * `{ "<param>": ["<message>", ...] }`, sent without a `detail` wrapper.
 */
export class QueryValidationError extends DomainError {
  readonly kind = 'invalid';

  constructor(readonly problems: Record<string, string[]>) {
    super(
      'invalid_query',
      `Invalid query parameters: ${Object.entries(problems)
        .map(([param, messages]) => `${param}: ${messages.join(' ')}`)
        .join('; ')}`,
    );
  }

  override detail(): ErrorDetail {
    return { ...this.problems };
  }

  bareBody(): unknown {
    return this.problems;
  }
}
