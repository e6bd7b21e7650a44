import type { PlatformClient } from '../platform-client';
import type { Created, Fields } from './dcim';
import { slugOf, unique } from './names';

const V = '/api/vpn';

/** VPN objects; a profile gets new IKE and IPSec policies (each with a new proposal) unless given. */
export function vpnFactories(api: PlatformClient) {
  const make = (path: string, body: Fields): Promise<Created> => api.created(`${V}/${path}/`, body);
  const idOr = async (fields: Fields, key: string, factory: () => Promise<Created>): Promise<unknown> =>
    fields[key] !== undefined ? fields[key] : (await factory()).id;

  const factories = {
    tunnelGroup: (fields: Fields = {}) => {
      const name = unique('tunnel-group');
      return make('tunnel-groups', { name, slug: slugOf(name), ...fields });
    },
    ikeProposal: (fields: Fields = {}) =>
      make('ike-proposals', {
        name: unique('ike-proposal'),
        authentication_method: 'preshared-keys',
        encryption_algorithm: 'aes-256-gcm',
        group: 19,
        ...fields,
      }),
    ikePolicy: async (fields: Fields = {}) =>
      make('ike-policies', {
        name: unique('ike-policy'),
        ...fields,
        proposals: fields.proposals ?? [(await factories.ikeProposal()).id],
      }),
    ipsecProposal: (fields: Fields = {}) =>
      make('ipsec-proposals', { name: unique('ipsec-proposal'), encryption_algorithm: 'aes-256-gcm', ...fields }),
    ipsecPolicy: async (fields: Fields = {}) =>
      make('ipsec-policies', {
        name: unique('ipsec-policy'),
        ...fields,
        proposals: fields.proposals ?? [(await factories.ipsecProposal()).id],
      }),
    ipsecProfile: async (fields: Fields = {}) =>
      make('ipsec-profiles', {
        name: unique('ipsec-profile'),
        mode: 'esp',
        ...fields,
        ike_policy: await idOr(fields, 'ike_policy', () => factories.ikePolicy()),
        ipsec_policy: await idOr(fields, 'ipsec_policy', () => factories.ipsecPolicy()),
      }),
    tunnel: (fields: Fields = {}) => make('tunnels', { name: unique('tunnel'), encapsulation: 'gre', ...fields }),
    l2vpn: (fields: Fields = {}) => {
      const name = unique('l2vpn');
      return make('l2vpns', { name, slug: slugOf(name), type: 'vxlan', ...fields });
    },
  };
  return factories;
}
