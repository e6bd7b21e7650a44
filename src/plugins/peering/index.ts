import { definePlugin } from '../../platform/plugins/plugin-declaration';
import { setting } from '../../platform/plugins/plugin-settings';
import { MIGRATIONS } from './migrations';
import { PEERING_RESOURCES } from './peering.resources';
import { RENDER_CONFIG_ROUTE } from './render-config';

/** Peering management on the routing plugin's BGP peers: sessions, peer ASNs, fabrics, IRR prefix lists, configuration rendering. */
export const PeeringPlugin = definePlugin({
  name: 'peering',
  version: '1.0.0',
  description: 'Peering management: relationships, peer ASNs, peering sessions on BGP peers, fabrics, IRR prefix lists, config rendering and PeeringDB/IRR synchronisation.',
  dependencies: ['routing'],
  resources: PEERING_RESOURCES,
  migrations: MIGRATIONS,
  routes: [RENDER_CONFIG_ROUTE],
  settings: {
    render_config_requires_view: setting.boolean({
      default: false,
      description: 'render-config also requires view permission on the template, the device and the sessions (by default any authenticated caller may render, and the output contains BGP passwords)',
    }),
  },
});
