import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { PlatformApi, Public } from '../../common/auth/authenticated.decorator';
import type { QueryParameters } from '../framework/query/filter-parser';
import { parseObjectId, requestBaseUrl, requestScope } from '../framework/resource/resource-controller.factory';
import { ApiTokensService } from './api-tokens.service';

@ApiExcludeController()
@Controller('api/users/tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Post('provision')
  @Public()
  @HttpCode(201)
  provision(@Req() request: Request, @Body() body: unknown) {
    return this.tokens.provision(body, request.ip ?? 'unknown', requestBaseUrl(request));
  }

  @Get()
  @PlatformApi()
  list(@Req() request: Request, @Query() query: QueryParameters) {
    return this.tokens.list(query, requestScope(request));
  }

  @Get(':id')
  @PlatformApi()
  retrieve(@Req() request: Request, @Param('id') id: string) {
    return this.tokens.retrieve(parseObjectId(id), requestScope(request));
  }

  @Post()
  @PlatformApi()
  @HttpCode(201)
  create(@Req() request: Request, @Body() body: unknown) {
    return this.tokens.create(body, requestScope(request));
  }

  @Patch(':id')
  @PlatformApi()
  partialUpdate(@Req() request: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.tokens.update(parseObjectId(id), body, requestScope(request));
  }

  @Put(':id')
  @PlatformApi()
  update(@Req() request: Request, @Param('id') id: string, @Body() body: unknown) {
    return this.tokens.update(parseObjectId(id), body, requestScope(request));
  }

  @Delete(':id')
  @PlatformApi()
  @HttpCode(204)
  async destroy(@Req() request: Request, @Param('id') id: string) {
    await this.tokens.delete(parseObjectId(id), requestScope(request));
  }
}
