import { Body, Controller, Get, Injectable, Post, Query, Req, Res, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PlatformApi } from '../../common/auth/authenticated.decorator';
import { NotFoundError } from '../../common/errors/common-errors';
import type { QueryParameters } from '../framework/query/filter-parser';
import { requestScope } from '../framework/resource/resource-controller.factory';
import type { RequestScope } from '../framework/resource/resource-declaration';
import { ResourceRegistry } from '../framework/resource/resource-registry';
import { ResourceService } from '../framework/resource/resource.service';
import { expressPath, isValidPathParameter, PluginRoute, routeSegments, RouteResponse } from './plugin-route';
import { MountedPlugin, PluginSet } from './plugin-set';

/** Runs the mounted plugins' routes: the path parameters' types, the permission check, then the handler in a transaction. */
@Injectable()
export class PluginRouteRunner {
  constructor(
    private readonly resources: ResourceService,
    registry: ResourceRegistry,
    plugins: PluginSet,
  ) {
    for (const { plugin } of plugins.mounted) {
      for (const route of plugin.routes ?? []) {
        if (route.permission !== 'authenticated' && !registry.definition(route.permission.objectType)) {
          throw new Error(
            `plugin ${plugin.name}: route ${route.method} ${route.path} needs a permission on ${route.permission.objectType}, which is not a served model`,
          );
        }
      }
    }
  }

  async run(
    mounted: MountedPlugin,
    route: PluginRoute,
    params: Record<string, string>,
    body: unknown,
    query: QueryParameters,
    scope: RequestScope,
    headers: Readonly<Record<string, string | string[] | undefined>> = {},
  ): Promise<unknown> {
    // A parameter of the wrong type means no such URL, whoever asks (as Django resolves URLs before checking permissions).
    for (const [name, { schema }] of Object.entries(route.openapi.pathParameters ?? {})) {
      if (!isValidPathParameter(params[name], schema)) throw new NotFoundError('Not found.');
    }
    if (route.permission !== 'authenticated')
      await this.resources.requirePermission(route.permission.objectType, scope.principal, route.permission.action);
    const owner = `plugin ${mounted.plugin.name}: route ${route.method} ${route.path}`;
    return this.resources.runWithActionContext(route.method, owner, mounted.settings, body, query, scope, (context) =>
      route.handle({ ...context, params: Object.freeze({ ...params }), headers }),
    );
  }
}

/**
 * The routes of one mounted plugin, on one controller under its base path, with Nest's decorators
 * applied programmatically as for model actions. Registered before the models' controllers; the
 * declaration ensures no URL is both a route's and a model's.
 */
export function pluginRoutesController(mounted: MountedPlugin): Type | undefined {
  const { plugin } = mounted;
  if (!plugin.routes?.length) return undefined;

  @ApiExcludeController()
  @PlatformApi()
  @Controller(plugin.basePath.replace(/^\/|\/$/g, ''))
  class PluginRoutesController {
    constructor(readonly runner: PluginRouteRunner) {}
  }

  const prototype = PluginRoutesController.prototype as unknown as Record<string, unknown>;
  for (const [index, route] of plugin.routes.entries()) {
    const segments = routeSegments(route.path);
    if ('problem' in segments) throw new Error(`plugin ${plugin.name}: route ${route.path}: ${segments.problem}`);
    const key = `route_${index}_${route.method.toLowerCase()}`;
    prototype[key] = async function (
      this: PluginRoutesController,
      request: Request,
      response: Response,
      body: unknown,
      query: QueryParameters,
    ) {
      const answer = await this.runner.run(
        mounted,
        route,
        request.params as Record<string, string>,
        body,
        query,
        requestScope(request),
        request.headers,
      );
      // Sent as text with its media type set, so a bare string or number is JSON too, not HTML.
      const sent = answer instanceof RouteResponse ? answer : RouteResponse.json(answer ?? null, 'application/json');
      // Sent here rather than by Nest, whose reply would set the route's fixed status over a RouteResponse's own.
      response.status(sent.status).setHeader('Content-Type', sent.contentType);
      for (const [name, value] of Object.entries(sent.headers)) response.setHeader(name, value);
      if (sent.status === 304) response.end();
      else response.send(sent.body);
    };
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
    Reflect.defineMetadata('design:paramtypes', [Object, Object, Object, Object], prototype, key);
    Req()(prototype, key, 0);
    Res()(prototype, key, 1);
    Body()(prototype, key, 2);
    Query()(prototype, key, 3);
    (route.method === 'GET' ? Get : Post)(expressPath(segments))(prototype, key, descriptor);
    PlatformApi({ safePost: route.safePost, queryToken: route.queryToken })(prototype, key, descriptor);
  }
  const pascal = plugin.name.replace(/^[a-z]/, (letter) => letter.toUpperCase());
  Object.defineProperty(PluginRoutesController, 'name', { value: `${pascal}PluginRoutesController` });
  return PluginRoutesController;
}
