import { describeResourceApi, unique, usePlatformApp } from './support/resource-api-kit';

const U = '/api/users';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of groups and object
 * permissions (users are read-only here: they are the identity service's); what permissions grant
 * is in platform-auth.e2e-spec.ts.
 */
describe('platform users: the REST and GraphQL contract of groups and object permissions', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${U}/groups/`,
    objectType: 'users.group',
    graphqlName: 'group',
    fixtures: ({ app: { seeded } }) => Promise.resolve({ user: seeded.w.user1 }),
    create: ({ user }) => [
      { name: 'NOC', description: 'operators', users: [user.id] },
      { name: 'Engineering' },
      { name: 'Auditors', description: 'read only' },
    ],
    update: { name: 'Network Operations', users: [] },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=Engineering': [1], 'q=read only': [2] },
    invalid: [
      { body: { description: 'nameless' }, field: 'name' },
      { body: { name: 'x'.repeat(151) }, field: 'name' },
    ],
  });

  describeResourceApi({
    app,
    path: `${U}/permissions/`,
    objectType: 'users.objectpermission',
    graphqlName: 'permission',
    fixtures: async ({ api }) => ({ group: await api.created(`${U}/groups/`, { name: unique('group') }) }),
    create: ({ group }) => [
      { name: 'view sites', object_types: ['dcim.site'], actions: ['view'], description: 'read' },
      { name: 'edit devices', object_types: ['dcim.device'], actions: ['view', 'change'], groups: [group.id] },
      { name: 'site one', object_types: ['dcim.site', 'dcim.device'], actions: ['view'], enabled: false },
    ],
    // A JSON object in a create body would read as a relation in the GraphQL cases: constraints are sent on update.
    update: {
      name: 'view sites and devices',
      actions: ['view', 'add'],
      enabled: false,
      object_types: ['dcim.device'],
      constraints: { id: 1 },
    },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description', 'enabled', 'actions'],
    filters: { 'name=edit devices': [1], 'enabled=false': [2] },
    invalid: [
      { body: { name: 'no actions', object_types: ['dcim.site'] }, field: 'actions' },
      { body: { name: 'no types', actions: ['view'] }, field: 'object_types' },
      { body: { name: 'bad action', object_types: ['dcim.site'], actions: ['View All'] }, field: 'actions' },
    ],
  });
});
