import { PluginRegistry } from '../platform/plugins/plugin-registry';

/**
 * Every plugin this repository ships, by folder (`src/plugins/<name>/`, named as the plugin), one
 * line each: the only place outside a plugin's own folder that names it. PLUGINS selects which of
 * them are mounted (all of them when unset). Reading this list loads the plugins' manifests only,
 * not their models.
 */
// prettier-ignore
export const PLUGIN_REGISTRY = new PluginRegistry(__dirname, [
  'routing',
  'fms',
  'peering',
  'pathways',
  'notices',
  'wdm',
]);
