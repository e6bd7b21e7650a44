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
    peeringdb_url: setting.string({
      default: 'https://www.peeringdb.com/api',
      pattern: { regex: /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, description: 'an http(s) URL without query or fragment' },
      description: 'Root of the PeeringDB API the live synchronisation fetches from',
    }),
    peeringdb_api_key: setting.string({
      default: '',
      description: 'PeeringDB API key, sent as `Authorization: Api-Key <key>` (empty: anonymous requests)',
    }),
    peeringdb_ix_ids: setting.string({
      default: '',
      pattern: { regex: /^\s*(\d+\s*(,\s*\d+\s*)*)?$/, description: 'comma-separated PeeringDB exchange ids' },
      description: 'PeeringDB exchanges (ix ids) the live synchronisation fetches besides those already linked to a fabric',
    }),
    peeringdb_sync_interval: setting.integer({
      default: 0,
      min: 0,
      max: 10080,
      description: 'Minutes between scheduled live PeeringDB synchronisations (0: not scheduled)',
    }),
    peeringdb_max_response_bytes: setting.integer({
      default: 256 * 1024 * 1024,
      min: 1024,
      max: 1024 * 1024 * 1024,
      description: 'Largest PeeringDB API answer read, in bytes; a longer one fails the synchronisation and nothing is changed',
    }),
    irr_sync_interval: setting.integer({
      default: 60,
      min: 0,
      max: 10080,
      description:
        'Minutes between scheduled runs that synchronise every due IRR prefix list (each by its own sync_interval; 0: not scheduled)',
    }),
    render_config_requires_view: setting.boolean({
      default: true,
      description:
        'render-config requires view permission on the template and the device (false: any authenticated caller may use any template and device; sessions and BGP passwords stay limited by permissions either way)',
    }),
  },
};
