import { describeResourceApi, usePlatformApp } from './support/resource-api-kit';

const W = '/api/wireless';

/** The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of the wireless models. */
describe('platform wireless: the REST and GraphQL contract of each model', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${W}/wireless-lan-groups/`,
    objectType: 'wireless.wirelesslangroup',
    graphqlName: 'wireless_lan_group',
    create: [
      { name: 'Campus', slug: 'campus' },
      { name: 'Guest', slug: 'guest' },
      { name: 'Office', slug: 'office', description: 'staff' },
    ],
    update: { description: 'Test Value' },
    bulkUpdate: { comments: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'description'],
    filters: { 'slug=guest': [1], 'q=staff': [2] },
    invalid: [{ body: { name: 'Bad', slug: 'b a d' }, field: 'slug' }],
  });

  describeResourceApi({
    app,
    path: `${W}/wireless-lans/`,
    objectType: 'wireless.wirelesslan',
    graphqlName: 'wireless_lan',
    fixtures: async ({ factories, api }) => ({
      group: await api.created(`${W}/wireless-lan-groups/`, { name: 'wlan-fixture', slug: 'wlan-fixture' }),
      site: await factories.site(),
      vlan: await factories.vlan({ vid: 300 }),
    }),
    create: ({ group, site, vlan }) => [
      { ssid: 'corp', group: group.id, auth_type: 'wpa-enterprise', auth_cipher: 'aes', scope_type: 'dcim.site', scope_id: site.id },
      { ssid: 'guest', status: 'reserved', vlan: vlan.id, auth_type: 'wpa-personal', auth_psk: 'correct horse' },
      { ssid: 'iot', status: 'disabled', description: 'things' },
    ],
    update: { description: 'Test Value', status: 'deprecated' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'ssid', 'description'],
    filters: ({ group, vlan }) => ({
      [`group_id=${group.id}`]: [0],
      [`vlan_id=${vlan.id}`]: [1],
      'status=disabled': [2],
      'auth_type=wpa-enterprise': [0],
    }),
    invalid: [
      { body: { ssid: 'x'.repeat(33) }, field: 'ssid' },
      { body: { ssid: 'bad', auth_cipher: 'des' }, field: 'auth_cipher' },
      { body: { ssid: 'bad', scope_type: 'dcim.device', scope_id: 1 }, field: 'scope_type' },
    ],
  });

  describeResourceApi({
    app,
    path: `${W}/wireless-links/`,
    objectType: 'wireless.wirelesslink',
    graphqlName: 'wireless_link',
    fixtures: async ({ factories }) => {
      const [d1, d2] = [await factories.device(), await factories.device()];
      const radio = (device: { id: number }) => factories.interface({ device: device.id, type: 'ieee802.11ac' });
      return {
        devices: [d1, d2],
        radios: [await radio(d1), await radio(d2), await radio(d1), await radio(d2)],
        wired: await factories.interface({ device: d1.id, type: '1000base-t' }),
      };
    },
    create: ({ radios: [a1, b1, a2, b2] }) => [
      { interface_a: a1.id, interface_b: b1.id, ssid: 'ptp-1', distance: 1.5, distance_unit: 'km' },
      { interface_a: a2.id, interface_b: b2.id, status: 'planned' },
      { interface_a: a1.id, interface_b: b2.id, auth_type: 'wpa-personal', auth_psk: 'secret' },
    ],
    update: { ssid: 'Test Value', status: 'decommissioning' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'ssid', 'description'],
    filters: ({ devices: [d1], radios: [a1] }) => ({
      [`interface_a_id=${a1.id}`]: [0, 2],
      'status=planned': [1],
      [`device_id=${d1.id}`]: [0, 1, 2],
      'ssid=ptp-1': [0],
    }),
    invalid: [
      { body: ({ radios: [a1], wired }) => ({ interface_a: a1.id, interface_b: wired.id }), field: 'interface_b' },
      { body: ({ radios: [a1, b1] }) => ({ interface_a: a1.id, interface_b: b1.id, distance: 3 }), field: 'distance_unit' },
      { body: ({ radios: [a1] }) => ({ interface_a: a1.id, interface_b: a1.id }), field: 'interface_b' },
    ],
  });
});
