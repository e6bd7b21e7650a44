import { Injectable } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DataSource } from 'typeorm';
import { NETBOX_COMPATIBLE_VERSION } from './framework/http/api-version';
import { buildPlatformOpenApi } from './framework/resource/resource-openapi';
import { ResourceRegistry } from './framework/resource/resource-registry';
import { pluginRoutePaths } from './plugins/plugin-route-openapi';
import { PluginSet } from './plugins/plugin-set';

/** The project's version, from the nearest package.json above this file (in src/ under jest, in dist/ when built). */
function packageVersion(): string {
  for (let directory = __dirname; directory !== dirname(directory); directory = dirname(directory)) {
    const file = join(directory, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

export const PACKAGE_VERSION = packageVersion();

@Injectable()
export class PlatformStatus {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly dataSource: DataSource,
    private readonly plugins: PluginSet,
  ) {}

  private document?: Record<string, unknown>;

  openApiDocument(): Record<string, unknown> {
    this.document ??= buildPlatformOpenApi(
      this.registry.definitions,
      PACKAGE_VERSION,
      Object.fromEntries(this.plugins.mounted.flatMap(({ plugin }) => Object.entries(pluginRoutePaths(plugin)))),
    );
    return this.document;
  }

  /** The API root: each app label (and `plugins`, `status`) with its URL. */
  apps(baseUrl: string): Record<string, string> {
    const labels = new Set(
      this.registry.definitions.filter((definition) => !definition.apiPrefix).map((definition) => definition.appLabel),
    );
    const entries = [...labels, 'plugins', 'status'].sort().map((label): [string, string] => [label, `${baseUrl}/api/${label}/`]);
    return Object.fromEntries(entries);
  }

  async report(): Promise<Record<string, unknown>> {
    const [{ server_version: version }] = (await this.dataSource.query('SHOW server_version')) as Array<{ server_version: string }>;
    const workers = (await this.dataSource.query(
      `SELECT COUNT(DISTINCT locked_by)::int AS running FROM jobs WHERE status = 'running'`,
    )) as Array<{ running: number }>;
    return {
      'netbox-version': NETBOX_COMPATIBLE_VERSION,
      'app-version': PACKAGE_VERSION,
      'node-version': process.versions.node,
      'postgresql-version': version,
      'installed-apps': Object.fromEntries(
        [
          ...new Set(
            this.registry.definitions.filter((definition) => !this.plugins.pluginOf(definition)).map((definition) => definition.appLabel),
          ),
        ]
          .sort()
          .map((label) => [label, PACKAGE_VERSION]),
      ),
      plugins: this.plugins.versions(),
      'workers-running': workers[0]?.running ?? 0,
    };
  }
}
