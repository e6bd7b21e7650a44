import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { JobQueue } from '../../../common/jobs/job-queue';
import { JobWorker } from '../../../common/jobs/job-worker';
import { enqueueDueSyncs, IRR_SYNC_ALL_QUEUE, IRR_SYNC_QUEUE } from '../irr-sync';
import { jobOfArguments } from '../peering-sync.command';
import { PEERINGDB_SYNC_QUEUE } from '../peeringdb-sync';
import { PASSWORD } from '../../../../test/support/api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';
import { SETUP_HOOK_TIMEOUT_MS } from '../../../../test/support/timing';

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
 * The peering plugin's own rules (the generic model contract is in peering-api.e2e-spec.ts):
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
    // The stub IRR generators listen on loopback, which the egress policy refuses unless it is listed.
    ({ seeded, api: root } = await startPlatformApp({ EGRESS_ALLOW: '127.0.0.1', PLUGIN_PEERING_IRR_MAX_RESPONSE_BYTES: '4096' }));
    user = root.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
    const site = await root.created('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' });
    const manufacturer = await root.created('/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'ASR9k', slug: 'asr9k' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
    const platform = await root.created('/api/dcim/platforms/', { name: 'IOS-XR', slug: 'iosxr' });
    fx.device = await root.created('/api/dcim/devices/', {
      name: 'edge1',
      device_type: deviceType.id,
      role: role.id,
      site: site.id,
      platform: platform.id,
    });
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
    fx.disabledPeer = await root.created(`${R}/bgp-peers/`, {
      scope: scope.id,
      name: 'dormant',
      peer: (await ip('10.0.0.6/30')).id,
      remote_as: fx.otherAsn.id,
      enabled: false,
    });
    fx.lonePeer = await root.created(`${R}/bgp-peers/`, {
      scope: scope.id,
      name: 'no-session',
      peer: (await ip('10.0.0.10/30')).id,
      remote_as: fx.otherAsn.id,
    });
    fx.elsewherePeer = await root.created(`${R}/bgp-peers/`, {
      scope: otherScope.id,
      name: 'elsewhere',
      peer: (await ip('10.0.1.2/30')).id,
      remote_as: fx.otherAsn.id,
    });
    fx.relationship = await root.created(`${P}/relationship/`, { name: 'Private peering', slug: 'private-peering' });
    fx.session = await root.created(`${P}/peering-session/`, {
      bgp_peer: fx.peer.id,
      relationship: fx.relationship.id,
      service_reference: 'SR-1',
    });
    fx.disabledSession = await root.created(`${P}/peering-session/`, { bgp_peer: fx.disabledPeer.id });
    fx.elsewhereSession = await root.created(`${P}/peering-session/`, { bgp_peer: fx.elsewherePeer.id });
    fx.template = await root.created('/api/extras/config-templates/', {
      name: 'cisco-bgp',
      template_code: CISCO_TEMPLATE,
      environment_params: { trim_blocks: true },
    });
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
      expect(response.body).toMatchObject({
        bgp_peer: { id: fx.peer.id, name: 'example' },
        relationship: { id: fx.relationship.id },
        peering_network: null,
        service_reference: 'SR-1',
      });
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
      const changed = await root.patch(`${P}/irr-source/${source.id}/`, {
        api_endpoint: 'https://bgpq2.example.net/',
        url: 'https://ignored.example/',
      });
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
      const config = await root.created(`${P}/irr-prefix-list-config/`, {
        prefix_list: list.id,
        irr_source: fx.irrSource.id,
        source_as_set: 'AS-EXAMPLE',
      });
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
    it("device only: the sessions of the device's BGP routers (disabled ones too, peers without a session never), as JSON", async () => {
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
      expect(context.route_maps).toEqual([{ id: fx.routeMap.id, name: 'RM-IX-IN', entries: [] }]);
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

    it("the sessions' route maps carry their entries; the prefix lists and communities they and the address families name are listed", async () => {
      const blackhole = await root.created(`${R}/communities/`, { community: '65001:666', name: 'BLACKHOLE' });
      const customers = await root.created(`${R}/communities/`, { community: '65001:100' });
      await root.created(`${R}/communities/`, { community: '65001:999', description: 'named by nothing rendered' });
      const communityList = await root.created(`${R}/community-lists/`, { name: 'CL-IX' });
      await root.created(`${R}/community-list-entries/`, { community_list: communityList.id, action: 'permit', community: customers.id });
      const bogons = await root.created(`${R}/prefix-lists/`, { name: 'PL-BOGONS', family: 'ipv4' });
      await root.created(`${R}/prefix-list-entries/`, {
        prefix_list: bogons.id,
        sequence: 5,
        action: 'deny',
        prefix: '10.0.0.0/8',
        le: 32,
      });
      const entries = [
        await root.created(`${R}/route-map-entries/`, {
          route_map: fx.routeMap.id,
          sequence: 10,
          action: 'deny',
          match_prefix_list: [bogons.id],
        }),
        await root.created(`${R}/route-map-entries/`, {
          route_map: fx.routeMap.id,
          sequence: 20,
          action: 'permit',
          match_community: [blackhole.id],
          match_community_list: [communityList.id],
          set: { local_preference: 50 },
        }),
      ];
      const template = await root.created('/api/extras/config-templates/', {
        name: 'policies',
        template_code:
          '{% for rm in route_maps %}{% for e in rm.entries %}route-map {{ rm.name }} {{ e.action }} {{ e.sequence }}\n{% endfor %}{% endfor %}' +
          '{{ communities | to_community_list("CL-ALL") }}\n{% for pl in prefix_lists %}{{ pl.entries | to_prefix_set(pl.name) }}{% endfor %}',
      });
      const response = await root.post(`${RENDER}?include_context=true`, { template: template.id, sessions: [fx.session.id] });
      expect(response.status).toBe(200);
      expect(response.body.content).toBe(
        'route-map RM-IX-IN deny 10\nroute-map RM-IX-IN permit 20\n' +
          'ip community-list standard CL-ALL permit 65001:100\nip community-list standard CL-ALL permit 65001:666\n' +
          'ip prefix-list PL-BOGONS seq 10 permit 10.0.0.0/8 le 32',
      );
      const { context } = response.body;
      const matches = { match_prefix_list: [], match_community_list: [], match_community: [], match_aspath: [] };
      expect(context.route_maps).toEqual([
        {
          id: fx.routeMap.id,
          name: 'RM-IX-IN',
          entries: [
            { sequence: 10, action: 'deny', flow_control: null, ...matches, match_prefix_list: ['PL-BOGONS'], match: null, set: null },
            {
              sequence: 20,
              action: 'permit',
              flow_control: null,
              ...matches,
              match_community_list: ['CL-IX'],
              match_community: ['65001:666'],
              match: null,
              set: { local_preference: 50 },
            },
          ],
        },
      ]);
      expect(context.communities).toEqual([
        { id: customers.id, name: '', community: '65001:100', status: 'active' },
        { id: blackhole.id, name: 'BLACKHOLE', community: '65001:666', status: 'active' },
      ]);
      expect(context.prefix_lists).toEqual([
        {
          id: bogons.id,
          name: 'PL-BOGONS',
          family: 'ipv4',
          entries: [{ sequence: 5, action: 'deny', prefix: '10.0.0.0/8', ge: null, le: 32 }],
        },
      ]);
      for (const entry of entries) expect((await root.delete(`${R}/route-map-entries/${entry.id}/`)).status).toBe(204);
    });

    it('both: the listed sessions with the device filled in', async () => {
      const response = await root.post(`${RENDER}?include_context=true`, {
        template: fx.template.id,
        device: fx.otherDevice.id,
        sessions: [fx.disabledSession.id],
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ device: { id: fx.otherDevice.id, name: 'edge2' }, session_count: 1 });
      expect(response.body.context.device).toEqual({
        id: fx.otherDevice.id,
        name: 'edge2',
        platform: null,
        site: { name: 'AMS1', slug: 'ams1' },
      });
      expect(response.body.context.sessions.map((session: { id: number }) => session.id)).toEqual([fx.disabledSession.id]);
      expect(response.body.context.sessions[0]).toMatchObject({
        enabled: false,
        password: '',
        afi_safis: [],
        peer_name: 'AS65002',
        irr_as_set: null,
      });
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
        expect({ body, status: response.status, fields: Object.keys(response.body).sort() }).toEqual({
          body,
          status: 400,
          fields: [...fields].sort(),
        });
      }
    });

    it('403 without credentials or with a bad token', async () => {
      expect((await root.as(undefined).post(RENDER, { template: fx.template.id, device: fx.device.id })).status).toBe(403);
      expect((await root.as('0'.repeat(40)).post(RENDER, { template: fx.template.id, device: fx.device.id })).status).toBe(403);
    });

    it('a caller without view permission renders nothing: the template and sessions it may not view are unknown ids to it', async () => {
      const response = await user.post(RENDER, { template: fx.template.id, sessions: [fx.session.id] });
      expect({ status: response.status, fields: Object.keys(response.body).sort() }).toEqual({
        status: 400,
        fields: ['sessions', 'template'],
      });
      expect(response.text).not.toContain('s3cret');
    });

    it("500 with the engine's message when the template fails: in detail (JSON), as the body (text)", async () => {
      const broken = await root.created('/api/extras/config-templates/', {
        name: 'broken',
        template_code: 'hostname {{ device.name }}\n{{ sessions | nosuchfilter }}',
      });
      const json = await root.post(RENDER, { template: broken.id, device: fx.device.id });
      expect(json.status).toBe(500);
      expect(json.body.detail).toMatch(/unknown filter "nosuchfilter"/);
      const text = await root.post(RENDER, { template: broken.id, device: fx.device.id }, { accept: 'text/plain' });
      expect(text.status).toBe(500);
      expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(text.text).toBe(json.body.detail);
    });
  });

  describe('synchronisation jobs (not exposed through the API)', () => {
    /** Enqueues a job (one attempt) and works the queue until it has run; its row. */
    async function runJob(
      queue: string,
      payload: Record<string, unknown>,
    ): Promise<{ status: string; attempts: number; last_error: string | null }> {
      const { app } = seeded.testApp;
      const dataSource = app.get(DataSource);
      const id = await dataSource.transaction((manager) => app.get(JobQueue).enqueue(manager, queue, payload, { maxAttempts: 1 })); // a failure is final: no retry races the next case
      for (let waited = 0; waited < 20_000; waited += 100) {
        await app.get(JobWorker).drain();
        const [job] = (await seeded.db.query('SELECT status, attempts, last_error FROM jobs WHERE id = $1', [id])).rows;
        if (job.status === 'succeeded' || job.status === 'failed' || (job.status === 'pending' && job.attempts > 0)) return job;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`job ${id} of ${queue} did not run`);
    }

    it('the command line enqueues the live PeeringDB synchronisation, the export read from --file, or the IRR sync-all', () => {
      const files: Record<string, string> = { 'dump.json': '{"ix": {"data": []}}', 'bad.json': '[1]' };
      const read = (path: string) =>
        files[path] ??
        (() => {
          throw new Error('ENOENT');
        })();
      expect(jobOfArguments(['peeringdb', '--file', 'dump.json'], read)).toEqual({
        queue: PEERINGDB_SYNC_QUEUE,
        payload: { export: { ix: { data: [] } } },
      });
      expect(jobOfArguments(['peeringdb', '--file', 'bad.json'], read)).toHaveProperty('problem');
      expect(jobOfArguments(['peeringdb', '--file', 'missing.json'], read)).toHaveProperty('problem');
      expect(jobOfArguments(['peeringdb'], read)).toHaveProperty('problem');
      expect(jobOfArguments(['peeringdb', '--live'], read)).toEqual({ queue: PEERINGDB_SYNC_QUEUE, payload: { live: true } });
      expect(jobOfArguments(['peeringdb', '--live', '--file', 'dump.json'], read)).toHaveProperty('problem');
      expect(jobOfArguments(['irr', '--all'], read)).toEqual({ queue: IRR_SYNC_ALL_QUEUE, payload: { all: true } });
    });

    it('a PeeringDB export fills the fabric, network and peer caches, updates peer ASNs, and peerdb shows the record', async () => {
      const linx = (await root.get(`${P}/peering-fabric/?name=LINX`)).body.results[0];
      expect(linx.peerdb).toBeNull();
      const dump = {
        ix: {
          data: [
            { id: 18, name: 'LINX', city: 'London', country: 'GB', website: 'https://www.linx.net/', tech_email: 'ops@linx.example' },
            { id: 26, name: 'AMS-IX Example', city: 'Amsterdam', country: 'NL', website: '', tech_email: '' },
          ],
        },
        ixlan: {
          data: [
            { id: 18, ix_id: 18, name: 'LON1', mtu: 1500, rs_asn: 8714, dot1q_support: false },
            { id: 26, ix_id: 26, mtu: 9000 },
          ],
        },
        ixpfx: {
          data: [
            { id: 1, ixlan_id: 18, prefix: '195.66.224.0/22' },
            { id: 2, ixlan_id: 18, prefix: '2001:7f8:4::/64' },
          ],
        },
        netixlan: {
          data: [
            {
              id: 501,
              ixlan_id: 18,
              asn: 65001,
              name: 'Example Networks',
              ipaddr4: '195.66.224.10',
              ipaddr6: null,
              is_rs_peer: true,
              speed: 10000,
            },
            { id: 502, ixlan_id: 18, asn: 65099, ipaddr4: null, ipaddr6: '2001:7f8:4::99', speed: 100000 },
            { id: 503, ixlan_id: 18, asn: 65098, ipaddr4: null, ipaddr6: null },
          ],
        },
        net: {
          data: [
            { id: 1234, asn: 65001, info_prefixes4: 250, info_prefixes6: 50, irr_as_set: 'AS-EXAMPLE-PDB' },
            { id: 9999, asn: 65099, info_prefixes4: 1 },
          ],
        },
      };
      expect(await runJob(PEERINGDB_SYNC_QUEUE, { export: dump })).toMatchObject({ status: 'succeeded' });

      const linked = (await root.get(`${P}/peering-fabric/${linx.id}/`)).body;
      expect(linked.peerdb).toEqual({
        ix_id: 18,
        name: 'LINX',
        city: 'London',
        country: 'GB',
        website: 'https://www.linx.net/',
        tech_email: 'ops@linx.example',
        last_sync: expect.any(String),
      });
      const created = (await root.get(`${P}/peering-fabric/?q=AMS-IX Example`)).body.results;
      expect(created.map((fabric: any) => fabric.peerdb?.ix_id)).toEqual([26]);
      const network = (await root.get(`${P}/peering-network/?fabric_id=${linx.id}`)).body.results;
      expect(network.map((n: any) => [n.name, n.prefix.display])).toEqual([['IXLAN-18', '195.66.224.0/22']]);
      expect(await count('peering_peeringdbnetwork', 'WHERE ixlan_id = 18 AND rs_asn = 8714')).toBe(1);
      expect(await count('peering_peeringdbpeer', 'WHERE fabric_id = $1', [linx.id])).toBe(2);
      expect(await count('peering_peeringdbnetwork', 'WHERE ixlan_id = 26')).toBe(0); // no prefix, no network
      const peer = (await root.get(`${P}/peer-asn/${fx.peerAsn.id}/`)).body;
      expect(peer).toMatchObject({ peeringdb_id: 1234, ipv4_max_prefixes: 250, ipv6_max_prefixes: 50, irr_as_set: 'AS-EXAMPLE-PDB' });
      expect(peer.peeringdb_last_sync).toEqual(expect.any(String));
      expect(await count('peering_peerasn')).toBe(1); // peer ASNs are updated, never created

      // Again: the same objects, updated, and the peer cache replaced.
      dump.netixlan.data = dump.netixlan.data.slice(0, 1);
      expect(await runJob(PEERINGDB_SYNC_QUEUE, { export: dump })).toMatchObject({ status: 'succeeded' });
      expect(await count('peering_peeringnetwork', 'WHERE fabric_id = $1', [linx.id])).toBe(1);
      expect(await count('peering_peeringdbpeer', 'WHERE fabric_id = $1', [linx.id])).toBe(1);
      expect(await count('peering_peeringdbfabric')).toBe(2);

      // Deleting the network's fabric takes its PeeringDB data with it.
      expect((await root.delete(`${P}/peering-fabric/${created[0].id}/`)).status).toBe(204);
      expect(await count('peering_peeringdbfabric', 'WHERE ix_id = 26')).toBe(0);
    });

    describe('IRR', () => {
      let stub: Server;
      let answer: { status: number; body: unknown; headers?: Record<string, string> };
      const requests: string[] = [];
      const entries = async (listId: number) =>
        (
          await seeded.db.query(
            'SELECT sequence::int, action, prefix::text, ge, le FROM routing_prefixlistentry WHERE prefix_list_id = $1 ORDER BY sequence',
            [listId],
          )
        ).rows;

      beforeAll(async () => {
        stub = createServer((request, response) => {
          requests.push(request.url ?? '');
          // Where the redirect test points: a valid answer, which following the redirect would apply.
          if (request.url?.startsWith('/elsewhere')) {
            response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ prefixes: ['192.0.2.128/25'] }));
            return;
          }
          response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          response.end(JSON.stringify(answer.body));
        });
        await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
        const { port } = stub.address() as AddressInfo;
        fx.stubSource = await root.created(`${P}/irr-source/`, {
          name: 'Stub',
          slug: 'stub',
          api_endpoint: `http://127.0.0.1:${port}/prefixes`,
          sources: 'RIPE,RADB',
        });
        fx.stubList = await root.created(`${R}/prefix-lists/`, { name: 'PL-AS-EXAMPLE', family: 'ipv4' });
        for (const [sequence, prefix] of [
          [5, '10.10.0.0/16'],
          [10, '10.20.0.0/16'],
        ] as const) {
          await root.created(`${R}/prefix-list-entries/`, { prefix_list: fx.stubList.id, sequence, action: 'deny', prefix, le: 24 });
        }
        fx.stubConfig = await root.created(`${P}/irr-prefix-list-config/`, {
          prefix_list: fx.stubList.id,
          irr_source: fx.stubSource.id,
          source_as_set: 'AS-EXAMPLE',
        });
      });

      afterAll(async () => {
        await new Promise((resolve) => stub?.close(resolve));
      });

      it("the generator's prefixes replace the list's entries: permit, numbered 1..n, no ge/le", async () => {
        answer = { status: 200, body: { prefixes: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'] } };
        expect(await runJob(IRR_SYNC_QUEUE, { config_id: fx.stubConfig.id })).toMatchObject({ status: 'succeeded' });
        expect(requests.at(-1)).toBe('/prefixes?as_set=AS-EXAMPLE&family=ipv4&sources=RIPE%2CRADB');
        expect(await entries(fx.stubList.id)).toEqual([
          { sequence: 1, action: 'permit', prefix: '192.0.2.0/24', ge: null, le: null },
          { sequence: 2, action: 'permit', prefix: '198.51.100.0/24', ge: null, le: null },
          { sequence: 3, action: 'permit', prefix: '203.0.113.0/24', ge: null, le: null },
        ]);
        expect((await root.get(`${P}/irr-prefix-list-config/${fx.stubConfig.id}/`)).body.last_synced).toEqual(expect.any(String));
        // The replaced entries and the new ones are in the change log: the job as the user, one request id for the run.
        const changes = (await root.get('/api/core/object-changes/?user_name=peering.irr-sync&ordering=id&limit=50')).body.results;
        expect(
          changes.map((change: any) => [change.changed_object_type, change.action.value ?? change.action, change.object_repr]),
        ).toEqual([
          ['routing.prefixlistentry', 'delete', '5 deny 10.10.0.0/16'],
          ['routing.prefixlistentry', 'delete', '10 deny 10.20.0.0/16'],
          ['routing.prefixlistentry', 'create', '1 permit 192.0.2.0/24'],
          ['routing.prefixlistentry', 'create', '2 permit 198.51.100.0/24'],
          ['routing.prefixlistentry', 'create', '3 permit 203.0.113.0/24'],
        ]);
        expect(new Set(changes.map((change: any) => change.request_id)).size).toBe(1);
        expect(changes.every((change: any) => change.user === null)).toBe(true);
        expect(changes[0]).toMatchObject({ prechange_data: { sequence: 5, prefix: '10.10.0.0/16', le: 24 }, postchange_data: null });
        expect(changes[4]).toMatchObject({ prechange_data: null, postchange_data: { sequence: 3, prefix: '203.0.113.0/24', ge: null } });
        const [{ counts }] = (await seeded.db.query(`SELECT counts FROM peering_syncrun WHERE kind = 'irr' ORDER BY finished DESC LIMIT 1`))
          .rows;
        expect(counts).toMatchObject({ deleted_entries: 2, created_entries: 3, changes: 5 });
      });

      it('a failing generator, a bad answer or a disabled source leave the old entries', async () => {
        const before = await entries(fx.stubList.id);
        answer = { status: 500, body: { error: 'bgpq4 failed' } };
        const failed = await runJob(IRR_SYNC_QUEUE, { config_id: fx.stubConfig.id });
        expect(failed.last_error).toMatch(/answered 500/);
        answer = { status: 200, body: { prefixes: ['192.0.2.0/24', '2001:db8::/32'] } };
        expect((await runJob(IRR_SYNC_QUEUE, { config_id: fx.stubConfig.id })).last_error).toMatch(/not of the prefix list's family ipv4/);
        answer = { status: 200, body: { prefixes: ['not a prefix'] } };
        expect((await runJob(IRR_SYNC_QUEUE, { config_id: fx.stubConfig.id })).last_error).toMatch(/invalid prefix/);
        await root.patch(`${P}/irr-source/${fx.stubSource.id}/`, { enabled: false });
        answer = { status: 200, body: { prefixes: ['192.0.2.0/25'] } };
        expect((await runJob(IRR_SYNC_QUEUE, { config_id: fx.stubConfig.id })).last_error).toMatch(/disabled/);
        await root.patch(`${P}/irr-source/${fx.stubSource.id}/`, { enabled: true });
        expect(await entries(fx.stubList.id)).toEqual(before);
      });

      it('does not follow a redirect from the generator: the job fails and the list keeps its entries', async () => {
        const before = await entries(fx.stubList.id);
        const { port } = stub.address() as AddressInfo;
        answer = { status: 302, body: {}, headers: { location: `http://127.0.0.1:${port}/elsewhere` } };
        const job = await runJob(IRR_SYNC_QUEUE, { config_id: fx.stubConfig.id });
        expect(job.last_error).toMatch(/IRR generator answered 302/);
        expect(requests.filter((url) => url.startsWith('/elsewhere'))).toEqual([]);
        expect(await entries(fx.stubList.id)).toEqual(before);
      });

      it('refuses an answer over PLUGIN_PEERING_IRR_MAX_RESPONSE_BYTES: the job fails and the list keeps its entries', async () => {
        const before = await entries(fx.stubList.id);
        // About 7 KB of valid prefixes, over this app's limit of 4096 bytes.
        answer = { status: 200, body: { prefixes: Array.from({ length: 400 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`) } };
        const job = await runJob(IRR_SYNC_QUEUE, { config_id: fx.stubConfig.id });
        expect(job.last_error).toMatch(/the response is larger than the limit of 4096 bytes/);
        expect(await entries(fx.stubList.id)).toEqual(before);
      });

      it('sync-all enqueues one job per prefix list with an enabled source and an AS-SET that is due (all of them with all)', async () => {
        // The config of the IRR rules test has never been synchronised (due); the stub's was just now (not due).
        await root.patch(`${P}/irr-source/${fx.irrSource.id}/`, { api_endpoint: fx.stubSource.api_endpoint });
        const dataSource = seeded.testApp.app.get(DataSource);
        const jobs = () => count('jobs', 'WHERE queue = $1', [IRR_SYNC_QUEUE]);
        const before = await jobs();
        expect(await enqueueDueSyncs(dataSource, false)).toEqual({ total_configs: 2, enqueued: 1, skipped: 1 });
        expect(await jobs()).toBe(before + 1);
        expect(await enqueueDueSyncs(dataSource, true)).toEqual({ total_configs: 2, enqueued: 2, skipped: 0 });
        expect(await jobs()).toBe(before + 3);
        expect(await runJob(IRR_SYNC_ALL_QUEUE, {})).toMatchObject({ status: 'succeeded' });
      });
    });
  });

  describe('render-config with PLUGIN_PEERING_RENDER_CONFIG_REQUIRES_VIEW=false', () => {
    let lax: Awaited<ReturnType<typeof startPlatformApp>>;
    afterAll(async () => {
      await lax?.seeded.db.end();
      await lax?.seeded.testApp.close();
    });

    // Boots an app of its own before its requests.
    it(
      'any authenticated caller may use any template and device, but renders only the sessions it may view',
      async () => {
        lax = await startPlatformApp({ PLUGIN_PEERING_RENDER_CONFIG_REQUIRES_VIEW: 'false' });
        const { api, seeded: s } = lax;
        const member = api.as(await provisionToken(s.api, s.w.user1.username, PASSWORD));
        const template = await api.created('/api/extras/config-templates/', {
          name: 't',
          template_code: '{{ device.name }}:{{ sessions | length }}{% for x in sessions %} {{ x.password }}{% endfor %}',
        });
        const site = await api.created('/api/dcim/sites/', { name: 'S', slug: 's' });
        const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'M', slug: 'm' });
        const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'T', slug: 't' });
        const role = await api.created('/api/dcim/device-roles/', { name: 'R', slug: 'r' });
        const device = await api.created('/api/dcim/devices/', { name: 'd', device_type: deviceType.id, role: role.id, site: site.id });
        const rir = await api.created('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
        const asn = await api.created('/api/ipam/asns/', { asn: 64512, rir: rir.id });
        const router = await api.created(`${R}/bgp-routers/`, { device: device.id, asn: asn.id });
        const scope = await api.created(`${R}/bgp-scopes/`, { router: router.id });
        const address = await api.created('/api/ipam/ip-addresses/', { address: '10.9.0.2/30' });
        const peer = await api.created(`${R}/bgp-peers/`, { scope: scope.id, peer: address.id, password: 'lax-secret' });
        const session = await api.created(`${P}/peering-session/`, { bgp_peer: peer.id });
        const body = { template: template.id, device: device.id };
        const allowed = await member.post(RENDER, body);
        expect({ status: allowed.status, content: allowed.body.content }).toEqual({ status: 200, content: 'd:0' });
        const named = await member.post(RENDER, { ...body, sessions: [session.id] });
        expect({ status: named.status, fields: Object.keys(named.body) }).toEqual({ status: 400, fields: ['sessions'] });
        expect((await api.post(RENDER, body)).body.content).toBe('d:1 lax-secret');
      },
      SETUP_HOOK_TIMEOUT_MS,
    );
  });
});
