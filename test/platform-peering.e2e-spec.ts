import { PASSWORD } from './support/api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const P = '/api/plugins/peering';
const R = '/api/plugins/routing';
const RENDER = `${P}/render-config/`;

const CISCO_TEMPLATE = [
  'router bgp {{ sessions[0].local_asn }}',
  '{% for s in sessions %}',
  ' neighbor {{ s.remote_ip }} remote-as {{ s.peer_asn }}',
  '{% if s.password %} neighbor {{ s.remote_ip }} password {{ s.password }}',
  '{% endif %}',
  '{% endfor %}',
].join('\n');

/**
 * The peering plugin's own rules (the generic model contract is in platform-peering-api.e2e-spec.ts):
 * one session per BGP peer and the peer's protection, `api_endpoint` beside `url`, the read-only
 * `peerdb`, the AS-SET/source pairing, render-config in every form with its errors, and the filters.
 */
describe('platform peering plugin: sessions, IRR sources, fabrics, render-config', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let user: PlatformClient;
  const fx: Record<string, any> = {};
  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    user = root.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
    const site = await root.created('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' });
    const manufacturer = await root.created('/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'ASR9k', slug: 'asr9k' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
    const platform = await root.created('/api/dcim/platforms/', { name: 'IOS-XR', slug: 'iosxr' });
    fx.device = await root.created('/api/dcim/devices/', { name: 'edge1', device_type: deviceType.id, role: role.id, site: site.id, platform: platform.id });
    fx.otherDevice = await root.created('/api/dcim/devices/', { name: 'edge2', device_type: deviceType.id, role: role.id, site: site.id });
    const rir = await root.created('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
    fx.localAsn = await root.created('/api/ipam/asns/', { asn: 64512, rir: rir.id });
    fx.remoteAsn = await root.created('/api/ipam/asns/', { asn: 65001, rir: rir.id, description: 'Example Networks' });
    fx.otherAsn = await root.created('/api/ipam/asns/', { asn: 65002, rir: rir.id });
    fx.peerAsn = await root.created(`${P}/peer-asn/`, { asn: fx.remoteAsn.id, irr_as_set: 'AS-EXAMPLE', ipv4_max_prefixes: 100 });
    const ip = (address: string) => root.created('/api/ipam/ip-addresses/', { address });
    const router = await root.created(`${R}/bgp-routers/`, { device: fx.device.id, asn: fx.localAsn.id });
    const otherRouter = await root.created(`${R}/bgp-routers/`, { device: fx.otherDevice.id, asn: fx.localAsn.id });
    const scope = await root.created(`${R}/bgp-scopes/`, { router: router.id });
    const otherScope = await root.created(`${R}/bgp-scopes/`, { router: otherRouter.id });
    fx.bfd = await root.created(`${R}/bfd-profiles/`, { name: 'fast', min_tx_int: 100, min_rx_int: 100, multiplier: 3 });
    fx.group = await root.created(`${R}/bgp-peer-templates/`, { name: 'IX-PEERS' });
    fx.routeMap = await root.created(`${R}/route-maps/`, { name: 'RM-IX-IN' });
    fx.source = await ip('10.0.0.1/30');
    fx.peer = await root.created(`${R}/bgp-peers/`, {
      scope: scope.id,
      name: 'example',
      peer: (await ip('10.0.0.2/30')).id,
      source: fx.source.id,
      remote_as: fx.remoteAsn.id,
      password: 's3cret',
      bfd_profile: fx.bfd.id,
      peer_group: fx.group.id,
      ttl: 2,
    });
    await root.created(`${R}/bgp-peer-address-families/`, { assigned_peer: fx.peer.id, afi: 'ipv4-unicast', routemap_in: fx.routeMap.id });
    fx.disabledPeer = await root.created(`${R}/bgp-peers/`, { scope: scope.id, name: 'dormant', peer: (await ip('10.0.0.6/30')).id, remote_as: fx.otherAsn.id, enabled: false });
    fx.lonePeer = await root.created(`${R}/bgp-peers/`, { scope: scope.id, name: 'no-session', peer: (await ip('10.0.0.10/30')).id, remote_as: fx.otherAsn.id });
    fx.elsewherePeer = await root.created(`${R}/bgp-peers/`, { scope: otherScope.id, name: 'elsewhere', peer: (await ip('10.0.1.2/30')).id, remote_as: fx.otherAsn.id });
    fx.relationship = await root.created(`${P}/relationship/`, { name: 'Private peering', slug: 'private-peering' });
    fx.session = await root.created(`${P}/peering-session/`, { bgp_peer: fx.peer.id, relationship: fx.relationship.id, service_reference: 'SR-1' });
    fx.disabledSession = await root.created(`${P}/peering-session/`, { bgp_peer: fx.disabledPeer.id });
    fx.elsewhereSession = await root.created(`${P}/peering-session/`, { bgp_peer: fx.elsewherePeer.id });
    fx.template = await root.created('/api/extras/config-templates/', { name: 'cisco-bgp', template_code: CISCO_TEMPLATE, environment_params: { trim_blocks: true } });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('peering sessions', () => {
    it('a BGP peer has at most one session: a second is 400 on bgp_peer, and nothing is written', async () => {
      const before = await count('peering_peeringsession');
      const response = await root.post(`${P}/peering-session/`, { bgp_peer: fx.peer.id, service_reference: 'again' });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['bgp_peer']);
      expect(await count('peering_peeringsession')).toBe(before);
    });

    it('bgp_peer is required', async () => {
      const response = await root.post(`${P}/peering-session/`, { service_reference: 'orphan' });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['bgp_peer']);
    });

    it('a session reads its BGP peer nested, and the created fields back', async () => {
      const response = await root.get(`${P}/peering-session/${fx.session.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ bgp_peer: { id: fx.peer.id, name: 'example' }, relationship: { id: fx.relationship.id }, peering_network: null, service_reference: 'SR-1' });
    });

    it('a BGP peer with a session cannot be deleted (409); once the session is gone it can', async () => {
      const refused = await root.delete(`${R}/bgp-peers/${fx.elsewherePeer.id}/`);
      expect(refused.status).toBe(409);
      expect(await count('routing_bgppeer', 'WHERE id = $1', [fx.elsewherePeer.id])).toBe(1);
      expect((await root.delete(`${P}/peering-session/${fx.elsewhereSession.id}/`)).status).toBe(204);
      expect((await root.delete(`${R}/bgp-peers/${fx.elsewherePeer.id}/`)).status).toBe(204);
    });

    it('deleting a relationship leaves its sessions without one', async () => {
      const relationship = await root.created(`${P}/relationship/`, { name: 'Temporary', slug: 'temporary' });
      await root.patch(`${P}/peering-session/${fx.disabledSession.id}/`, { relationship: relationship.id });
      expect((await root.delete(`${P}/relationship/${relationship.id}/`)).status).toBe(204);
      expect((await root.get(`${P}/peering-session/${fx.disabledSession.id}/`)).body.relationship).toBeNull();
    });
  });

  describe('IRR sources and prefix-list configs', () => {
    it('api_endpoint is the generator URL, written and read; url stays the object link', async () => {
      const source = await root.created(`${P}/irr-source/`, { name: 'RADB', slug: 'radb', api_endpoint: 'https://bgpq.example.net/' });
      expect(source.api_endpoint).toBe('https://bgpq.example.net/');
      expect(source.url).toMatch(new RegExp(`/api/plugins/peering/irr-source/${source.id}/$`));
      const changed = await root.patch(`${P}/irr-source/${source.id}/`, { api_endpoint: 'https://bgpq2.example.net/', url: 'https://ignored.example/' });
      expect(changed.status).toBe(200);
      expect(changed.body.api_endpoint).toBe('https://bgpq2.example.net/');
      expect(changed.body.url).toBe(source.url);
      const [row] = (await seeded.db.query('SELECT url FROM peering_irrsource WHERE id = $1', [source.id])).rows;
      expect(row.url).toBe('https://bgpq2.example.net/');
      expect(changed.body.prefix_list_count).toBe(0);
      fx.irrSource = source;
    });

    it('an AS-SET and its IRR source are set together (400 otherwise), also on PATCH', async () => {
      const list = await root.created(`${R}/prefix-lists/`, { name: 'PL-EXAMPLE', family: 'ipv4' });
      const lonely = await root.post(`${P}/irr-prefix-list-config/`, { prefix_list: list.id, source_as_set: 'AS-EXAMPLE' });
      expect(lonely.status).toBe(400);
      expect(Object.keys(lonely.body)).toEqual(['irr_source']);
      const config = await root.created(`${P}/irr-prefix-list-config/`, { prefix_list: list.id, irr_source: fx.irrSource.id, source_as_set: 'AS-EXAMPLE' });
      const cleared = await root.patch(`${P}/irr-prefix-list-config/${config.id}/`, { source_as_set: '' });
      expect(cleared.status).toBe(400);
      expect(Object.keys(cleared.body)).toEqual(['source_as_set']);
      expect((await root.get(`${P}/irr-source/${fx.irrSource.id}/`)).body.prefix_list_count).toBe(1);
      const duplicate = await root.post(`${P}/irr-prefix-list-config/`, { prefix_list: list.id });
      expect(duplicate.status).toBe(400);
      expect(Object.keys(duplicate.body)).toEqual(['prefix_list']);
    });
  });

  describe('peering fabrics', () => {
    it('peerdb is null for an unlinked fabric, and a written value is ignored', async () => {
      const fabric = await root.created(`${P}/peering-fabric/`, { name: 'LINX', slug: 'linx', peerdb: { ix_id: 18, name: 'forged' } });
      expect(fabric.peerdb).toBeNull();
      const patched = await root.patch(`${P}/peering-fabric/${fabric.id}/`, { peerdb: { ix_id: 18 }, description: 'London' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ peerdb: null, description: 'London' });
      expect(await count('peering_peeringdbfabric', 'WHERE fabric_id = $1', [fabric.id])).toBe(0);
    });

    it('a name is unique within a site and among fabrics without one', async () => {
      await root.created(`${P}/peering-fabric/`, { name: 'NL-IX', slug: 'nl-ix' });
      expect((await root.post(`${P}/peering-fabric/`, { name: 'NL-IX', slug: 'nl-ix-2' })).status).toBe(400);
      const site = await root.created('/api/dcim/sites/', { name: 'RTM1', slug: 'rtm1' });
      expect((await root.post(`${P}/peering-fabric/`, { name: 'NL-IX', slug: 'nl-ix-rtm', site: site.id })).status).toBe(201);
    });
  });

  describe('render-config', () => {
    it('device only: the sessions of the device\'s BGP routers (disabled ones too, peers without a session never), as JSON', async () => {
      const response = await root.post(RENDER, { template: fx.template.id, device: fx.device.id });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body).toMatchObject({
        configtemplate: { id: fx.template.id, name: 'cisco-bgp', display: 'cisco-bgp' },
        device: { id: fx.device.id, name: 'edge1' },
        session_count: 2,
      });
      expect(response.body.configtemplate.url).toMatch(new RegExp(`/api/extras/config-templates/${fx.template.id}/$`));
      expect(response.body.content).toContain('neighbor 10.0.0.2 remote-as 65001');
      expect(response.body.content).toContain('neighbor 10.0.0.2 password s3cret');
      expect(response.body.content).toContain('neighbor 10.0.0.6 remote-as 65002');
      expect(response.body.content).not.toContain('10.0.0.10');
      expect(response.body).not.toHaveProperty('context');
    });

    it('sessions only: exactly those, no device; include_context=true adds the context', async () => {
      const response = await root.post(`${RENDER}?include_context=true`, { template: fx.template.id, sessions: [fx.session.id] });
      expect(response.status).toBe(200);
      expect(response.body.session_count).toBe(1);
      expect(response.body).not.toHaveProperty('device');
      expect(response.body.content).toBe('router bgp 64512\n neighbor 10.0.0.2 remote-as 65001\n neighbor 10.0.0.2 password s3cret\n');
      const { context } = response.body;
      expect(context.device).toBeNull();
      expect(context.prefix_lists).toEqual([]);
      expect(context.communities).toEqual([]);
      expect(context.peer_groups).toEqual([{ id: fx.group.id, name: 'IX-PEERS' }]);
      expect(context.route_maps).toEqual([{ id: fx.routeMap.id, name: 'RM-IX-IN' }]);
      expect(context.sessions).toEqual([
        {
          id: fx.session.id,
          name: 'example',
          description: '',
          status: 'active',
          enabled: true,
          local_asn: 64512,
          peer_asn: 65001,
          local_ip: '10.0.0.1',
          remote_ip: '10.0.0.2',
          password: 's3cret',
          ttl: 2,
          relationship: 'Private peering',
          service_reference: 'SR-1',
          peer_name: 'Example Networks',
          irr_as_set: 'AS-EXAMPLE',
          ipv4_max_prefixes: 100,
          ipv6_max_prefixes: null,
          bfd_profile: { name: 'fast', minimum_interval: 100, minimum_rx_interval: 100, multiplier: 3, hold: null },
          peer_group: { id: fx.group.id, name: 'IX-PEERS' },
          peering_network: null,
          address_families: [{ afi: 'ipv4-unicast', route_map_in: { name: 'RM-IX-IN' } }],
          afi_safis: ['ipv4-unicast'],
        },
      ]);
    });

    it('both: the listed sessions with the device filled in', async () => {
      const response = await root.post(`${RENDER}?include_context=true`, { template: fx.template.id, device: fx.otherDevice.id, sessions: [fx.disabledSession.id] });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ device: { id: fx.otherDevice.id, name: 'edge2' }, session_count: 1 });
      expect(response.body.context.device).toEqual({ id: fx.otherDevice.id, name: 'edge2', platform: null, site: { name: 'AMS1', slug: 'ams1' } });
      expect(response.body.context.sessions.map((session: { id: number }) => session.id)).toEqual([fx.disabledSession.id]);
      expect(response.body.context.sessions[0]).toMatchObject({ enabled: false, password: '', afi_safis: [], peer_name: 'AS65002', irr_as_set: null });
    });

    it('Accept: text/plain answers the rendered text alone', async () => {
      const response = await root.post(RENDER, { template: fx.template.id, sessions: [fx.session.id] }, { accept: 'text/plain' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(response.text).toBe('router bgp 64512\n neighbor 10.0.0.2 remote-as 65001\n neighbor 10.0.0.2 password s3cret\n');
    });

    it('the template filters: as_path_regex, ip_network, group_by, to_community_list, to_prefix_set (cisco and junos)', async () => {
      const code = [
        "{{ 64512 | as_path_regex }}|{{ 64512 | as_path_regex('junos') }}|{{ 64512 | as_path_regex('other') }}",
        "{% set n = '192.0.2.77/26' | ip_network %}{{ n.network }} {{ n.prefix_length }} {{ n.netmask }}",
        "{% set n6 = '2001:db8::1/48' | ip_network %}{{ n6.network }} {{ n6.netmask }}",
        "{% for g in sessions | group_by('peer_asn') %}{{ g.grouper }}:{{ g.list | length }} {% endfor %}",
        "{{ ['65000:1', '65000:2'] | to_community_list('CL-IX') }}",
        "{{ ['65000:1', '65000:2'] | to_community_list('CL-IX', 'junos') }}",
        "{{ ['192.0.2.0/24', {'prefix': '198.51.100.0/24', 'le': 26}, '2001:db8::/32'] | to_prefix_set('PL-IX') }}",
        "{{ ['192.0.2.0/24'] | to_prefix_set('PL-IX', vendor='junos') }}",
      ].join('\n');
      const template = await root.created('/api/extras/config-templates/', { name: 'filters', template_code: code });
      const response = await root.post(RENDER, { template: template.id, device: fx.device.id }, { accept: 'text/plain' });
      expect({ status: response.status, text: response.text }).toEqual({
        status: 200,
        text: [
          '^64512_|^64512 |^64512_',
          '192.0.2.64 26 255.255.255.192',
          '2001:db8:: ffff:ffff:ffff::',
          '65001:1 65002:1 ',
          'ip community-list standard CL-IX permit 65000:1\nip community-list standard CL-IX permit 65000:2',
          'policy-options {\n    community CL-IX members [ 65000:1 65000:2 ];\n}',
          'ip prefix-list PL-IX seq 10 permit 192.0.2.0/24\nip prefix-list PL-IX seq 20 permit 198.51.100.0/24 le 26\nipv6 prefix-list PL-IX seq 30 permit 2001:db8::/32',
          'prefix-list PL-IX {\n    192.0.2.0/24;\n}',
        ].join('\n'),
      });
    });

    it('400 for an unknown template, device or session, for neither device nor sessions, or without a template', async () => {
      const cases: Array<[unknown, string[]]> = [
        [{ template: 999999, device: fx.device.id }, ['template']],
        [{ template: fx.template.id, device: 999999 }, ['device']],
        [{ template: fx.template.id, sessions: [fx.session.id, 999999] }, ['sessions']],
        [{ template: fx.template.id }, ['non_field_errors']],
        [{ device: fx.device.id }, ['template']],
        [{ template: 'x', sessions: 'all' }, ['template', 'sessions']],
      ];
      for (const [body, fields] of cases) {
        const response = await root.post(RENDER, body);
        expect({ body, status: response.status, fields: Object.keys(response.body).sort() }).toEqual({ body, status: 400, fields: [...fields].sort() });
      }
    });

    it('403 without credentials or with a bad token', async () => {
      expect((await root.as(undefined).post(RENDER, { template: fx.template.id, device: fx.device.id })).status).toBe(403);
      expect((await root.as('0'.repeat(40)).post(RENDER, { template: fx.template.id, device: fx.device.id })).status).toBe(403);
    });

    it('by default any authenticated caller renders, without any object permission (the output holds BGP passwords)', async () => {
      const response = await user.post(RENDER, { template: fx.template.id, sessions: [fx.session.id] });
      expect(response.status).toBe(200);
      expect(response.body.content).toContain('password s3cret');
    });

    it('500 with the engine\'s message when the template fails: in detail (JSON), as the body (text)', async () => {
      const broken = await root.created('/api/extras/config-templates/', { name: 'broken', template_code: 'hostname {{ device.name }}\n{{ sessions | nosuchfilter }}' });
      const json = await root.post(RENDER, { template: broken.id, device: fx.device.id });
      expect(json.status).toBe(500);
      expect(json.body.detail).toMatch(/unknown filter "nosuchfilter"/);
      const text = await root.post(RENDER, { template: broken.id, device: fx.device.id }, { accept: 'text/plain' });
      expect(text.status).toBe(500);
      expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(text.text).toBe(json.body.detail);
    });
  });

  describe('render-config with PLUGIN_PEERING_RENDER_CONFIG_REQUIRES_VIEW=true', () => {
    let strict: Awaited<ReturnType<typeof startPlatformApp>>;
    afterAll(async () => {
      await strict?.seeded.db.end();
      await strict?.seeded.testApp.close();
    });

    it('also requires view permission on the template, the device and the sessions (403 otherwise)', async () => {
      strict = await startPlatformApp({ PLUGIN_PEERING_RENDER_CONFIG_REQUIRES_VIEW: 'true' });
      const { api, seeded: s } = strict;
      const member = api.as(await provisionToken(s.api, s.w.user1.username, PASSWORD));
      const template = await api.created('/api/extras/config-templates/', { name: 't', template_code: '{{ sessions | length }}' });
      const site = await api.created('/api/dcim/sites/', { name: 'S', slug: 's' });
      const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'M', slug: 'm' });
      const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'T', slug: 't' });
      const role = await api.created('/api/dcim/device-roles/', { name: 'R', slug: 'r' });
      const device = await api.created('/api/dcim/devices/', { name: 'd', device_type: deviceType.id, role: role.id, site: site.id });
      const body = { template: template.id, device: device.id };
      expect((await member.post(RENDER, body)).status).toBe(403);
      await api.created('/api/users/permissions/', { name: 'templates', object_types: ['extras.configtemplate'], actions: ['view'], users: [s.w.user1.id] });
      expect((await member.post(RENDER, body)).body.detail).toMatch(/device/);
      await api.created('/api/users/permissions/', { name: 'devices', object_types: ['dcim.device'], actions: ['view'], users: [s.w.user1.id] });
      const allowed = await member.post(RENDER, body);
      expect({ status: allowed.status, content: allowed.body.content }).toEqual({ status: 200, content: '0' });
      expect((await api.post(RENDER, body)).status).toBe(200);
    });
  });
});
