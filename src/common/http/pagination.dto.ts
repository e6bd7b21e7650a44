import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsIntegerInRange, MAX_DATABASE_INTEGER } from '../validation/integer.decorator';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** `skip`/`limit` offset pagination of every list of the versioned API. */
export class PaginationQueryDto {
  @ApiPropertyOptional({ default: 0, minimum: 0 })
  @IsOptional()
  @IsIntegerInRange(0, MAX_DATABASE_INTEGER, { query: true })
  skip: number = 0;

  @ApiPropertyOptional({ default: DEFAULT_PAGE_SIZE, minimum: 1, maximum: MAX_PAGE_SIZE })
  @IsOptional()
  @IsIntegerInRange(1, MAX_PAGE_SIZE, { query: true })
  limit: number = DEFAULT_PAGE_SIZE;
}
