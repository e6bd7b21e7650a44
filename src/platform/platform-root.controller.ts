import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { PlatformApi, Public } from '../common/auth/authenticated.decorator';
import { requestBaseUrl } from './framework/resource/resource-controller.factory';
import { PlatformStatus } from './platform-status';

/** `GET /api/` (the apps and their URLs), `GET /api/status/` and `GET /api/schema/`, as NetBox serves them. */
@ApiExcludeController()
@Controller('api')
export class PlatformRootController {
  constructor(@Inject(PlatformStatus) private readonly status: PlatformStatus) {}

  @Get()
  @PlatformApi()
  root(@Req() request: Request) {
    return this.status.apps(requestBaseUrl(request));
  }

  /** The platform API's OpenAPI document (NetBox's path), generated from the resource declarations. */
  @Get('schema')
  @Public()
  schema() {
    return this.status.openApiDocument();
  }

  @Get('status')
  @PlatformApi()
  statusReport() {
    return this.status.report();
  }
}
