import { describeResourceApi, unique, usePlatformApp } from './support/resource-api-kit';

const U = '/api/users';

/** NetBox 4.5's owners and owner groups: the generic REST and GraphQL contract, filters by member, PROTECT on the group. */
describe('platform users: owners and owner groups', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${U}/owner-groups/`,
    objectType: 'users.ownergroup',
    graphqlName: 'owner_group',
    create: [{ name: 'Network', description: 'network teams' }, { name: 'Facilities' }, { name: 'Security' }],
    update: { name: 'Networking', description: 'renamed' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=Facilities': [1], 'q=teams': [0] },
    invalid: [
      { body: { description: 'nameless' }, field: 'name' },
      { body: { name: 'x'.repeat(101) }, field: 'name' },
    ],
  });

  describeResourceApi({
    app,
    path: `${U}/owners/`,
    objectType: 'users.owner',
    graphqlName: 'owner',
    fixtures: async ({ api, app: { seeded } }) => ({
      user: seeded.w.user1,
      group: await api.created(`${U}/groups/`, { name: unique('group') }),
      ownerGroup: await api.created(`${U}/owner-groups/`, { name: unique('owner-group') }),
    }),
    create: ({ user, group, ownerGroup }) => [
      { name: 'core-net', description: 'backbone', group: ownerGroup.id, users: [user.id] },
      { name: 'dc-ops', user_groups: [group.id] },
      { name: 'unassigned' },
    ],
    update: { name: 'core-network', description: 'renamed', group: null },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ user, group, ownerGroup }) => ({
      [`group_id=${ownerGroup.id}`]: [0],
      [`group=${encodeURIComponent(ownerGroup.name)}`]: [0],
      [`user_id=${user.id}`]: [0],
      [`user=${user.username}`]: [0],
      [`user_group_id=${group.id}`]: [1],
      [`user_group=${encodeURIComponent(group.name)}`]: [1],
      'q=backbone': [0],
    }),
    invalid: [
      { body: { description: 'nameless' }, field: 'name' },
      { body: { name: 'ghost members', users: [2_147_483_000] }, field: 'users' },
    ],
  });

  it('counts an owner group’s members and refuses to delete a group with members (PROTECT)', async () => {
    const { api } = app();
    const ownerGroup = await api.created(`${U}/owner-groups/`, { name: unique('owner-group') });
    const owner = await api.created(`${U}/owners/`, { name: unique('owner'), group: ownerGroup.id });
    expect(owner.group).toMatchObject({ id: ownerGroup.id, name: ownerGroup.name });
    expect((await api.get(`${U}/owner-groups/${ownerGroup.id}/`)).body.member_count).toBe(1);
    expect((await api.delete(`${U}/owner-groups/${ownerGroup.id}/`)).status).toBe(409);
    expect((await api.delete(`${U}/owners/${owner.id}/`)).status).toBe(204);
    expect((await api.get(`${U}/owner-groups/${ownerGroup.id}/`)).body.member_count).toBe(0);
    expect((await api.delete(`${U}/owner-groups/${ownerGroup.id}/`)).status).toBe(204);
  });
});
