import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { RequestValidationError } from '../errors/common-errors';

const MAX_ID = 2_147_483_647;

/** A path id: a positive integer that fits the database's integer keys (so no lookup can overflow). */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) {
      throw new RequestValidationError([
        { loc: ['path', metadata.data ?? 'id'], msg: `must be an integer from 1 to ${MAX_ID}`, type: 'id' },
      ]);
    }
    return id;
  }
}
