import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { RequestValidationError } from '../errors/common-errors';
import { MAX_DATABASE_INTEGER } from './integer.decorator';

/** How an id is written: decimal, no sign, no leading zero, no padding, at most ten digits. */
const CANONICAL_ID = /^[1-9]\d{0,9}$/;

/**
 * A path id: a positive integer written canonically that fits the database's integer keys, so
 * `/users/0x1` or `/users/+1` names nothing rather than user 1, and no lookup can overflow.
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = CANONICAL_ID.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_DATABASE_INTEGER)) {
      throw new RequestValidationError([
        { loc: ['path', metadata.data ?? 'id'], msg: `must be an integer from 1 to ${MAX_DATABASE_INTEGER}`, type: 'id' },
      ]);
    }
    return id;
  }
}
