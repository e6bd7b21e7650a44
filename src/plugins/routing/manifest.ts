import type { PluginManifest } from '../../platform/plugins/plugin-declaration';

/** What the configuration check needs of the plugin (name, dependencies, settings), without loading its models. */
export const ROUTING_MANIFEST: PluginManifest = {
  name: 'routing',
  version: '1.0.0',
  description: 'BGP, BFD, prefix lists and route maps (as netbox-routing); the peering plugin builds on it.',
};
