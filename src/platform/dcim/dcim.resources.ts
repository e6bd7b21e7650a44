import { choice, longText, relation, slug, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { TenantResource } from '../tenancy/tenancy.resources';

export const SITE_STATUSES = [
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
] as const;

export const SiteResource = defineResource({
  appLabel: 'dcim',
  model: 'site',
  path: 'sites',
  verboseName: 'site',
  table: 'dcim_site',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    status: choice(SITE_STATUSES, { default: 'active' }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    facility: text({ maxLength: 50, search: true }),
    time_zone: text({ maxLength: 63 }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
});
