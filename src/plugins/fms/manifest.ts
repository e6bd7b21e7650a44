import type { PluginManifest } from '../../platform/plugins/plugin-declaration';

/** What the configuration check needs of the plugin (name, dependencies, settings), without loading its models. */
export const FMS_MANIFEST: PluginManifest = {
  name: 'fms',
  version: '1.0.0',
  description:
    'Fiber management: fiber cable types, cables with generated tubes, ribbons and strands, splice plans with approval, fiber circuits and protection.',
};
