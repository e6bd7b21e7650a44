import { describeResourceApi, unique, usePlatformApp } from './support/resource-api-kit';

const T = '/api/tenancy';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of every tenancy model;
 * their own rules (trees, delete rules, assignments to any object) are in platform-organization.e2e-spec.ts.
 */
describe('platform tenancy: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${T}/tenant-groups/`,
    objectType: 'tenancy.tenantgroup',
    graphqlName: 'tenant_group',
    fixtures: async ({ api }) => ({ parent: await api.created(`${T}/tenant-groups/`, { name: unique('TG'), slug: unique('tg') }) }),
    create: ({ parent }) => [
      { name: 'Customers', slug: 'customers', description: 'paying' },
      { name: 'Partners', slug: 'partners', parent: parent.id },
      { name: 'Internal', slug: 'internal', parent: parent.id, comments: 'ours' },
    ],
    update: { name: 'Clients', slug: 'clients', description: 'renamed' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: ({ parent }) => ({ 'name=Partners': [1], 'slug=internal': [2], [`parent_id=${parent.id}`]: [1, 2], 'q=paying': [0] }),
    invalid: [
      { body: { slug: 'no-name' }, field: 'name' },
      { body: { name: 'Bad slug', slug: 'not a slug' }, field: 'slug' },
    ],
  });

  describeResourceApi({
    app,
    path: `${T}/tenants/`,
    objectType: 'tenancy.tenant',
    graphqlName: 'tenant',
    fixtures: async ({ api }) => ({ group: await api.created(`${T}/tenant-groups/`, { name: unique('TG'), slug: unique('tg') }) }),
    create: ({ group }) => [
      { name: 'Acme', slug: 'acme', group: group.id, description: 'anvils' },
      { name: 'Globex', slug: 'globex', comments: 'hostile' },
      { name: 'Initech', slug: 'initech', group: group.id },
    ],
    update: { name: 'Acme Corp', slug: 'acme-corp', group: null },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: ({ group }) => ({ 'name=Globex': [1], [`group_id=${group.id}`]: [0, 2], 'q=anvils': [0] }),
    invalid: [
      { body: { slug: 'no-name' }, field: 'name' },
      { body: { name: 'Lost', slug: 'lost', group: 2_147_483_000 }, field: 'group' },
    ],
  });

  describeResourceApi({
    app,
    path: `${T}/contact-groups/`,
    objectType: 'tenancy.contactgroup',
    graphqlName: 'contact_group',
    fixtures: async ({ api }) => ({
      parent: await api.created(`${T}/contact-groups/`, { name: unique('CG'), slug: unique('cg') }),
    }),
    create: ({ parent }) => [
      { name: 'NOC', slug: 'noc', description: 'on call' },
      { name: 'Field', slug: 'field', parent: parent.id },
      { name: 'Vendors', slug: 'vendors', parent: parent.id },
    ],
    update: { name: 'Network Operations', slug: 'network-operations' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: ({ parent }) => ({ 'slug=noc': [0], [`parent_id=${parent.id}`]: [1, 2] }),
    invalid: [{ body: { slug: 'no-name' }, field: 'name' }],
  });

  describeResourceApi({
    app,
    path: `${T}/contact-roles/`,
    objectType: 'tenancy.contactrole',
    graphqlName: 'contact_role',
    create: [
      { name: 'Technical', slug: 'technical', description: 'engineers' },
      { name: 'Billing', slug: 'billing' },
      { name: 'Escalation', slug: 'escalation' },
    ],
    update: { name: 'Tech', slug: 'tech' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'name=Billing': [1], 'slug=escalation': [2], 'q=engineers': [0] },
    invalid: [{ body: { name: 'No slug' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${T}/contacts/`,
    objectType: 'tenancy.contact',
    graphqlName: 'contact',
    fixtures: async ({ api }) => ({ group: await api.created(`${T}/contact-groups/`, { name: unique('CG'), slug: unique('cg') }) }),
    create: ({ group }) => [
      { name: 'Alice', email: 'alice@example.net', group: group.id, title: 'Engineer' },
      { name: 'Bob', phone: '+1 555 0100', description: 'night shift' },
      { name: 'Carol', group: group.id, address: '1 Main St' },
    ],
    update: { name: 'Alice Smith', email: 'asmith@example.net', group: null },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ group }) => ({ 'name=Bob': [1], [`group_id=${group.id}`]: [0, 2], 'q=night': [1] }),
    invalid: [
      { body: { title: 'nameless' }, field: 'name' },
      { body: { name: 'Mallory', email: 'not an address' }, field: 'email' },
    ],
  });

  describeResourceApi({
    app,
    path: `${T}/contact-assignments/`,
    objectType: 'tenancy.contactassignment',
    graphqlName: 'contact_assignment',
    fixtures: async ({ api, factories }) => ({
      site: await factories.site(),
      contacts: [
        await api.created(`${T}/contacts/`, { name: unique('contact') }),
        await api.created(`${T}/contacts/`, { name: unique('contact') }),
      ],
      role: await api.created(`${T}/contact-roles/`, { name: unique('CR'), slug: unique('cr') }),
    }),
    create: ({ site, contacts: [c1, c2], role }) => [
      { object_type: 'dcim.site', object_id: site.id, contact: c1.id, role: role.id, priority: 'primary' },
      { object_type: 'dcim.site', object_id: site.id, contact: c2.id, role: role.id, priority: 'secondary' },
      { object_type: 'dcim.site', object_id: site.id, contact: c1.id },
    ],
    update: { priority: 'tertiary' },
    bulkUpdate: { priority: 'inactive' },
    brief: ['id', 'url', 'display', 'contact', 'role', 'priority'],
    filters: ({ contacts: [c1], role }) => ({ [`contact_id=${c1.id}`]: [0, 2], [`role_id=${role.id}`]: [0, 1], 'priority=secondary': [1] }),
    invalid: [
      { body: ({ site }) => ({ object_type: 'dcim.site', object_id: site.id }), field: 'contact' },
      {
        body: ({ site, contacts: [c1] }) => ({ object_type: 'dcim.site', object_id: site.id, contact: c1.id, priority: 'urgent' }),
        field: 'priority',
      },
    ],
  });
});
