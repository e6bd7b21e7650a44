/**
 * A query parameter the API refuses. `problems` is NetBox's 400 body as is:
 * `{ "<param>": ["<message>", ...] }`, so a controller can serialise it without reshaping.
 */
export class QueryValidationError extends Error {
  constructor(readonly problems: Record<string, string[]>) {
    super(
      `Invalid query parameters: ${Object.entries(problems)
        .map(([param, messages]) => `${param}: ${messages.join(' ')}`)
        .join('; ')}`,
    );
    this.name = new.target.name;
  }
}
