import type { PlatformClient } from '../platform-client';
import type { Fields } from './dcim';
import { slugOf, unique } from './names';

/** Tenants and tenant groups with unique names. */
export function tenancyFactories(api: PlatformClient) {
  const named = (prefix: string) => {
    const name = unique(prefix);
    return { name, slug: slugOf(name) };
  };
  return {
    tenantGroup: (fields: Fields = {}) => api.created('/api/tenancy/tenant-groups/', { ...named('tenant-group'), ...fields }),
    tenant: (fields: Fields = {}) => api.created('/api/tenancy/tenants/', { ...named('tenant'), ...fields }),
  };
}
