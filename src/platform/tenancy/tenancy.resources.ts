import { choice, genericRelation, longText, relation, slug, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { noParentCycle } from '../dcim/dcim.rules';

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
  validateAsync: noParentCycle('tenancy_tenantgroup'),
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

export const ContactGroupResource = defineResource({
  appLabel: 'tenancy',
  model: 'contactgroup',
  path: 'contact-groups',
  verboseName: 'contact group',
  table: 'tenancy_contactgroup',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    parent: relation(() => ContactGroupResource, { onDelete: 'CASCADE' }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
  validateAsync: noParentCycle('tenancy_contactgroup'),
});

export const ContactRoleResource = defineResource({
  appLabel: 'tenancy',
  model: 'contactrole',
  path: 'contact-roles',
  verboseName: 'contact role',
  table: 'tenancy_contactrole',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['name'],
});

export const ContactResource = defineResource({
  appLabel: 'tenancy',
  model: 'contact',
  path: 'contacts',
  verboseName: 'contact',
  table: 'tenancy_contact',
  fields: {
    group: relation(() => ContactGroupResource, { onDelete: 'SET NULL' }),
    name: text({ maxLength: 100, required: true, search: true }),
    title: text({ maxLength: 100, search: true }),
    phone: text({ maxLength: 50, search: true }),
    email: text({ maxLength: 254, search: true, pattern: { regex: /^[^\s@]+@[^\s@]+$/, message: 'Enter a valid email address.' } }),
    address: text({ maxLength: 200, search: true }),
    link: text({ maxLength: 200 }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
});

export const CONTACT_PRIORITY_CHOICES = [
  ['primary', 'Primary'],
  ['secondary', 'Secondary'],
  ['tertiary', 'Tertiary'],
  ['inactive', 'Inactive'],
] as const;

/** A contact in a role for any object (site, circuit, provider, …). */
export const ContactAssignmentResource = defineResource({
  appLabel: 'tenancy',
  model: 'contactassignment',
  path: 'contact-assignments',
  verboseName: 'contact assignment',
  table: 'tenancy_contactassignment',
  fields: {
    object: genericRelation({ required: true, onDelete: 'CASCADE' }),
    contact: relation(() => ContactResource, { onDelete: 'CASCADE', required: true }),
    role: relation(() => ContactRoleResource, { onDelete: 'PROTECT' }),
    priority: choice(CONTACT_PRIORITY_CHOICES, { blank: true }),
  },
  display: (row) => `Contact ${String(row.contact_id)}`,
  brief: ['contact', 'role', 'priority'],
  ordering: ['contact', 'priority'],
  uniqueTogether: [['object_type_id', 'object_id', 'contact', 'role']],
  relatedObject: 'object',
});
