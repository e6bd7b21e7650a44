import { longText, relation, slug, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';

export const TenantGroupResource = defineResource({
  appLabel: 'tenancy',
  model: 'tenantgroup',
  path: 'tenant-groups',
  verboseName: 'tenant group',
  table: 'tenancy_tenantgroup',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    parent: relation(() => TenantGroupResource, { onDelete: 'CASCADE' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText(),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
});

export const TenantResource = defineResource({
  appLabel: 'tenancy',
  model: 'tenant',
  path: 'tenants',
  verboseName: 'tenant',
  table: 'tenancy_tenant',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    group: relation(() => TenantGroupResource, { onDelete: 'PROTECT' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
});
