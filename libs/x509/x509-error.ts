/**
 * Base class of every error the X.509 engine raises for bad input or an impossible request.
 * `code` is a stable machine-readable string the service layer maps to an API error;
 * `message` is meant for humans and says exactly what was wrong.
 */
export class X509EngineError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
