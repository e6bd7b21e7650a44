import type { PlatformClient } from '../platform-client';
import type { Created, Fields } from './dcim';
import { slugOf, unique } from './names';

const C = '/api/circuits';

/** Providers, their networks and accounts, circuits and virtual circuits, each with what it needs made unless given. */
export function circuitsFactories(api: PlatformClient) {
  const named = (prefix: string) => {
    const name = unique(prefix);
    return { name, slug: slugOf(name) };
  };
  const make = (path: string, body: Fields): Promise<Created> => api.created(`${C}/${path}/`, body);
  const idOr = async (fields: Fields, key: string, factory: () => Promise<Created>): Promise<unknown> =>
    fields[key] !== undefined ? fields[key] : (await factory()).id;

  const factories = {
    provider: (fields: Fields = {}) => make('providers', { ...named('provider'), ...fields }),
    providerAccount: async (fields: Fields = {}) =>
      make('provider-accounts', {
        account: unique('acct'),
        ...fields,
        provider: await idOr(fields, 'provider', () => factories.provider()),
      }),
    providerNetwork: async (fields: Fields = {}) =>
      make('provider-networks', {
        name: unique('network'),
        ...fields,
        provider: await idOr(fields, 'provider', () => factories.provider()),
      }),
    circuitType: (fields: Fields = {}) => make('circuit-types', { ...named('circuit-type'), ...fields }),
    circuit: async (fields: Fields = {}) =>
      make('circuits', {
        cid: unique('CID'),
        ...fields,
        provider: await idOr(fields, 'provider', () => factories.provider()),
        type: await idOr(fields, 'type', () => factories.circuitType()),
      }),
    circuitGroup: (fields: Fields = {}) => make('circuit-groups', { ...named('circuit-group'), ...fields }),
    virtualCircuitType: (fields: Fields = {}) => make('virtual-circuit-types', { ...named('vc-type'), ...fields }),
    virtualCircuit: async (fields: Fields = {}) =>
      make('virtual-circuits', {
        cid: unique('VC'),
        ...fields,
        provider_network: await idOr(fields, 'provider_network', () => factories.providerNetwork()),
        type: await idOr(fields, 'type', () => factories.virtualCircuitType()),
      }),
  };
  return factories;
}
