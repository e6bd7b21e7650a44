import { choice, genericRelation, longText, relation, text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { defineOrganizationalResource } from '../framework/resource/organizational';

export const TenantGroupResource = defineOrganizationalResource({
  appLabel: 'tenancy',
  model: 'tenantgroup',
  path: 'tenant-groups',
  verboseName: 'tenant group',
  table: 'tenancy_tenantgroup',
  tree: true,
  fields: { comments: longText() },
});

export const TenantResource = defineOrganizationalResource({
  appLabel: 'tenancy',
  model: 'tenant',
  path: 'tenants',
  verboseName: 'tenant',
  table: 'tenancy_tenant',
  fields: {
    group: relation(() => TenantGroupResource, { onDelete: 'PROTECT' }),
    comments: longText({ search: true }),
  },
});

export const ContactGroupResource = defineOrganizationalResource({
  appLabel: 'tenancy',
  model: 'contactgroup',
  path: 'contact-groups',
  verboseName: 'contact group',
  table: 'tenancy_contactgroup',
  tree: true,
});

export const ContactRoleResource = defineOrganizationalResource({
  appLabel: 'tenancy',
  model: 'contactrole',
  path: 'contact-roles',
  verboseName: 'contact role',
  table: 'tenancy_contactrole',
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
