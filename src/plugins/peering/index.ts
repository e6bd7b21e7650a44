import { definePlugin } from '../../platform/plugins/plugin-declaration';
import { MIGRATIONS } from './migrations';
import { PEERING_RESOURCES } from './peering.resources';

/** Peering management on the routing plugin's BGP peers: sessions, peer ASNs, fabrics, IRR prefix lists, configuration rendering. */
export const PeeringPlugin = definePlugin({
  name: 'peering',
  version: '1.0.0',
  description: 'Peering management: relationships, peer ASNs, peering sessions on BGP peers, fabrics, IRR prefix lists, config rendering and PeeringDB/IRR synchronisation.',
  dependencies: ['routing'],
  resources: PEERING_RESOURCES,
  migrations: MIGRATIONS,
});
