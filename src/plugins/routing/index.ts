import { GraphQLNonNull, GraphQLString } from 'graphql';
import { definePlugin } from '../../platform/plugin-api';
import { ROUTING_MANIFEST } from './manifest';
import { MIGRATIONS } from './migrations';
import {
  AsPathEntryResource,
  AsPathResource,
  BfdProfileResource,
  BgpAddressFamilyResource,
  BgpPeerAddressFamilyResource,
  BgpPeerResource,
  BgpPeerTemplateResource,
  BgpPolicyTemplateResource,
  BgpRouterResource,
  BgpScopeResource,
  BgpSessionTemplateResource,
  BgpSettingResource,
  CommunityListEntryResource,
  CommunityListResource,
  CommunityResource,
  CustomPrefixResource,
  PrefixListEntryResource,
  PrefixListResource,
  RouteMapEntryResource,
  RouteMapResource,
} from './routing.resources';

/** BGP routers, scopes, settings, address families, peers and their address families, peer/session/policy templates, BFD profiles, prefix lists, route maps, AS paths, communities and community lists. */
export const RoutingPlugin = definePlugin({
  ...ROUTING_MANIFEST,
  resources: [
    BgpRouterResource,
    BgpScopeResource,
    BgpPeerTemplateResource,
    BfdProfileResource,
    BgpSessionTemplateResource,
    BgpPolicyTemplateResource,
    BgpPeerResource,
    PrefixListResource,
    PrefixListEntryResource,
    RouteMapResource,
    BgpPeerAddressFamilyResource,
    BgpSettingResource,
    BgpAddressFamilyResource,
    AsPathResource,
    AsPathEntryResource,
    CommunityResource,
    CommunityListResource,
    CommunityListEntryResource,
    RouteMapEntryResource,
    CustomPrefixResource,
  ],
  migrations: MIGRATIONS,
  graphqlQueries: ({ typeOf, definition }) => ({
    routing_prefix_list_by_name: {
      type: typeOf('routing.prefixlist'),
      description: 'The prefix list with this name (names are unique), as router configurations refer to them; null when none is visible.',
      args: { name: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_source, args: { name: string }, context) => {
        const [list] = await context.loaders.list(definition('routing.prefixlist'), { name: [args.name] }, { limit: 1, offset: 0 });
        return list ?? null;
      },
    },
  }),
});
