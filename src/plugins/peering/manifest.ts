import type { PluginManifest } from '../../platform/plugins/plugin-declaration';
import { setting } from '../../platform/plugins/plugin-settings';

/** What the configuration check needs of the plugin (name, dependencies, settings), without loading its models. */
export const PEERING_MANIFEST: PluginManifest = {
  name: 'peering',
  version: '1.0.0',
  description:
    'Peering management: relationships, peer ASNs, peering sessions on BGP peers, fabrics, IRR prefix lists, config rendering and PeeringDB/IRR synchronisation.',
  dependencies: ['routing'],
  settings: {
    irr_max_response_bytes: setting.integer({
      default: 16 * 1024 * 1024,
      min: 1024,
      max: 1024 * 1024 * 1024,
      description:
        'Largest answer of an IRR generator read, in bytes; a longer one fails the synchronisation and the prefix list keeps its entries',
    }),
    render_config_requires_view: setting.boolean({
      default: true,
      description:
        'render-config requires view permission on the template and the device (false: any authenticated caller may use any template and device; sessions and BGP passwords stay limited by permissions either way)',
    }),
  },
};
