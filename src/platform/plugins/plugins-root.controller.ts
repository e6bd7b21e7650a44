import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { PlatformApi } from '../../common/auth/authenticated.decorator';
import { NotFoundError } from '../../common/errors/common-errors';
import { requestBaseUrl } from '../framework/resource/resource-controller.factory';
import { PluginSet } from './plugin-set';

/**
 * NetBox's plugin API roots: `GET /api/plugins/` (each mounted plugin's API root, and the list of
 * installed plugins), `GET /api/plugins/installed-plugins/` (what pynetbox's `installed_plugins()`
 * reads) and `GET /api/plugins/<name>/` (the plugin's endpoints: its models' lists and its routes without path parameters).
 */
@ApiExcludeController()
@PlatformApi()
@Controller('api/plugins')
export class PluginsRootController {
  constructor(private readonly plugins: PluginSet) {}

  @Get()
  root(@Req() request: Request): Record<string, string> {
    const base = requestBaseUrl(request);
    return {
      'installed-plugins': `${base}/api/plugins/installed-plugins/`,
      ...Object.fromEntries(this.plugins.mounted.map(({ plugin }) => [plugin.name, `${base}${plugin.basePath}`])),
    };
  }

  @Get('installed-plugins')
  installed(): Array<Record<string, string>> {
    return this.plugins.mounted.map(({ plugin }) => ({
      name: plugin.name,
      package: plugin.name,
      description: plugin.description,
      version: plugin.version,
    }));
  }

  @Get(':name')
  pluginRoot(@Req() request: Request, @Param('name') name: string): Record<string, string> {
    const mounted = this.plugins.mounted.find(({ plugin }) => plugin.name === name);
    if (!mounted) throw new NotFoundError('Not found.');
    const base = requestBaseUrl(request);
    // Routes without path parameters are URLs a client can follow, as the models' lists are.
    const routes = (mounted.plugin.routes ?? []).filter((route) => !route.path.includes('{'));
    return Object.fromEntries([
      ...mounted.plugin.resources.map((resource): [string, string] => [resource.path, `${base}${resource.listPath}`]),
      ...routes.map((route): [string, string] => [route.path, `${base}${mounted.plugin.basePath}${route.path}/`]),
    ]);
  }
}
