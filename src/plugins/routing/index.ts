import { definePlugin } from '../../platform/plugins/plugin-declaration';
import { MIGRATIONS } from './migrations';
import {
  BfdProfileResource,
  BgpPeerAddressFamilyResource,
  BgpPeerResource,
  BgpPeerTemplateResource,
  BgpRouterResource,
  BgpScopeResource,
  PrefixListEntryResource,
  PrefixListResource,
  RouteMapResource,
} from './routing.resources';

/** BGP routers, scopes, peers and their address families, peer templates, BFD profiles, prefix lists and route maps. */
export const RoutingPlugin = definePlugin({
  name: 'routing',
  version: '1.0.0',
  description: 'BGP, BFD, prefix lists and route maps (as netbox-routing); the peering plugin builds on it.',
  resources: [
    BgpRouterResource,
    BgpScopeResource,
    BgpPeerTemplateResource,
    BfdProfileResource,
    BgpPeerResource,
    PrefixListResource,
    PrefixListEntryResource,
    RouteMapResource,
    BgpPeerAddressFamilyResource,
  ],
  migrations: MIGRATIONS,
});
