import { Body, Controller, Get, Module, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, MinLength, ValidateNested } from 'class-validator';
import { DataSource } from 'typeorm';
import { Public } from '../../src/common/auth/authenticated.decorator';
import { DomainError, ErrorDetail } from '../../src/common/errors/domain-error';
import { NotFoundError } from '../../src/common/errors/common-errors';

class ProbeItemDto {
  @IsString()
  name: string;
}

class ProbeBodyDto {
  @IsString()
  @MinLength(8)
  password: string;

  @IsInt()
  @Min(1)
  count: number;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => ProbeItemDto)
  items?: ProbeItemDto[];
}

class ProbeQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  skip?: number;
}

class PolicyViolationError extends DomainError {
  readonly kind = 'invalid';

  constructor() {
    super('policy_violation', 'policy violated');
  }

  override detail(): ErrorDetail {
    return { code: this.code, field: 'cn_patterns', value: 'evil.example.org' };
  }
}

/**
 * Routes that exist only in tests, to drive the global validation pipe and exception filter
 * through the real application's pipeline.
 */
@Controller('api/v1/probe')
@Public()
class ProbeController {
  constructor(private readonly dataSource: DataSource) {}

  @Post('validate')
  validate(@Body() body: ProbeBodyDto): ProbeBodyDto {
    return body;
  }

  @Get('query')
  query(@Query() query: ProbeQueryDto): ProbeQueryDto {
    return query;
  }

  @Get('crash')
  crash(): never {
    throw new Error('internal detail: password=hunter2 at /srv/app/secret.ts');
  }

  @Get('bad-sql')
  async badSql(): Promise<unknown> {
    return this.dataSource.query('SELECT * FROM table_that_does_not_exist_for_probe');
  }

  @Get('not-found')
  notFound(): never {
    throw new NotFoundError('Widget with ID 7 not found');
  }

  @Get('structured')
  structured(): never {
    throw new PolicyViolationError();
  }

  @Get('slow')
  async slow(): Promise<{ done: boolean }> {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return { done: true };
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
