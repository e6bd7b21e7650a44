import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';
import { factories } from './support/factories';

const I = '/api/ipam';

/**
 * VLAN translation policies and rules (NetBox 4.2+): the generic REST and GraphQL contract, a
 * policy's `rules`, the rules' uniqueness per policy, and the policy on device and VM interfaces.
 */
describe('platform IPAM: VLAN translation policies and rules', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${I}/vlan-translation-policies/`,
    objectType: 'ipam.vlantranslationpolicy',
    graphqlName: 'vlan_translation_policy',
    create: [{ name: 'policy-a', description: 'edge' }, { name: 'policy-b', comments: 'core side' }, { name: 'policy-c' }],
    update: { name: 'policy-z', description: 'renamed' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=policy-b': [1], 'q=edge': [0], 'description=edge': [0] },
    invalid: [{ body: { description: 'no name' }, field: 'name' }],
  });

  describeResourceApi({
    app,
    path: `${I}/vlan-translation-rules/`,
    objectType: 'ipam.vlantranslationrule',
    graphqlName: 'vlan_translation_rule',
    fixtures: async ({ factories: f }) => ({ first: await f.vlanTranslationPolicy(), second: await f.vlanTranslationPolicy() }),
    create: ({ first, second }) => [
      { policy: first.id, local_vid: 100, remote_vid: 200, description: 'customer a' },
      { policy: first.id, local_vid: 101, remote_vid: 201 },
      { policy: second.id, local_vid: 100, remote_vid: 200 },
    ],
    update: { local_vid: 110, remote_vid: 210, description: 'moved' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'policy', 'local_vid', 'remote_vid', 'description'],
    filters: ({ first, second }) => ({
      [`policy_id=${first.id}`]: [0, 1],
      [`policy=${encodeURIComponent(second.name)}`]: [2],
      'local_vid=101': [1],
      'remote_vid__gte=201': [1],
      [`q=${encodeURIComponent(second.name)}`]: [2],
    }),
    invalid: [
      { body: ({ first }) => ({ policy: first.id, local_vid: 0, remote_vid: 5 }), field: 'local_vid' },
      { body: ({ first }) => ({ policy: first.id, local_vid: 5, remote_vid: 4095 }), field: 'remote_vid' },
      { body: { local_vid: 5, remote_vid: 6 }, field: 'policy' },
    ],
  });

  it('lists a policy’s rules with the policy as an id, keeps local and remote VIDs unique per policy, and deletes rules with it', async () => {
    const { api } = app();
    const policy = await factories(api).vlanTranslationPolicy();
    const rule = await api.created(`${I}/vlan-translation-rules/`, { policy: policy.id, local_vid: 10, remote_vid: 20 });
    expect(rule.display).toBe(`10 -> 20 (policy ${policy.id})`);
    expect(rule.policy).toMatchObject({ id: policy.id, name: policy.name });

    const read = await api.get(`${I}/vlan-translation-policies/${policy.id}/`);
    expect(read.body.rules).toEqual([
      { id: rule.id, url: rule.url, display: rule.display, policy: policy.id, local_vid: 10, remote_vid: 20, description: '' },
    ]);

    const sameLocal = await api.post(`${I}/vlan-translation-rules/`, { policy: policy.id, local_vid: 10, remote_vid: 30 });
    expect(sameLocal.status).toBe(400);
    expect(JSON.stringify(sameLocal.body)).toMatch(/local/i);
    const sameRemote = await api.post(`${I}/vlan-translation-rules/`, { policy: policy.id, local_vid: 11, remote_vid: 20 });
    expect(sameRemote.status).toBe(400);
    expect(JSON.stringify(sameRemote.body)).toMatch(/remote/i);

    expect((await api.delete(`${I}/vlan-translation-policies/${policy.id}/`)).status).toBe(204);
    expect((await api.get(`${I}/vlan-translation-rules/${rule.id}/`)).status).toBe(404);
  });

  it('applies a policy to device and VM interfaces, and refuses to delete a policy in use (PROTECT)', async () => {
    const { api } = app();
    const f = factories(api);
    const policy = await factories(api).vlanTranslationPolicy();
    const port = await f.interface({ vlan_translation_policy: policy.id });
    expect(port.vlan_translation_policy).toMatchObject({ id: policy.id, name: policy.name, description: '' });
    const vmPort = await f.vmInterface({ vlan_translation_policy: policy.id });
    expect(vmPort.vlan_translation_policy).toMatchObject({ id: policy.id });

    const filtered = await api.get(`/api/dcim/interfaces/?vlan_translation_policy_id=${policy.id}`);
    expect(filtered.body.results.map((row: { id: number }) => row.id)).toEqual([port.id]);

    const refused = await api.delete(`${I}/vlan-translation-policies/${policy.id}/`);
    expect(refused.status).toBe(409);
    await api.patch(`/api/dcim/interfaces/${port.id}/`, { vlan_translation_policy: null });
    await api.patch(`/api/virtualization/interfaces/${vmPort.id}/`, { vlan_translation_policy: null });
    expect((await api.delete(`${I}/vlan-translation-policies/${policy.id}/`)).status).toBe(204);

    const graph = await api.post('/graphql/', {
      query: `{ interface(id: ${port.id}) { vlan_translation_policy { id } } }`,
    });
    expect(graph.body).toEqual({ data: { interface: { vlan_translation_policy: null } } });
  });

  it('answers a policy’s rules in GraphQL', async () => {
    const { api } = app();
    const policy = await factories(api).vlanTranslationPolicy();
    const rule = await api.created(`${I}/vlan-translation-rules/`, { policy: policy.id, local_vid: 7, remote_vid: 8 });
    const graph = await api.post('/graphql/', {
      query: `{ vlan_translation_policy(id: ${policy.id}) { name rules { id local_vid remote_vid policy { id } } } }`,
    });
    expect(graph.body).toEqual({
      data: {
        vlan_translation_policy: {
          name: policy.name,
          rules: [{ id: String(rule.id), local_vid: 7, remote_vid: 8, policy: { id: String(policy.id) } }],
        },
      },
    });
  });
});
