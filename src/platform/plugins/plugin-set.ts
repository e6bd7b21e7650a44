import type { AppConfig } from '../../common/config/app-config';
import { ConfigProblem, EnvReader, InvalidConfigurationError } from '../../common/config/env-reader';
import type { ResourceDefinition } from '../framework/resource/resource-definition';
import type { PluginDefinition, PluginManifest } from './plugin-declaration';
import { PluginSettingValues, readPluginSettings, settingVariable } from './plugin-settings';

export interface MountedPlugin {
  plugin: PluginDefinition;
  settings: PluginSettingValues;
}

/**
 * The plugins of this process: every available one (their tables exist, their migrations run) and
 * the mounted ones (served: routes, GraphQL, OpenAPI, jobs, subscribers), with their settings.
 */
export class PluginSet {
  private readonly byResource = new Map<ResourceDefinition, MountedPlugin>();

  private constructor(
    readonly available: readonly PluginDefinition[],
    readonly mounted: readonly MountedPlugin[],
  ) {
    for (const entry of mounted) for (const resource of entry.plugin.resources) this.byResource.set(resource, entry);
  }

  /**
   * The plugins PLUGINS names (all available ones when it is unset), checked against the available
   * ones: an unknown name, a missing dependency or a bad setting stops the start with one line each.
   */
  static select(available: readonly PluginDefinition[], config: Pick<AppConfig, 'plugins' | 'pluginVariables'>): PluginSet {
    return new PluginSet(available, selectPlugins(available, config));
  }

  /** What {@link select} would refuse, as configuration problems (none when it would start). */
  static configurationProblems(
    available: readonly PluginManifest[],
    config: Pick<AppConfig, 'plugins' | 'pluginVariables'>,
  ): ConfigProblem[] {
    try {
      selectPlugins(available, config);
      return [];
    } catch (error) {
      if (error instanceof InvalidConfigurationError) return error.problems;
      throw error;
    }
  }

  /** Models of the mounted plugins: served. */
  mountedResources(): ResourceDefinition[] {
    return this.mounted.flatMap(({ plugin }) => [...plugin.resources]);
  }

  /** Models of every available plugin: their tables exist whether or not the plugin is mounted. */
  availableResources(): ResourceDefinition[] {
    return this.available.flatMap((plugin) => [...plugin.resources]);
  }

  /** The mounted plugin a served model belongs to (undefined for the platform's own models). */
  pluginOf(resource: ResourceDefinition): MountedPlugin | undefined {
    return this.byResource.get(resource);
  }

  /** `{name: version}` of the mounted plugins, as NetBox's status reports them. */
  versions(): Record<string, string> {
    return Object.fromEntries(
      this.mounted.map(({ plugin }): [string, string] => [plugin.name, plugin.version]).sort(([a], [b]) => a.localeCompare(b)),
    );
  }
}

/** The plugins PLUGINS names with their settings; throws what {@link PluginSet.select} documents. */
function selectPlugins<P extends PluginManifest>(
  available: readonly P[],
  config: Pick<AppConfig, 'plugins' | 'pluginVariables'>,
): Array<{ plugin: P; settings: PluginSettingValues }> {
  assertConsistent(available);
  const reader = new EnvReader(config.pluginVariables);
  const byName = new Map(available.map((plugin) => [plugin.name, plugin]));
  const names = config.plugins ?? available.map((plugin) => plugin.name);
  const known = available.map((plugin) => plugin.name).join(', ') || 'none';
  for (const name of names) {
    if (!byName.has(name))
      reader.problem('PLUGINS', `names ${JSON.stringify(name)}, which is not an available plugin (available: ${known})`);
  }
  const selected = available.filter((plugin) => names.includes(plugin.name));
  for (const plugin of selected) {
    for (const dependency of plugin.dependencies ?? []) {
      if (!names.includes(dependency))
        reader.problem('PLUGINS', `names ${plugin.name}, which needs ${dependency}: add ${dependency} to PLUGINS`);
    }
  }
  for (const variable of Object.keys(config.pluginVariables)) {
    const owner = available.find((plugin) => variable.startsWith(`PLUGIN_${plugin.name.toUpperCase()}_`));
    if (!owner) continue;
    const settings = Object.keys(owner.settings ?? {});
    if (!settings.some((name) => settingVariable(owner.name, name) === variable)) {
      reader.problem(
        variable,
        `is not a setting of plugin ${owner.name} (its settings: ${settings.map((name) => settingVariable(owner.name, name)).join(', ') || 'none'})`,
      );
    }
  }
  const mounted = selected.map((plugin) => ({ plugin, settings: readPluginSettings(reader, plugin.name, plugin.settings ?? {}) }));
  reader.throwIfInvalid();
  return mounted;
}

/** Mistakes in the list of available plugins are the developer's: they stop the process at once. */
function assertConsistent(available: readonly PluginManifest[]): void {
  const names = new Set<string>();
  for (const plugin of available) {
    if (names.has(plugin.name)) throw new Error(`plugin ${plugin.name} is listed twice in the available plugins`);
    names.add(plugin.name);
  }
  for (const plugin of available) {
    for (const dependency of plugin.dependencies ?? []) {
      if (!names.has(dependency)) throw new Error(`plugin ${plugin.name} depends on ${dependency}, which is not an available plugin`);
    }
  }
}
