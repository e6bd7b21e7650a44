import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';

const V = '/api/virtualization';

/** The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the virtualization models. */
describe('platform virtualization: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${V}/cluster-types/`,
    objectType: 'virtualization.clustertype',
    graphqlName: 'cluster_type',
    create: [
      { name: 'VMware vSphere', slug: 'vmware-vsphere' },
      { name: 'Proxmox', slug: 'proxmox' },
      { name: 'KVM', slug: 'kvm', description: 'libvirt' },
    ],
    update: { description: 'Test Value' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description', 'cluster_count'],
    filters: { 'slug=kvm': [2], 'q=prox': [1] },
    invalid: [{ body: { name: 'Bad' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${V}/cluster-groups/`,
    objectType: 'virtualization.clustergroup',
    graphqlName: 'cluster_group',
    create: [
      { name: 'Production', slug: 'production' },
      { name: 'Staging', slug: 'staging' },
      { name: 'Lab', slug: 'lab', description: 'test' },
    ],
    update: { description: 'Test Value' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description', 'cluster_count'],
    filters: { 'name=Lab': [2] },
    invalid: [{ body: { name: 'Bad', slug: 'b a d' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${V}/clusters/`,
    objectType: 'virtualization.cluster',
    graphqlName: 'cluster',
    fixtures: async ({ factories }) => {
      const site = await factories.site();
      return {
        types: [await factories.clusterType(), await factories.clusterType()],
        group: await factories.clusterGroup(),
        site,
        location: await factories.location({ site: site.id }),
      };
    },
    create: ({ types: [t1, t2], group, site }) => [
      { name: 'cl-1', type: t1.id, group: group.id, scope_type: 'dcim.site', scope_id: site.id },
      { name: 'cl-2', type: t1.id, status: 'planned' },
      { name: 'cl-1', type: t2.id, description: 'same name, no group' },
    ],
    update: { status: 'offline', description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description', 'virtualmachine_count'],
    filters: ({ types: [t1], group, site }) => ({
      [`type_id=${t1.id}`]: [0, 1],
      [`group_id=${group.id}`]: [0],
      [`site_id=${site.id}`]: [0],
      [`site=${site.slug}`]: [0],
      'status=planned': [1],
    }),
    invalid: [
      { body: { name: 'cl-x' }, field: 'type' },
      { body: ({ types: [t1] }) => ({ name: 'cl-x', type: t1.id, scope_type: 'dcim.device', scope_id: 1 }), field: 'scope_type' },
      { body: ({ types: [t1] }) => ({ name: 'cl-x', type: t1.id, status: 'running' }), field: 'status' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/virtual-machines/`,
    objectType: 'virtualization.virtualmachine',
    graphqlName: 'virtual_machine',
    fixtures: async ({ factories }) => ({
      cluster: await factories.cluster(),
      site: await factories.site(),
      role: await factories.deviceRole(),
      platform: await factories.platform(),
    }),
    create: ({ cluster, site, role }) => [
      { name: 'vm-1', cluster: cluster.id, role: role.id, vcpus: 2, memory: 4096, local_context_data: { ntp: ['192.0.2.1'] } },
      { name: 'vm-2', site: site.id, status: 'planned', start_on_boot: 'on' },
      { name: 'VM-1', site: site.id, disk: 20000, description: 'same name, other cluster' },
    ],
    update: { status: 'offline', description: 'Test Value', vcpus: 4.5 },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: ({ cluster, site, role }) => ({
      [`cluster_id=${cluster.id}`]: [0],
      [`site_id=${site.id}`]: [1, 2],
      [`role_id=${role.id}`]: [0],
      'status=planned': [1],
      'name__ie=vm-1': [0, 2],
    }),
    invalid: [
      { body: { name: 'vm-x' }, field: 'cluster' },
      { body: ({ site }) => ({ name: 'vm-x', site: site.id, local_context_data: [1, 2] }), field: 'local_context_data' },
      { body: ({ site }) => ({ name: 'vm-x', site: site.id, vcpus: '0' }), field: 'vcpus' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/interfaces/`,
    objectType: 'virtualization.vminterface',
    graphqlName: 'vm_interface',
    fixtures: async ({ factories }) => ({
      vms: [await factories.virtualMachine(), await factories.virtualMachine()],
      vrf: await factories.vrf(),
      vlans: [await factories.vlan({ vid: 10 }), await factories.vlan({ vid: 20 })],
    }),
    create: ({ vms: [vm1, vm2], vrf, vlans: [v10, v20] }) => [
      { virtual_machine: vm1.id, name: 'eth0', mtu: 9000, mode: 'access', untagged_vlan: v10.id },
      { virtual_machine: vm1.id, name: 'eth1', vrf: vrf.id, mode: 'tagged', tagged_vlans: [v10.id, v20.id] },
      { virtual_machine: vm2.id, name: 'eth0', enabled: false },
    ],
    update: { description: 'Test Value', mtu: 1500 },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'virtual_machine', 'name', 'description'],
    filters: ({ vms: [vm1], vrf }) => ({
      [`virtual_machine_id=${vm1.id}`]: [0, 1],
      'name=eth0': [0, 2],
      [`vrf_id=${vrf.id}`]: [1],
      'enabled=false': [2],
    }),
    invalid: [
      { body: ({ vms: [vm1] }) => ({ virtual_machine: vm1.id, name: 'eth9', mtu: 70000 }), field: 'mtu' },
      { body: { name: 'eth9' }, field: 'virtual_machine' },
      { body: ({ vms: [vm1] }) => ({ virtual_machine: vm1.id, name: 'eth9', mode: 'trunk' }), field: 'mode' },
    ],
  });

  describeResourceApi({
    app,
    path: `${V}/virtual-disks/`,
    objectType: 'virtualization.virtualdisk',
    graphqlName: 'virtual_disk',
    fixtures: async ({ factories }) => ({ vms: [await factories.virtualMachine(), await factories.virtualMachine()] }),
    create: ({ vms: [vm1, vm2] }) => [
      { virtual_machine: vm1.id, name: 'root', size: 20000 },
      { virtual_machine: vm1.id, name: 'data', size: 100000 },
      { virtual_machine: vm2.id, name: 'root', size: 8000, description: 'boot' },
    ],
    update: { size: 40000, description: 'Test Value' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'virtual_machine', 'name', 'description', 'size'],
    filters: ({ vms: [vm1] }) => ({ [`virtual_machine_id=${vm1.id}`]: [0, 1], 'name=root': [0, 2], 'size__gte=20000': [0, 1] }),
    invalid: [
      { body: ({ vms: [vm1] }) => ({ virtual_machine: vm1.id, name: 'swap' }), field: 'size' },
      { body: ({ vms: [vm1] }) => ({ virtual_machine: vm1.id, name: 'swap', size: -1 }), field: 'size' },
    ],
  });
});
