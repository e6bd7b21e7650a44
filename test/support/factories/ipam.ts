import type { PlatformClient } from '../platform-client';
import type { Created, Fields } from './dcim';
import { slugOf, unique } from './names';

const I = '/api/ipam';

/** IPAM objects; related objects made unless given. Addresses and prefixes have no defaults: a test names its own space. */
export function ipamFactories(api: PlatformClient) {
  const named = (prefix: string) => {
    const name = unique(prefix);
    return { name, slug: slugOf(name) };
  };
  const make = (path: string, body: Fields): Promise<Created> => api.created(`${I}/${path}/`, body);
  return {
    rir: (fields: Fields = {}) => make('rirs', { ...named('rir'), ...fields }),
    ipamRole: (fields: Fields = {}) => make('roles', { ...named('ipam-role'), ...fields }),
    vrf: (fields: Fields = {}) => make('vrfs', { name: unique('vrf'), ...fields }),
    routeTarget: (fields: Fields = {}) => make('route-targets', { name: unique('65000:').replace('-', ''), ...fields }),
    vlanGroup: (fields: Fields = {}) => make('vlan-groups', { ...named('vlan-group'), ...fields }),
    vlan: (fields: Fields & { vid: number }) => make('vlans', { name: unique('vlan'), ...fields }),
    vlanTranslationPolicy: (fields: Fields = {}) => make('vlan-translation-policies', { name: unique('vlan-translation'), ...fields }),
    ipAddress: (fields: Fields & { address: string }) => make('ip-addresses', fields),
    fhrpGroup: (fields: Fields & { group_id: number }) => make('fhrp-groups', { protocol: 'vrrp2', ...fields }),
  };
}
