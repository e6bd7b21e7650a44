import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '../common/config/app-config';
import { NotFoundError } from '../common/errors/common-errors';
import { DOCS_PLATFORM_NAME } from '../common/openapi/openapi-document';
import { PlatformApi, Public } from '../common/auth/authenticated.decorator';
import { requestBaseUrl } from './framework/resource/resource-controller.factory';
import { PlatformStatus } from './platform-status';

export const PLATFORM_SCHEMA_PATH = '/api/schema/';

/** `GET /api/` (the apps and their URLs), `GET /api/status/`, `GET /api/schema/` and `GET /api/docs/`, as NetBox serves them. */
@ApiExcludeController()
@Controller('api')
export class PlatformRootController {
  constructor(
    @Inject(PlatformStatus) private readonly status: PlatformStatus,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

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

  /**
   * `?format=openapi` is where NetBox clients (pynetbox's `openapi()`) read the schema, so it stays
   * with ENABLE_DOCS=false like /api/schema/; otherwise the Swagger UI, opened on this document.
   */
  @Get('docs')
  @Public()
  docs(@Query('format') format: unknown, @Res() response: Response): void {
    if (format === 'openapi') return void response.json(this.status.openApiDocument());
    if (!this.config.enableDocs) throw new NotFoundError();
    response.redirect(302, `/docs/?urls.primaryName=${encodeURIComponent(DOCS_PLATFORM_NAME)}`);
  }

  @Get('status')
  @PlatformApi()
  statusReport() {
    return this.status.report();
  }
}
