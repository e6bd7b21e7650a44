import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isPluginDefinition, PLUGIN_NAME, PluginDefinition, PluginManifest } from './plugin-declaration';

/** The manifest fields a declaration repeats (by spreading its manifest). */
const MANIFEST_FIELDS = ['name', 'version', 'description', 'dependencies', 'settings'] as const;

/**
 * The plugins a build ships, registered by folder name: `<directory>/<name>/` holds one plugin,
 * its `manifest.ts` exporting the manifest and its `index.ts` the declaration (what `definePlugin`
 * returned). Reading the manifests loads no model, so a cluster primary checks PLUGINS and the
 * plugins' settings in milliseconds; the declarations are loaded only when asked for.
 */
export class PluginRegistry {
  /** Each registered plugin's manifest, in registration order. */
  readonly manifests: readonly PluginManifest[];
  private loaded: readonly PluginDefinition[] | undefined;

  constructor(
    private readonly directory: string,
    private readonly names: readonly string[],
  ) {
    for (const [index, name] of names.entries()) {
      if (!PLUGIN_NAME.test(name))
        throw new Error(`plugin registry: ${JSON.stringify(name)} is not a plugin name (lowercase letters and digits)`);
      if (names.indexOf(name) !== index) throw new Error(`plugin registry: ${name} is registered twice`);
    }
    this.manifests = names.map((name) => this.manifestOf(name));
  }

  /** Each registered plugin's declaration (loading its models), in registration order. */
  declarations(): readonly PluginDefinition[] {
    this.loaded ??= this.names.map((name, index) => this.declarationOf(name, this.manifests[index]));
    return this.loaded;
  }

  private manifestOf(name: string): PluginManifest {
    const file = join(this.directory, name, 'manifest');
    const manifests = Object.values(this.load(file)).filter(
      (value): value is PluginManifest => typeof value === 'object' && value !== null && (value as PluginManifest).name === name,
    );
    if (manifests.length !== 1) throw new Error(`plugin ${name}: ${file} must export one manifest whose name is ${name}`);
    return manifests[0];
  }

  private declarationOf(name: string, manifest: PluginManifest): PluginDefinition {
    const file = join(this.directory, name, 'index');
    const declarations = Object.values(this.load(file)).filter((value) => isPluginDefinition(value) && value.name === name);
    if (declarations.length !== 1) throw new Error(`plugin ${name}: ${file} must export one definePlugin({name: '${name}', …})`);
    const declaration = declarations[0] as PluginDefinition;
    const differing = MANIFEST_FIELDS.filter((field) => !isDeepStrictEqual(declaration[field], manifest[field]));
    if (differing.length)
      throw new Error(`plugin ${name}: its declaration's ${differing.join(', ')} differ from its manifest's (spread the manifest)`);
    return declaration;
  }

  private load(file: string): Record<string, unknown> {
    // The folders are named at run time by the registry's list; a static import would load every model.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file) as Record<string, unknown>;
  }
}
