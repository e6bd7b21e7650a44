import type { PluginManifest } from '../../platform/plugins/plugin-declaration';

/** What the configuration check needs of the plugin (name, dependencies, settings), without loading its models. */
export const WDM_MANIFEST: PluginManifest = {
  name: 'wdm',
  version: '1.0.0',
  description:
    'WDM: profiles and ITU channel plans, nodes with generated channels and line ports, circuits over derived wavelength paths; read-only GraphQL, REST operations.',
};
