import { Controller, Injectable, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PlatformApi } from '../../common/auth/authenticated.decorator';
import { NotFoundError } from '../../common/errors/common-errors';
import type { QueryParameters } from '../framework/query/filter-parser';
import { ResourceAccess } from '../framework/resource/resource-access';
import { ResourceActions } from '../framework/resource/resource-actions';
import { requestScope } from '../framework/resource/resource-controller.factory';
import type { RequestScope } from '../framework/resource/resource-declaration';
import { ResourceRegistry } from '../framework/resource/resource-registry';
import { mountRoute } from '../framework/resource/route-mounting';
import { expressPath, isValidPathParameter, PluginRoute, routeSegments, RouteResponse } from './plugin-route';
import { MountedPlugin, PluginSet } from './plugin-set';

/** Runs the mounted plugins' routes: the path parameters' types, the permission check, then the handler in a transaction. */
@Injectable()
export class PluginRouteRunner {
  constructor(
    private readonly access: ResourceAccess,
    private readonly actions: ResourceActions,
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
      await this.access.requirePermission(route.permission.objectType, scope.principal, route.permission.action);
    const owner = `plugin ${mounted.plugin.name}: route ${route.method} ${route.path}`;
    return this.actions.runWithActionContext(route.method, owner, mounted.settings, body, query, scope, (context) =>
      route.handle({ ...context, params: Object.freeze({ ...params }), headers }),
    );
  }
}

/**
 * The routes of one mounted plugin, on one controller under its base path, mounted as model actions
 * are. Registered before the models' controllers; the declaration ensures no URL is both a route's
 * and a model's.
 */
export function pluginRoutesController(mounted: MountedPlugin): Type | undefined {
  return routesController(mounted, mounted.plugin.routes ?? [], mounted.plugin.basePath, 'PluginRoutesController');
}

/** The routes a plugin also serves at `/plugins/<name>/<path>` (`alsoAtPluginUrl`), on their own controller. */
export function pluginUrlRoutesController(mounted: MountedPlugin): Type | undefined {
  const routes = (mounted.plugin.routes ?? []).filter((route) => route.alsoAtPluginUrl);
  return routesController(mounted, routes, `/plugins/${mounted.plugin.name}/`, 'PluginUrlRoutesController');
}

function routesController(mounted: MountedPlugin, routes: readonly PluginRoute[], basePath: string, kind: string): Type | undefined {
  const { plugin } = mounted;
  if (routes.length === 0) return undefined;

  @ApiExcludeController()
  @PlatformApi()
  @Controller(basePath.replace(/^\/|\/$/g, ''))
  class PluginRoutesController {
    constructor(readonly runner: PluginRouteRunner) {}
  }

  for (const [index, route] of routes.entries()) {
    const segments = routeSegments(route.path);
    if ('problem' in segments) throw new Error(`plugin ${plugin.name}: route ${route.path}: ${segments.problem}`);
    mountRoute(PluginRoutesController, {
      key: `route_${index}_${route.method.toLowerCase()}`,
      method: route.method,
      path: expressPath(segments),
      arguments: ['request', 'response', 'body', 'query'],
      safePost: route.safePost,
      queryToken: route.queryToken,
      async handle(this: PluginRoutesController, request: Request, response: Response, body: unknown, query: QueryParameters) {
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
      },
    });
  }
  const pascal = plugin.name.replace(/^[a-z]/, (letter) => letter.toUpperCase());
  Object.defineProperty(PluginRoutesController, 'name', { value: `${pascal}${kind}` });
  return PluginRoutesController;
}
