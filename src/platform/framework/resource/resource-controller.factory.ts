import { Body, Controller, Delete, Get, HttpCode, Options, Param, Patch, Post, Put, Query, Req, Res, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ExportedFile } from '../../extras/export-templates';
import { PlatformApi } from '../../../common/auth/authenticated.decorator';
import type { AuthenticatedRequest } from '../../../common/auth/current-principal.decorator';
import { currentRequestId } from '../../../common/logging/request-context';
import { NotFoundError } from '../../../common/errors/common-errors';
import type { QueryParameters } from '../query/filter-parser';
import { ResourceActions } from './resource-actions';
import { ResourceDefinition } from './resource-definition';
import { resourceMetadata } from './resource-metadata';
import { RequestScope, ResourceService } from './resource.service';
import { mountRoute } from './route-mounting';

/** Object ids are 4-byte serials; anything else in the path is simply not an object. */
const OBJECT_ID = /^[1-9]\d{0,9}$/;

/** The request as the resource service sees it. */
export function requestScope(request: Request): RequestScope {
  const principal = (request as AuthenticatedRequest).principal!;
  const baseUrl = requestBaseUrl(request);
  const header = request.get('x-changelog-message');
  return {
    principal,
    baseUrl,
    requestUrl: new URL(request.originalUrl, baseUrl),
    requestId: currentRequestId() ?? '',
    changelogMessage: header?.trim() ? header.trim() : undefined,
  };
}

/** `scheme://host` as the client addressed us (X-Forwarded-* honoured when TRUST_PROXY allows). */
export function requestBaseUrl(request: Request): string {
  // `request.host` (unlike the Host header) is X-Forwarded-Host when the proxy is trusted.
  return `${request.protocol}://${request.host ?? 'localhost'}`;
}

/** A path id, or 404 for anything that cannot be an object's id. */
export function parseObjectId(raw: string): number {
  if (!OBJECT_ID.test(raw) || Number(raw) > 2_147_483_647) throw new NotFoundError('Not found.');
  return Number(raw);
}

/**
 * The controllers of one resource: its collection actions (`<list>/<name>/`) first, so that Express
 * matches them before `<list>/:id/`, then {@link resourceController}.
 */
export function resourceControllers(definition: ResourceDefinition): Type[] {
  const main = resourceController(definition);
  if (!definition.collectionActions?.length) return [main];
  @ApiExcludeController()
  @PlatformApi()
  @Controller(definition.listPath.replace(/^\/|\/$/g, ''))
  class CollectionActionsController {
    constructor(readonly actions: ResourceActions) {}
  }
  addCollectionActionRoutes(CollectionActionsController, definition);
  return [named(CollectionActionsController, definition, 'CollectionActionsController'), main];
}

/**
 * The REST endpoints of one resource, as NetBox's model viewsets: list and bulk operations on the
 * list URL, single-object operations on `<id>/`. Built per declaration, so adding a model needs no
 * controller class of its own. Platform endpoints are described by the platform's own OpenAPI
 * document, not the PKI's.
 */
export function resourceController(definition: ResourceDefinition): Type {
  const path = definition.listPath.replace(/^\/|\/$/g, '');

  @ApiExcludeController()
  @PlatformApi()
  @Controller(path)
  class ReadController {
    constructor(
      readonly resources: ResourceService,
      readonly actions: ResourceActions,
    ) {}

    @Get()
    async list(@Req() request: Request, @Query() query: QueryParameters, @Res({ passthrough: true }) response: Response) {
      const result = await this.resources.list(definition, query, requestScope(request));
      if (!(result instanceof ExportedFile)) return result;
      response.setHeader('Content-Type', result.mimeType);
      if (result.disposition) response.setHeader('Content-Disposition', result.disposition);
      return result.content;
    }

    @Options()
    listMetadata() {
      return resourceMetadata(definition, false);
    }

    @Options(':id')
    detailMetadata() {
      return resourceMetadata(definition, true);
    }

    @Get(':id')
    retrieve(@Req() request: Request, @Param('id') id: string, @Query() query: QueryParameters) {
      return this.resources.retrieve(definition, parseObjectId(id), query, requestScope(request));
    }
  }

  addActionRoutes(ReadController, definition);
  if (definition.readOnly) return named(ReadController, definition, 'ReadController');

  @ApiExcludeController()
  @PlatformApi()
  @Controller(path)
  class WriteController extends ReadController {
    @Post()
    @HttpCode(201)
    create(@Req() request: Request, @Body() body: unknown) {
      return this.resources.create(definition, body, requestScope(request));
    }

    @Patch()
    bulkPartialUpdate(@Req() request: Request, @Body() body: unknown) {
      return this.resources.update(definition, null, body, true, requestScope(request));
    }

    @Put()
    bulkUpdate(@Req() request: Request, @Body() body: unknown) {
      return this.resources.update(definition, null, body, false, requestScope(request));
    }

    @Delete()
    @HttpCode(204)
    async bulkDestroy(@Req() request: Request, @Body() body: unknown) {
      await this.resources.delete(definition, null, body, requestScope(request));
    }

    @Patch(':id')
    partialUpdate(@Req() request: Request, @Param('id') id: string, @Body() body: unknown) {
      return this.resources.update(definition, parseObjectId(id), body, true, requestScope(request));
    }

    @Put(':id')
    update(@Req() request: Request, @Param('id') id: string, @Body() body: unknown) {
      return this.resources.update(definition, parseObjectId(id), body, false, requestScope(request));
    }

    @Delete(':id')
    @HttpCode(204)
    async destroy(@Req() request: Request, @Param('id') id: string) {
      await this.resources.delete(definition, parseObjectId(id), undefined, requestScope(request));
    }
  }
  return named(WriteController, definition, 'Controller');
}

/**
 * Routes for the declaration's custom actions, `GET|POST {id}/<name>/`, added to the controller
 * class (their names come from the declaration).
 */
function addActionRoutes(controller: Type, definition: ResourceDefinition): void {
  for (const action of definition.actions ?? []) {
    mountRoute(controller, {
      key: `action_${action.name.replace(/-/g, '_')}`,
      method: action.method,
      path: `:id/${action.name}`,
      arguments: ['request', 'id', 'body', 'query'],
      safePost: action.safePost,
      status: action.status,
      handle(this: { actions: ResourceActions }, request: Request, id: string, body: unknown, query: QueryParameters) {
        return this.actions.runAction(definition, action, parseObjectId(id), body, query, requestScope(request));
      },
    });
  }
}

/** Routes for the declaration's collection actions, `GET|POST <name>/`, added as for object actions. */
function addCollectionActionRoutes(controller: Type, definition: ResourceDefinition): void {
  for (const action of definition.collectionActions ?? []) {
    mountRoute(controller, {
      key: `collection_${action.method.toLowerCase()}_${action.name.replace(/-/g, '_')}`,
      method: action.method,
      path: action.name,
      arguments: ['request', 'body', 'query'],
      safePost: action.safePost,
      status: action.status,
      handle(this: { actions: ResourceActions }, request: Request, body: unknown, query: QueryParameters) {
        return this.actions.runCollectionAction(definition, action, body, query, requestScope(request));
      },
    });
  }
}

/** A readable class name per resource (it shows in logs and the route-access snapshot). */
function named(controller: Type, definition: ResourceDefinition, suffix: string): Type {
  const pascal = `${definition.appLabel}_${definition.model}`.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
  Object.defineProperty(controller, 'name', { value: `${pascal}${suffix}` });
  return controller;
}
