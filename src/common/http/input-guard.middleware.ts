import type { NextFunction, Request, Response } from 'express';
import { DomainError, ErrorDetail } from '../errors/domain-error';

/** Deeper JSON than any endpoint accepts; walking (and validating) it would only cost time and stack. */
export const MAX_INPUT_DEPTH = 32;

type InputLocation = 'path' | 'query' | 'body';

interface InputProblem {
  location: InputLocation;
  /** Keys and indexes from the location's root to the offending value or key; empty for the root. */
  field: Array<string | number>;
  type: 'nul_byte' | 'unpaired_surrogate' | 'too_deep';
  msg: string;
}

/**
 * Input no endpoint can take, refused before routing: a NUL character (PostgreSQL text cannot hold
 * one) anywhere in the path, a query parameter or a JSON body key or value; an unpaired UTF-16
 * surrogate (`"\ud800"` in JSON: no Unicode character, and PostgreSQL's jsonb refuses it) in a query
 * parameter or a JSON body key or value; and JSON nested deeper than {@link MAX_INPUT_DEPTH}.
 * Answered in the versioned API's `[{loc, msg, type}]` shape, and on the platform API and GraphQL
 * in NetBox's `{"<field>": ["<message>"]}` shape.
 */
export class UnacceptableInputError extends DomainError {
  readonly kind = 'invalid';

  constructor(readonly problem: InputProblem) {
    super(problem.type, `${[problem.location, ...problem.field].join('.')}: ${problem.msg}`);
  }

  override detail(): ErrorDetail {
    const { location, field, msg, type } = this.problem;
    return [{ loc: [location, ...field], msg, type }];
  }

  bareBody(): unknown {
    const { field, msg } = this.problem;
    return { [field.length > 0 ? field.join('.') : 'non_field_errors']: [msg] };
  }
}

export function inputGuardMiddleware(req: Request, _res: Response, next: NextFunction): void {
  const problem =
    (hasNul(safeDecode(req.path)) ? nulByte('path', []) : undefined) ??
    findProblem('query', req.query, [], 0) ??
    findProblem('body', req.body, [], 0);
  next(problem ? new UnacceptableInputError(problem) : undefined);
}

function findProblem(location: InputLocation, value: unknown, field: Array<string | number>, depth: number): InputProblem | undefined {
  if (typeof value === 'string') return stringProblem(location, value, field);
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_INPUT_DEPTH) {
    // Named by its top-level field: the full path would be as long as the nesting.
    const topField = typeof field[0] === 'string' ? [field[0]] : [];
    return { location, field: topField, type: 'too_deep', msg: `Nested deeper than ${MAX_INPUT_DEPTH} levels.` };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findProblem(location, item, [...field, index], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = stringProblem(location, key, [...field, key.replaceAll('\0', '').replaceAll(UNPAIRED_SURROGATES, '\ufffd')]);
    if (keyProblem) return keyProblem;
    const found = findProblem(location, item, [...field, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

function stringProblem(location: InputLocation, text: string, field: Array<string | number>): InputProblem | undefined {
  if (hasNul(text)) return nulByte(location, field);
  if (UNPAIRED_SURROGATE.test(text))
    return { location, field, type: 'unpaired_surrogate', msg: 'Unpaired surrogate characters are not allowed.' };
  return undefined;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (UTF-16 code units). */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNPAIRED_SURROGATES = new RegExp(UNPAIRED_SURROGATE.source, 'g');

function nulByte(location: InputLocation, field: Array<string | number>): InputProblem {
  return { location, field, type: 'nul_byte', msg: 'Null characters are not allowed.' };
}

function hasNul(text: string): boolean {
  return text.includes('\0');
}

/** Express leaves the path percent-encoded; a malformed escape is no NUL and is the router's business. */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
