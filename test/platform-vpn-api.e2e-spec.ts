import type { Created } from './support/factories';
import { factories as factoriesOf } from './support/factories';
import { countRows } from './support/platform-client';
import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';

const V = '/api/vpn';

/** The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the VPN models, then their rules. */
describe('platform vpn: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${V}/tunnel-groups/`,
    objectType: 'vpn.tunnelgroup',
    graphqlName: 'tunnel_group',
    create: [
      { name: 'Mesh', slug: 'mesh' },
      { name: 'Hub and spoke', slug: 'hub-and-spoke' },
      { name: 'Branches', slug: 'branches', description: 'remote offices' },
    ],
    update: { description: 'Test Value', comments: 'noted' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'slug=mesh': [0], 'q=remote': [2], 'name=Hub and spoke': [1] },
    invalid: [{ body: { name: 'Bad', slug: 'b a d' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${V}/ike-proposals/`,
    objectType: 'vpn.ikeproposal',
    graphqlName: 'ike_proposal',
    create: [
      { name: 'ike-psk-aes128', authentication_method: 'preshared-keys', encryption_algorithm: 'aes-128-cbc', group: 14 },
      {
        name: 'ike-cert-gcm',
        authentication_method: 'certificates',
        encryption_algorithm: 'aes-256-gcm',
        authentication_algorithm: 'hmac-sha256',
        group: 19,
        sa_lifetime: 28800,
      },
      { name: 'ike-legacy', authentication_method: 'rsa-signatures', encryption_algorithm: '3des-cbc', group: 2, description: 'legacy' },
    ],
    update: { description: 'Test Value', group: 20, authentication_algorithm: 'hmac-sha512' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: {
      'group=19': [1],
      'authentication_method=certificates': [1],
      'encryption_algorithm=3des-cbc': [2],
      'sa_lifetime=28800': [1],
      'q=legacy': [2],
    },
    invalid: [
      { body: { name: 'bad-group', authentication_method: 'certificates', encryption_algorithm: 'aes-128-cbc', group: 3 }, field: 'group' },
      { body: { name: 'no-cipher', authentication_method: 'certificates', group: 14 }, field: 'encryption_algorithm' },
      {
        body: { name: 'bad-method', authentication_method: 'password', encryption_algorithm: 'des-cbc', group: 1 },
        field: 'authentication_method',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/ike-policies/`,
    objectType: 'vpn.ikepolicy',
    graphqlName: 'ike_policy',
    fixtures: async ({ factories }) => ({ proposals: [await factories.ikeProposal(), await factories.ikeProposal()] }),
    create: ({ proposals: [p1, p2] }) => [
      { name: 'ike-v2', version: 2, proposals: [p1.id] },
      { name: 'ike-v1-main', version: 1, mode: 'main', proposals: [p1.id, p2.id], preshared_key: 'correct horse' },
      { name: 'ike-v1-aggressive', version: 1, mode: 'aggressive', description: 'old peers' },
    ],
    update: { description: 'Test Value', preshared_key: 'battery staple' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ proposals: [p1, p2] }) => ({
      'version=1': [1, 2],
      'mode=main': [1],
      [`ike_proposal_id=${p2.id}`]: [1],
      [`ike_proposal=${p1.name}`]: [0, 1],
      'q=old': [2],
    }),
    invalid: [
      { body: { name: 'v1-without-mode', version: 1 }, field: 'non_field_errors' },
      { body: { name: 'v2-with-mode', version: 2, mode: 'main' }, field: 'non_field_errors' },
      { body: { name: 'v3', version: 3 }, field: 'version' },
      { body: { name: 'missing-proposal', proposals: [2_147_483_000] }, field: 'proposals' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/ipsec-proposals/`,
    objectType: 'vpn.ipsecproposal',
    graphqlName: 'ipsec_proposal',
    create: [
      {
        name: 'esp-aes256-sha256',
        encryption_algorithm: 'aes-256-cbc',
        authentication_algorithm: 'hmac-sha256',
        sa_lifetime_seconds: 3600,
      },
      { name: 'esp-gcm', encryption_algorithm: 'aes-128-gcm' },
      { name: 'ah-sha1', authentication_algorithm: 'hmac-sha1', sa_lifetime_data: 100000, description: 'integrity only' },
    ],
    update: { description: 'Test Value', sa_lifetime_data: 4608000 },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: {
      'encryption_algorithm=aes-128-gcm': [1],
      'authentication_algorithm=hmac-sha1': [2],
      'sa_lifetime_seconds=3600': [0],
      'q=integrity': [2],
    },
    invalid: [
      { body: { name: 'no-algorithm' }, field: 'non_field_errors' },
      { body: { name: 'rot13', encryption_algorithm: 'rot13' }, field: 'encryption_algorithm' },
      { body: { name: 'negative', encryption_algorithm: 'des-cbc', sa_lifetime_seconds: -1 }, field: 'sa_lifetime_seconds' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/ipsec-policies/`,
    objectType: 'vpn.ipsecpolicy',
    graphqlName: 'ipsec_policy',
    fixtures: async ({ factories }) => ({ proposals: [await factories.ipsecProposal(), await factories.ipsecProposal()] }),
    create: ({ proposals: [p1, p2] }) => [
      { name: 'ipsec-pfs14', proposals: [p1.id], pfs_group: 14 },
      { name: 'ipsec-no-pfs', proposals: [p1.id, p2.id] },
      { name: 'ipsec-pfs19', pfs_group: 19, description: 'modern' },
    ],
    update: { description: 'Test Value', pfs_group: 21 },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ proposals: [p1, p2] }) => ({
      'pfs_group=14': [0],
      [`ipsec_proposal_id=${p2.id}`]: [1],
      [`ipsec_proposal=${p1.name}`]: [0, 1],
      'q=modern': [2],
    }),
    invalid: [{ body: { name: 'bad-pfs', pfs_group: 3 }, field: 'pfs_group' }],
  });

  describeResourceApi({
    app,
    path: `${V}/ipsec-profiles/`,
    objectType: 'vpn.ipsecprofile',
    graphqlName: 'ipsec_profile',
    fixtures: async ({ factories }) => ({
      ike: [await factories.ikePolicy(), await factories.ikePolicy()],
      ipsec: await factories.ipsecPolicy(),
    }),
    create: ({ ike: [ike1, ike2], ipsec }) => [
      { name: 'profile-esp', mode: 'esp', ike_policy: ike1.id, ipsec_policy: ipsec.id },
      { name: 'profile-ah', mode: 'ah', ike_policy: ike1.id, ipsec_policy: ipsec.id },
      { name: 'profile-other', mode: 'esp', ike_policy: ike2.id, ipsec_policy: ipsec.id, description: 'second site' },
    ],
    update: ({ ike: [, ike2] }) => ({ description: 'Test Value', ike_policy: ike2.id }),
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ ike: [ike1, ike2], ipsec }) => ({
      'mode=ah': [1],
      [`ike_policy_id=${ike1.id}`]: [0, 1],
      [`ike_policy=${ike2.name}`]: [2],
      [`ipsec_policy_id=${ipsec.id}`]: [0, 1, 2],
      'q=second': [2],
    }),
    invalid: [
      { body: ({ ipsec }) => ({ name: 'no-ike', mode: 'esp', ipsec_policy: ipsec.id }), field: 'ike_policy' },
      { body: ({ ike: [ike1], ipsec }) => ({ name: 'gre', mode: 'gre', ike_policy: ike1.id, ipsec_policy: ipsec.id }), field: 'mode' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/tunnels/`,
    objectType: 'vpn.tunnel',
    graphqlName: 'tunnel',
    fixtures: async ({ factories }) => ({
      group: await factories.tunnelGroup(),
      profile: await factories.ipsecProfile(),
      tenant: await factories.tenant(),
    }),
    create: ({ group, profile, tenant }) => [
      { name: 'tun-gre', encapsulation: 'gre', group: group.id, tunnel_id: 100 },
      { name: 'tun-ipsec', encapsulation: 'ipsec-tunnel', ipsec_profile: profile.id, status: 'planned', tenant: tenant.id },
      { name: 'tun-wg', encapsulation: 'wireguard', status: 'disabled', description: 'mesh link', tunnel_id: 2 ** 40 },
    ],
    update: { status: 'disabled', description: 'Test Value', encapsulation: 'ip-ip' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ group, profile, tenant }) => ({
      [`group_id=${group.id}`]: [0],
      [`group=${group.slug}`]: [0],
      'encapsulation=wireguard': [2],
      [`ipsec_profile_id=${profile.id}`]: [1],
      [`ipsec_profile=${profile.name}`]: [1],
      [`tenant_id=${tenant.id}`]: [1],
      'status=planned': [1],
      'tunnel_id=100': [0],
      'q=mesh': [2],
    }),
    invalid: [
      { body: { name: 'no-encapsulation' }, field: 'encapsulation' },
      { body: { name: 'mpls', encapsulation: 'mpls' }, field: 'encapsulation' },
      { body: { name: 'negative-id', encapsulation: 'gre', tunnel_id: -1 }, field: 'tunnel_id' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/tunnel-terminations/`,
    objectType: 'vpn.tunneltermination',
    graphqlName: 'tunnel_termination',
    fixtures: async ({ factories }) => {
      const device = await factories.device();
      return {
        tunnels: [await factories.tunnel(), await factories.tunnel()],
        interfaces: [
          await factories.interface({ device: device.id, type: 'virtual' }),
          await factories.interface({ device: device.id, type: 'virtual' }),
          await factories.interface({ device: device.id, type: 'virtual' }),
        ],
        vmInterface: await factories.vmInterface(),
        outside: await factories.ipAddress({ address: '198.51.100.7/32' }),
      };
    },
    create: ({ tunnels: [t1, t2], interfaces: [i1, i2], vmInterface, outside }) => [
      { tunnel: t1.id, role: 'hub', termination_type: 'dcim.interface', termination_id: i1.id, outside_ip: outside.id },
      { tunnel: t1.id, role: 'spoke', termination_type: 'dcim.interface', termination_id: i2.id },
      { tunnel: t2.id, termination_type: 'virtualization.vminterface', termination_id: vmInterface.id },
    ],
    update: { role: 'peer' },
    brief: ['id', 'url', 'display'],
    filters: ({ tunnels: [t1, t2], interfaces: [i1, i2], vmInterface, outside }) => ({
      [`tunnel_id=${t1.id}`]: [0, 1],
      [`tunnel=${t2.name}`]: [2],
      'role=hub': [0],
      'termination_type=virtualization.vminterface': [2],
      [`interface_id=${i1.id}`]: [0],
      [`interface=${i2.name}`]: [1],
      [`vminterface_id=${vmInterface.id}`]: [2],
      [`outside_ip_id=${outside.id}`]: [0],
    }),
    invalid: [
      {
        body: ({ tunnels: [t1], interfaces: [, , i3] }) => ({
          tunnel: t1.id,
          role: 'leaf',
          termination_type: 'dcim.interface',
          termination_id: i3.id,
        }),
        field: 'role',
      },
      { body: ({ tunnels: [t1] }) => ({ tunnel: t1.id, termination_type: 'dcim.device', termination_id: 1 }), field: 'termination_type' },
      { body: ({ interfaces: [, , i3] }) => ({ termination_type: 'dcim.interface', termination_id: i3.id }), field: 'tunnel' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/l2vpns/`,
    objectType: 'vpn.l2vpn',
    graphqlName: 'l2vpn',
    fixtures: async ({ factories }) => ({
      targets: [await factories.routeTarget(), await factories.routeTarget()],
      tenant: await factories.tenant(),
    }),
    create: ({ targets: [rt1, rt2], tenant }) => [
      {
        name: 'vni-10100',
        slug: 'vni-10100',
        type: 'vxlan-evpn',
        identifier: 10100,
        import_targets: [rt1.id],
        export_targets: [rt1.id, rt2.id],
      },
      { name: 'pw-7', slug: 'pw-7', type: 'vpws', status: 'planned', tenant: tenant.id },
      { name: 'campus', slug: 'campus', type: 'vpls', description: 'campus LAN' },
    ],
    update: { description: 'Test Value', status: 'decommissioning', identifier: 10200 },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'identifier', 'name', 'slug', 'type', 'description'],
    filters: ({ targets: [rt1, rt2], tenant }) => ({
      'type=vpws': [1],
      'status=planned': [1],
      'identifier=10100': [0],
      [`import_target_id=${rt1.id}`]: [0],
      [`export_target=${rt2.name}`]: [0],
      [`tenant_id=${tenant.id}`]: [1],
      'slug=campus': [2],
      'q=campus': [2],
    }),
    invalid: [
      { body: { name: 'no-type', slug: 'no-type' }, field: 'type' },
      { body: { name: 'mpls', slug: 'mpls', type: 'mpls' }, field: 'type' },
      { body: { name: 'Bad', slug: 'b a d', type: 'vpls' }, field: 'slug' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/l2vpn-terminations/`,
    objectType: 'vpn.l2vpntermination',
    graphqlName: 'l2vpn_termination',
    fixtures: async ({ factories }) => {
      const region = await factories.region();
      const site = await factories.site({ region: region.id });
      const device = await factories.device({ site: site.id });
      const vm = await factories.virtualMachine({ site: site.id });
      return {
        region,
        site,
        device,
        vm,
        l2vpns: [await factories.l2vpn({ type: 'vpls' }), await factories.l2vpn({ type: 'evpn-vpws' })],
        interface: await factories.interface({ device: device.id }),
        vlan: await factories.vlan({ vid: 2345, site: site.id }),
        vmInterface: await factories.vmInterface({ virtual_machine: vm.id }),
        spare: await factories.interface(),
      };
    },
    create: ({ l2vpns: [l1], interface: port, vlan, vmInterface }) => [
      { l2vpn: l1.id, assigned_object_type: 'dcim.interface', assigned_object_id: port.id },
      { l2vpn: l1.id, assigned_object_type: 'ipam.vlan', assigned_object_id: vlan.id },
      { l2vpn: l1.id, assigned_object_type: 'virtualization.vminterface', assigned_object_id: vmInterface.id },
    ],
    update: ({ l2vpns: [, l2] }) => ({ l2vpn: l2.id }),
    brief: ['id', 'url', 'display', 'l2vpn'],
    filters: ({ l2vpns: [l1], region, site, device, vm, interface: port, vlan, vmInterface }) => ({
      [`l2vpn_id=${l1.id}`]: [0, 1, 2],
      [`l2vpn=${l1.slug}`]: [0, 1, 2],
      [`site_id=${site.id}`]: [0, 1, 2],
      [`site=${site.slug}`]: [0, 1, 2],
      [`region_id=${region.id}`]: [0, 1, 2],
      [`device_id=${device.id}`]: [0],
      [`device=${device.name}`]: [0],
      [`virtual_machine_id=${vm.id}`]: [2],
      [`interface_id=${port.id}`]: [0],
      [`vminterface_id=${vmInterface.id}`]: [2],
      [`vlan_id=${vlan.id}`]: [1],
      'vlan_vid=2345': [1],
      'assigned_object_type=ipam.vlan': [1],
      [`q=${l1.name}`]: [0, 1, 2],
    }),
    invalid: [
      {
        body: ({ l2vpns: [l1], device }) => ({ l2vpn: l1.id, assigned_object_type: 'dcim.device', assigned_object_id: device.id }),
        field: 'assigned_object_type',
      },
      { body: ({ spare }) => ({ assigned_object_type: 'dcim.interface', assigned_object_id: spare.id }), field: 'l2vpn' },
      {
        body: ({ l2vpns: [l1] }) => ({ l2vpn: l1.id, assigned_object_type: 'dcim.interface', assigned_object_id: 2_147_483_000 }),
        field: 'assigned_object_id',
      },
    ],
  });
});

/** What the declarations cannot say: nested representations, one tunnel per interface, point-to-point limits, delete rules. */
describe('platform vpn: rules', () => {
  const app = usePlatformApp();
  let f: ReturnType<typeof factoriesOf>;
  beforeAll(() => {
    f = factoriesOf(app().api);
  });
  const api = () => app().api;
  const virtualInterface = async () => f.interface({ device: (await f.device()).id, type: 'virtual' });

  it('nests the IPSec profile in a tunnel and the policies in a profile as their brief forms; counts terminations', async () => {
    const profile = await f.ipsecProfile();
    const tunnel = await f.tunnel({ ipsec_profile: profile.id, encapsulation: 'ipsec-transport' });
    await api().created(`${V}/tunnel-terminations/`, {
      tunnel: tunnel.id,
      termination_type: 'dcim.interface',
      termination_id: (await virtualInterface()).id,
    });
    const read = await api().get(`${V}/tunnels/${tunnel.id}/`);
    expect(read.status).toBe(200);
    expect(read.body.ipsec_profile).toEqual({
      id: profile.id,
      url: expect.stringMatching(new RegExp(`/api/vpn/ipsec-profiles/${profile.id}/$`)),
      display: profile.name,
      name: profile.name,
      description: '',
    });
    expect(read.body.terminations_count).toBe(1);
    expect(read.body.encapsulation).toEqual({ value: 'ipsec-transport', label: 'IPsec - Transport' });
    expect(Object.keys(profile.ike_policy).sort()).toEqual(['description', 'display', 'id', 'name', 'url']);
  });

  it('shows a proposal’s DH group and a policy’s version as NetBox’s integer choices', async () => {
    const proposal = await f.ikeProposal({ group: 14 });
    expect(proposal.group).toEqual({ value: 14, label: 'Group 14' });
    const policy = await f.ikePolicy({ proposals: [proposal.id] });
    expect(policy.version).toEqual({ value: 2, label: 'IKEv2' });
    expect(policy.proposals).toEqual([expect.objectContaining({ id: proposal.id, name: proposal.name })]);
  });

  it('terminates an interface on one tunnel only, and shows the termination nested', async () => {
    const port = await virtualInterface();
    const body = (tunnel: Created) => ({ tunnel: tunnel.id, termination_type: 'dcim.interface', termination_id: port.id });
    const first = await api().created(`${V}/tunnel-terminations/`, body(await f.tunnel()));
    expect(first.termination).toEqual(
      expect.objectContaining({ id: port.id, name: port.name, device: expect.objectContaining({ id: port.device.id }) }),
    );
    expect(first.termination_type).toBe('dcim.interface');
    const second = await api().post(`${V}/tunnel-terminations/`, body(await f.tunnel()));
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ termination: ['An object may be terminated to only one tunnel at a time.'] });
  });

  it('refuses a third termination of a point-to-point L2VPN, naming its type', async () => {
    const l2vpn = await f.l2vpn({ type: 'vpws' });
    const terminate = async () =>
      api().post(`${V}/l2vpn-terminations/`, {
        l2vpn: l2vpn.id,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: (await f.interface()).id,
      });
    expect((await terminate()).status).toBe(201);
    expect((await terminate()).status).toBe(201);
    const third = await terminate();
    expect(third.status).toBe(400);
    expect(third.body).toEqual({ non_field_errors: ['VPWS L2VPNs cannot have more than two terminations; found 2 already defined.'] });
    // A multipoint type takes more.
    const vpls = await f.l2vpn({ type: 'vpls' });
    for (let n = 0; n < 3; n++) {
      const port = await f.interface();
      await api().created(`${V}/l2vpn-terminations/`, {
        l2vpn: vpls.id,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: port.id,
      });
    }
  });

  it('assigns an object to one L2VPN only', async () => {
    const vlan = await f.vlan({ vid: 3001 });
    const body = (l2vpn: Created) => ({ l2vpn: l2vpn.id, assigned_object_type: 'ipam.vlan', assigned_object_id: vlan.id });
    const first = await api().created(`${V}/l2vpn-terminations/`, body(await f.l2vpn()));
    expect(first.assigned_object).toEqual(expect.objectContaining({ id: vlan.id, vid: 3001 }));
    const second = await api().post(`${V}/l2vpn-terminations/`, body(await f.l2vpn()));
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ non_field_errors: ['L2VPN Termination already assigned.'] });
  });

  it('deletes terminations with their interface, VLAN or tunnel', async () => {
    const db = app().seeded.db;
    const port = await virtualInterface();
    const tunnel = await f.tunnel();
    const tunnelEnd = await api().created(`${V}/tunnel-terminations/`, {
      tunnel: tunnel.id,
      termination_type: 'dcim.interface',
      termination_id: port.id,
    });
    const l2vpnEnd = await api().created(`${V}/l2vpn-terminations/`, {
      l2vpn: (await f.l2vpn()).id,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: port.id,
    });
    expect((await api().delete(`/api/dcim/interfaces/${port.id}/`)).status).toBe(204);
    expect(await countRows(db, 'vpn_tunneltermination', 'WHERE id = $1', [tunnelEnd.id])).toBe(0);
    expect(await countRows(db, 'vpn_l2vpntermination', 'WHERE id = $1', [l2vpnEnd.id])).toBe(0);

    const vlan = await f.vlan({ vid: 3002 });
    const vlanEnd = await api().created(`${V}/l2vpn-terminations/`, {
      l2vpn: (await f.l2vpn()).id,
      assigned_object_type: 'ipam.vlan',
      assigned_object_id: vlan.id,
    });
    expect((await api().delete(`/api/ipam/vlans/${vlan.id}/`)).status).toBe(204);
    expect(await countRows(db, 'vpn_l2vpntermination', 'WHERE id = $1', [vlanEnd.id])).toBe(0);

    const other = await api().created(`${V}/tunnel-terminations/`, {
      tunnel: tunnel.id,
      termination_type: 'virtualization.vminterface',
      termination_id: (await f.vmInterface()).id,
    });
    expect((await api().delete(`${V}/tunnels/${tunnel.id}/`)).status).toBe(204);
    expect(await countRows(db, 'vpn_tunneltermination', 'WHERE id = $1', [other.id])).toBe(0);
  });

  it('protects what tunnels and profiles use: a group, a profile, its policies, an outside IP (409); a proposal leaves its policy', async () => {
    const group = await f.tunnelGroup();
    const ikeProposal = await f.ikeProposal();
    const ikePolicy = await f.ikePolicy({ proposals: [ikeProposal.id] });
    const profile = await f.ipsecProfile({ ike_policy: ikePolicy.id });
    const tunnel = await f.tunnel({ group: group.id, ipsec_profile: profile.id });
    const outside = await f.ipAddress({ address: '203.0.113.9/32' });
    await api().created(`${V}/tunnel-terminations/`, {
      tunnel: tunnel.id,
      termination_type: 'dcim.interface',
      termination_id: (await virtualInterface()).id,
      outside_ip: outside.id,
    });
    for (const path of [
      `${V}/tunnel-groups/${group.id}/`,
      `${V}/ipsec-profiles/${profile.id}/`,
      `${V}/ike-policies/${ikePolicy.id}/`,
      `${V}/ipsec-policies/${profile.ipsec_policy.id}/`,
      `/api/ipam/ip-addresses/${outside.id}/`,
    ]) {
      expect({ path, status: (await api().delete(path)).status }).toEqual({ path, status: 409 });
    }
    expect((await api().delete(`${V}/ike-proposals/${ikeProposal.id}/`)).status).toBe(204);
    expect((await api().get(`${V}/ike-policies/${ikePolicy.id}/`)).body.proposals).toEqual([]);
  });

  it('lists the vpn app at /api/', async () => {
    const root = await api().get('/api/');
    expect(root.body.vpn).toBe(`${app().base}/api/vpn/`);
  });
});
