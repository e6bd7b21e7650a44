import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/auth/authenticated.decorator';
import { HealthStatusDto } from './health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({ operationId: 'getHealth', summary: 'Readiness: the process and its database answer' })
  @ApiResponse({ status: 200, type: HealthStatusDto })
  @ApiResponse({ status: 503, type: HealthStatusDto, description: 'The database did not answer within 2 s' })
  async readiness(@Res({ passthrough: true }) res: Response): Promise<HealthStatusDto> {
    if (await this.health.databaseAnswers()) return { status: 'ok' };
    res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'unavailable' };
  }

  @Get('live')
  @Public()
  @ApiOperation({ operationId: 'getLiveness', summary: 'Liveness: the process serves requests' })
  @ApiResponse({ status: 200, type: HealthStatusDto })
  liveness(): HealthStatusDto {
    return { status: 'ok' };
  }
}
