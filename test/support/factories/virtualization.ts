import type { PlatformClient } from '../platform-client';
import type { Created, Fields } from './dcim';
import { slugOf, unique } from './names';

const V = '/api/virtualization';

/** Clusters and virtual machines, with a new cluster type (and cluster) unless given. */
export function virtualizationFactories(api: PlatformClient) {
  const named = (prefix: string) => {
    const name = unique(prefix);
    return { name, slug: slugOf(name) };
  };
  const make = (path: string, body: Fields): Promise<Created> => api.created(`${V}/${path}/`, body);
  const idOr = async (fields: Fields, key: string, factory: () => Promise<Created>): Promise<unknown> =>
    fields[key] !== undefined ? fields[key] : (await factory()).id;
  const factories = {
    clusterType: (fields: Fields = {}) => make('cluster-types', { ...named('cluster-type'), ...fields }),
    clusterGroup: (fields: Fields = {}) => make('cluster-groups', { ...named('cluster-group'), ...fields }),
    cluster: async (fields: Fields = {}) =>
      make('clusters', { name: unique('cluster'), ...fields, type: await idOr(fields, 'type', () => factories.clusterType()) }),
    /** A virtual machine in a new cluster unless a `cluster` or `site` is given. */
    virtualMachine: async (fields: Fields = {}) =>
      make('virtual-machines', {
        name: unique('vm'),
        ...fields,
        ...(fields.cluster === undefined && fields.site === undefined ? { cluster: (await factories.cluster()).id } : {}),
      }),
    vmInterface: async (fields: Fields = {}) =>
      make('interfaces', {
        name: unique('eth'),
        ...fields,
        virtual_machine: await idOr(fields, 'virtual_machine', () => factories.virtualMachine()),
      }),
  };
  return factories;
}
