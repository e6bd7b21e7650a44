import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldProblem, RequestValidationError } from '../errors/common-errors';

/**
 * The global validation pipe: strips nothing silently (unknown fields are rejected), converts
 * query strings to their declared types, and reports every bad field with where it was.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      exceptionFactory: (errors) => new RequestValidationError(flatten(errors, [])),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Path parameters stay the strings they were: converting `+1` or `0x1` to 1 here would hide
    // from the parameter's own pipe (ParseIdPipe) how the id was written.
    if (metadata.type === 'param') return value;
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof RequestValidationError) {
        throw new RequestValidationError(error.problems.map((p) => ({ ...p, loc: [metadata.type, ...p.loc] })));
      }
      throw error;
    }
  }
}

function flatten(errors: ValidationError[], path: Array<string | number>): FieldProblem[] {
  return errors.flatMap((error) => {
    const loc = [...path, /^\d+$/.test(error.property) ? Number(error.property) : error.property];
    const own = Object.entries(error.constraints ?? {}).map(([type, msg]) => ({ loc, msg, type }));
    return [...own, ...flatten(error.children ?? [], loc)];
  });
}
