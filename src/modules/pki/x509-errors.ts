import { X509EngineError } from '@libs/x509';
import { InvalidRequestError } from '../../common/errors/common-errors';

/** The request field an engine error is about: fixed, or worked out from the error. */
export type ErrorField = string | ((error: X509EngineError) => string);

/**
 * Runs engine code and turns its input errors (bad DN, SAN rule, CSR…) into 400s whose message
 * starts with the request field; anything else propagates.
 */
export function translateX509Error<T>(work: () => T, field: ErrorField): T {
  try {
    const result = work();
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        throw toRequestError(error, field);
      }) as T;
    }
    return result;
  } catch (error) {
    throw toRequestError(error, field);
  }
}

function toRequestError(error: unknown, field: ErrorField): unknown {
  if (!(error instanceof X509EngineError)) return error;
  const engineError = error as X509EngineError;
  const name = typeof field === 'string' ? field : field(engineError);
  return new InvalidRequestError(`${name}: ${engineError.message}`, engineError.code);
}
