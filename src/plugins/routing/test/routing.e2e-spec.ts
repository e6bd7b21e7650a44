import { countRows, PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const R = '/api/plugins/routing';
const ROUTERS = `${R}/bgp-routers/`;
const SCOPES = `${R}/bgp-scopes/`;
const PEER_TEMPLATES = `${R}/bgp-peer-templates/`;
const BFD_PROFILES = `${R}/bfd-profiles/`;
const PEERS = `${R}/bgp-peers/`;
const ADDRESS_FAMILIES = `${R}/bgp-peer-address-families/`;
const PREFIX_LISTS = `${R}/prefix-lists/`;
const PREFIX_LIST_ENTRIES = `${R}/prefix-list-entries/`;
const ROUTE_MAPS = `${R}/route-maps/`;
const IPS = '/api/ipam/ip-addresses/';
const ASNS = '/api/ipam/asns/';
const VRFS = '/api/ipam/vrfs/';
const DEVICES = '/api/dcim/devices/';
const TENANTS = '/api/tenancy/tenants/';

/**
 * The routing plugin's models under /api/plugins/routing/: BGP routers on devices, their scopes
 * (global or per VRF), peer templates, BFD profiles, peers with their address families, prefix
 * lists with validated entries, and route maps: their rules (nested reads, validation messages,
 * uniqueness, filters' refusals, what deleting does to the objects that refer to another). The
 * generic REST/GraphQL contract of each model (CRUD, bulk, brief, permissions, change log, GraphQL)
 * is declared in routing-api.e2e-spec.ts.
 */
describe('platform routing plugin: BGP, BFD, prefix lists, route maps', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  let base: string;
  const fx: Record<string, any> = {};

  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);
  const listed = (path: string, attribute = 'id') => api.listed(path, attribute);
  const url = (path: string, id: number) => `${base}${path}${id}/`;

  beforeAll(async () => {
    ({ seeded, api, base } = await startPlatformApp());
    const site = await api.created('/api/dcim/sites/', { name: 'DC1', slug: 'dc1' });
    const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'MX204', slug: 'mx204' });
    const role = await api.created('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
    fx.rtr1 = await api.created(DEVICES, { name: 'rtr1', device_type: deviceType.id, role: role.id, site: site.id });
    fx.rtr2 = await api.created(DEVICES, { name: 'rtr2', device_type: deviceType.id, role: role.id, site: site.id });
    const rir = await api.created('/api/ipam/rirs/', { name: 'RFC 6996', slug: 'rfc-6996', is_private: true });
    fx.as65000 = await api.created(ASNS, { asn: 65000, rir: rir.id });
    fx.as65001 = await api.created(ASNS, { asn: 65001, rir: rir.id });
    fx.as4200 = await api.created(ASNS, { asn: 4200000001, rir: rir.id });
    fx.blue = await api.created(VRFS, { name: 'blue', rd: '65000:1' });
    fx.acme = await api.created(TENANTS, { name: 'Acme', slug: 'acme' });
    fx.local = await api.created(IPS, { address: '192.0.2.0/31' });
    fx.remote = await api.created(IPS, { address: '192.0.2.1/31' });
    fx.remote6 = await api.created(IPS, { address: '2001:db8::2/127' });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('BGP routers and scopes', () => {
    it('a router is a device with an ASN, both read nested; one router per device and ASN', async () => {
      fx.router = await api.created(ROUTERS, { device: fx.rtr1.id, asn: fx.as65000.id, description: 'edge' });
      expect(fx.router).toMatchObject({
        id: expect.any(Number),
        url: url(ROUTERS, fx.router.id),
        device: { id: fx.rtr1.id, url: url(DEVICES, fx.rtr1.id), display: 'rtr1', name: 'rtr1' },
        asn: { id: fx.as65000.id, url: url(ASNS, fx.as65000.id), display: 'AS65000', asn: 65000 },
        description: 'edge',
      });
      expect(fx.router.url).toBe(`${base}/api/plugins/routing/bgp-routers/${fx.router.id}/`);
      const before = await count('routing_bgprouter');
      const duplicate = await api.post(ROUTERS, { device: fx.rtr1.id, asn: fx.as65000.id });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields device, asn must make a unique set.'] });
      const missing = await api.post(ROUTERS, { description: 'nothing' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ device: ['This field is required.'], asn: ['This field is required.'] });
      const unknown = await api.post(ROUTERS, { device: fx.rtr2.id, asn: 999999 });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ asn: ['Related object not found using the provided numeric ID: 999999'] });
      expect(await count('routing_bgprouter')).toBe(before);
      fx.router2 = await api.created(ROUTERS, { device: fx.rtr2.id, asn: fx.as4200.id });
      expect(fx.router2.asn).toMatchObject({ asn: 4200000001, display: 'AS4200000001' });
    });

    it('filters routers by device (name), device_id and asn_id', async () => {
      expect(await listed(`${ROUTERS}?device=rtr2`)).toEqual([fx.router2.id]);
      expect(await listed(`${ROUTERS}?device_id=${fx.rtr1.id}`)).toEqual([fx.router.id]);
      expect(await listed(`${ROUTERS}?asn_id=${fx.as4200.id}`)).toEqual([fx.router2.id]);
      const bad = await api.get(`${ROUTERS}?device=rtr9`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ device: ['Select a valid choice. rtr9 is not one of the available choices.'] });
    });

    it('scopes: global (no VRF) or per VRF, read with router and VRF nested; one per router and VRF', async () => {
      fx.global = await api.created(SCOPES, { router: fx.router.id });
      fx.blueScope = await api.created(SCOPES, { router: fx.router.id, vrf: fx.blue.id });
      expect(fx.global).toMatchObject({ router: { id: fx.router.id, url: url(ROUTERS, fx.router.id) }, vrf: null });
      expect(fx.blueScope).toMatchObject({
        vrf: { id: fx.blue.id, url: url(VRFS, fx.blue.id), display: 'blue', name: 'blue', rd: '65000:1' },
      });
      const duplicate = await api.post(SCOPES, { router: fx.router.id, vrf: fx.blue.id });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields router, vrf must make a unique set.'] });
      expect(await listed(`${SCOPES}?router_id=${fx.router.id}&vrf_id=null`)).toEqual([fx.global.id]);
      expect(await listed(`${SCOPES}?vrf_id=${fx.blue.id}`)).toEqual([fx.blueScope.id]);
    });

    it('PROTECT: an ASN used by a router cannot be deleted (409)', async () => {
      const response = await api.delete(`${ASNS}${fx.as65000.id}/`);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*BGP router/) });
      expect(await count('ipam_asn', 'WHERE id = $1', [fx.as65000.id])).toBe(1);
    });
  });

  describe('peer templates and BFD profiles', () => {
    it('peer templates: unique name, remote AS nested, enabled by default', async () => {
      fx.template = await api.created(PEER_TEMPLATES, { name: 'TRANSIT', remote_as: fx.as65001.id });
      expect(fx.template).toMatchObject({
        display: 'TRANSIT',
        name: 'TRANSIT',
        enabled: true,
        remote_as: { id: fx.as65001.id, asn: 65001 },
      });
      const duplicate = await api.post(PEER_TEMPLATES, { name: 'TRANSIT' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ name: ['BGP peer template with this name already exists.'] });
    });

    it('BFD profiles: defaults 300/300/3, bounds on intervals and multiplier', async () => {
      fx.bfd = await api.created(BFD_PROFILES, { name: 'fast' });
      expect(fx.bfd).toMatchObject({ name: 'fast', min_tx_int: 300, min_rx_int: 300, multiplier: 3, hold: null });
      const before = await count('routing_bfdprofile');
      const bad = await api.post(BFD_PROFILES, { name: 'broken', min_tx_int: 0, min_rx_int: 60001, multiplier: 256 });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        min_tx_int: ['Ensure this value is greater than or equal to 1.'],
        min_rx_int: ['Ensure this value is less than or equal to 60000.'],
        multiplier: ['Ensure this value is less than or equal to 255.'],
      });
      expect(await count('routing_bfdprofile')).toBe(before);
      const tuned = await api.patch(`${BFD_PROFILES}${fx.bfd.id}/`, { min_tx_int: 50, min_rx_int: 50, multiplier: 5 });
      expect(tuned.body).toMatchObject({ min_tx_int: 50, min_rx_int: 50, multiplier: 5 });
    });
  });

  describe('BGP peers and their address families', () => {
    it('creates a peer with scope, peer and source addresses, ASNs, template, BFD profile and tenant, all nested', async () => {
      const response = await api.post(PEERS, {
        name: 'transit-a',
        scope: fx.global.id,
        peer: fx.remote.id,
        source: fx.local.id,
        remote_as: fx.as65001.id,
        local_as: fx.as65000.id,
        peer_group: fx.template.id,
        status: 'planned',
        password: 's3cret',
        ttl: 2,
        bfd_profile: fx.bfd.id,
        tenant: fx.acme.id,
      });
      expect(response.status).toBe(201);
      fx.peer = response.body;
      const read = await api.get(`${PEERS}${fx.peer.id}/`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        id: fx.peer.id,
        url: `${base}/api/plugins/routing/bgp-peers/${fx.peer.id}/`,
        display: 'transit-a',
        name: 'transit-a',
        scope: { id: fx.global.id, url: url(SCOPES, fx.global.id), router: { id: fx.router.id } },
        peer: { id: fx.remote.id, url: url(IPS, fx.remote.id), display: '192.0.2.1/31', address: '192.0.2.1/31' },
        source: { id: fx.local.id, display: '192.0.2.0/31', address: '192.0.2.0/31' },
        remote_as: { id: fx.as65001.id, display: 'AS65001', asn: 65001 },
        local_as: { id: fx.as65000.id, asn: 65000 },
        peer_group: { id: fx.template.id, name: 'TRANSIT' },
        status: { value: 'planned', label: 'Planned' },
        enabled: true,
        password: 's3cret',
        ttl: 2,
        bfd_profile: { id: fx.bfd.id, url: url(BFD_PROFILES, fx.bfd.id), display: 'fast', name: 'fast' },
        tenant: { id: fx.acme.id, slug: 'acme' },
      });
      const stored = await seeded.db.query(
        'SELECT scope_id, peer_id, source_id, remote_as_id, ttl, status FROM routing_bgppeer WHERE id = $1',
        [fx.peer.id],
      );
      expect(stored.rows).toEqual([
        { scope_id: fx.global.id, peer_id: fx.remote.id, source_id: fx.local.id, remote_as_id: fx.as65001.id, ttl: 2, status: 'planned' },
      ]);
    });

    it('validation: TTL 1..255, status choices, required scope and peer, unknown peer address', async () => {
      const before = await count('routing_bgppeer');
      for (const [ttl, message] of [
        [0, 'Ensure this value is greater than or equal to 1.'],
        [256, 'Ensure this value is less than or equal to 255.'],
      ] as const) {
        const response = await api.post(PEERS, { scope: fx.blueScope.id, peer: fx.remote6.id, ttl });
        expect({ ttl, status: response.status, body: response.body }).toEqual({ ttl, status: 400, body: { ttl: [message] } });
      }
      const status = await api.post(PEERS, { scope: fx.blueScope.id, peer: fx.remote6.id, status: 'established' });
      expect(status.status).toBe(400);
      expect(status.body).toEqual({ status: ['"established" is not a valid choice.'] });
      const missing = await api.post(PEERS, { name: 'nothing' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ scope: ['This field is required.'], peer: ['This field is required.'] });
      const unknown = await api.post(PEERS, { scope: fx.blueScope.id, peer: 999999 });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ peer: ['Related object not found using the provided numeric ID: 999999'] });
      expect(await count('routing_bgppeer')).toBe(before);
      const ttl255 = await api.created(PEERS, { scope: fx.blueScope.id, peer: fx.remote6.id, ttl: 255, status: 'decommissioned' });
      expect(ttl255).toMatchObject({
        ttl: 255,
        display: `Peer ${ttl255.id}`,
        status: { value: 'decommissioned', label: 'Decommissioned' },
      });
      fx.peer6 = ttl255;
    });

    it('a peer address is unique per scope (the same address in another scope is fine)', async () => {
      const before = await count('routing_bgppeer');
      const duplicate = await api.post(PEERS, { scope: fx.global.id, peer: fx.remote.id, name: 'again' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields scope, peer must make a unique set.'] });
      expect(await count('routing_bgppeer')).toBe(before);
      const otherScope = await api.created(PEERS, { scope: fx.blueScope.id, peer: fx.remote.id, name: 'transit-a-blue' });
      expect(otherScope.scope).toMatchObject({ id: fx.blueScope.id });
      fx.peerBlue = otherScope;
    });

    it('filters peers by scope_id, peer_id, remote_as_id, status, tenant and q', async () => {
      expect(await listed(`${PEERS}?scope_id=${fx.global.id}`)).toEqual([fx.peer.id]);
      expect(await listed(`${PEERS}?peer_id=${fx.remote.id}`)).toEqual([fx.peer.id, fx.peerBlue.id]);
      expect(await listed(`${PEERS}?remote_as_id=${fx.as65001.id}`)).toEqual([fx.peer.id]);
      expect(await listed(`${PEERS}?status=decommissioned`)).toEqual([fx.peer6.id]);
      expect(await listed(`${PEERS}?tenant=acme`)).toEqual([fx.peer.id]);
      expect(await listed(`${PEERS}?q=transit-a`)).toEqual([fx.peer.id, fx.peerBlue.id]);
      const bad = await api.get(`${PEERS}?status=up`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ status: ['Select a valid choice. up is not one of the available choices.'] });
    });

    it('address families: AFI choices, one per peer and AFI, prefix lists and route maps nested', async () => {
      fx.plIn = await api.created(PREFIX_LISTS, { name: 'CUSTOMER-IN', family: 'ipv4' });
      fx.rmOut = await api.created(ROUTE_MAPS, { name: 'TRANSIT-OUT' });
      const af = await api.created(ADDRESS_FAMILIES, {
        assigned_peer: fx.peer.id,
        afi: 'ipv4-unicast',
        prefixlist_in: fx.plIn.id,
        routemap_out: fx.rmOut.id,
      });
      fx.af = af;
      expect(af).toMatchObject({
        display: 'ipv4-unicast',
        assigned_peer: { id: fx.peer.id, url: url(PEERS, fx.peer.id), display: 'transit-a', name: 'transit-a' },
        afi: { value: 'ipv4-unicast', label: 'IPv4 Unicast' },
        enabled: true,
        prefixlist_in: { id: fx.plIn.id, url: url(PREFIX_LISTS, fx.plIn.id), display: 'CUSTOMER-IN', name: 'CUSTOMER-IN' },
        prefixlist_out: null,
        routemap_in: null,
        routemap_out: { id: fx.rmOut.id, name: 'TRANSIT-OUT' },
      });
      await api.created(ADDRESS_FAMILIES, { assigned_peer: fx.peer.id, afi: 'l2vpn-evpn' });
      const before = await count('routing_bgppeeraddressfamily');
      const duplicate = await api.post(ADDRESS_FAMILIES, { assigned_peer: fx.peer.id, afi: 'ipv4-unicast' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields assigned_peer, afi must make a unique set.'] });
      const badAfi = await api.post(ADDRESS_FAMILIES, { assigned_peer: fx.peer.id, afi: 'ipv4-flowspec' });
      expect(badAfi.status).toBe(400);
      expect(badAfi.body).toEqual({ afi: ['"ipv4-flowspec" is not a valid choice.'] });
      expect(await count('routing_bgppeeraddressfamily')).toBe(before);
      expect(await listed(`${ADDRESS_FAMILIES}?assigned_peer_id=${fx.peer.id}&afi=l2vpn-evpn`, 'display')).toEqual(['l2vpn-evpn']);
    });

    it('deleting the source address clears it on the peer (SET NULL); the peer address is PROTECTed (409)', async () => {
      const protectedPeer = await api.delete(`${IPS}${fx.remote.id}/`);
      expect(protectedPeer.status).toBe(409);
      expect(protectedPeer.body).toEqual({ detail: expect.stringMatching(/^Unable to delete object\. .*BGP peer transit-a/) });
      expect(await count('ipam_ipaddress', 'WHERE id = $1', [fx.remote.id])).toBe(1);

      const response = await api.delete(`${IPS}${fx.local.id}/`);
      expect(response.status).toBe(204);
      expect((await api.get(`${PEERS}${fx.peer.id}/`)).body.source).toBeNull();
      const change = await seeded.db.query(
        `SELECT c.action, c.prechange_data->'source' AS before, c.postchange_data->'source' AS after FROM core_objectchange c
           JOIN core_objecttype t ON t.id = c.changed_object_type_id
          WHERE t.model = 'bgppeer' AND c.changed_object_id = $1 AND c.request_id = $2`,
        [fx.peer.id, response.headers.get('x-request-id')],
      );
      expect(change.rows).toEqual([{ action: 'update', before: fx.local.id, after: null }]);
    });

    it('deleting a prefix list or route map clears it on the address family (SET NULL)', async () => {
      const list = await api.created(PREFIX_LISTS, { name: 'TEMP', family: 'ipv4' });
      expect((await api.patch(`${ADDRESS_FAMILIES}${fx.af.id}/`, { prefixlist_out: list.id })).body.prefixlist_out).toMatchObject({
        id: list.id,
      });
      expect((await api.delete(`${PREFIX_LISTS}${list.id}/`)).status).toBe(204);
      expect((await api.delete(`${ROUTE_MAPS}${fx.rmOut.id}/`)).status).toBe(204);
      const af = await api.get(`${ADDRESS_FAMILIES}${fx.af.id}/`);
      expect(af.body).toMatchObject({ prefixlist_in: { id: fx.plIn.id }, prefixlist_out: null, routemap_out: null });
    });

    it('deleting the device deletes its router, scopes, peers and address families (CASCADE), each recorded', async () => {
      const router = await api.created(ROUTERS, { device: fx.rtr2.id, asn: fx.as65001.id });
      const scope = await api.created(SCOPES, { router: router.id });
      const peer = await api.created(PEERS, { scope: scope.id, peer: fx.remote6.id });
      const af = await api.created(ADDRESS_FAMILIES, { assigned_peer: peer.id, afi: 'ipv6-unicast' });
      const response = await api.delete(`${DEVICES}${fx.rtr2.id}/`);
      expect(response.status).toBe(204);
      for (const [table, id] of [
        ['routing_bgprouter', router.id],
        ['routing_bgprouter', fx.router2.id],
        ['routing_bgpscope', scope.id],
        ['routing_bgppeer', peer.id],
        ['routing_bgppeeraddressfamily', af.id],
      ] as const) {
        expect({ table, id, n: await count(table, 'WHERE id = $1', [id]) }).toEqual({ table, id, n: 0 });
      }
      const deleted = await seeded.db.query(
        `SELECT t.model, c.changed_object_id AS id FROM core_objectchange c JOIN core_objecttype t ON t.id = c.changed_object_type_id
          WHERE c.action = 'delete' AND c.request_id = $1 AND t.app_label = 'routing' ORDER BY t.model, c.changed_object_id`,
        [response.headers.get('x-request-id')],
      );
      expect(deleted.rows).toEqual([
        { model: 'bgppeer', id: peer.id },
        { model: 'bgppeeraddressfamily', id: af.id },
        { model: 'bgprouter', id: Math.min(router.id, fx.router2.id) },
        { model: 'bgprouter', id: Math.max(router.id, fx.router2.id) },
        { model: 'bgpscope', id: scope.id },
      ]);
    });
  });

  describe('prefix lists, their entries, route maps', () => {
    beforeAll(async () => {
      fx.v4 = await api.created(PREFIX_LISTS, { name: 'BOGONS-V4', family: 'ipv4', description: 'martians' });
      fx.v6 = await api.created(PREFIX_LISTS, { name: 'BOGONS-V6', family: 'ipv6' });
    });

    it('prefix lists: family ipv4 or ipv6 (required), unique name', async () => {
      expect(fx.v4).toMatchObject({ display: 'BOGONS-V4', family: { value: 'ipv4', label: 'IPv4' }, description: 'martians' });
      expect(fx.v6.family).toEqual({ value: 'ipv6', label: 'IPv6' });
      const noFamily = await api.post(PREFIX_LISTS, { name: 'NOFAM' });
      expect(noFamily.status).toBe(400);
      expect(noFamily.body).toEqual({ family: ['This field is required.'] });
      const badFamily = await api.post(PREFIX_LISTS, { name: 'BADFAM', family: 'ipx' });
      expect(badFamily.status).toBe(400);
      expect(badFamily.body).toEqual({ family: ['"ipx" is not a valid choice.'] });
      const duplicate = await api.post(PREFIX_LISTS, { name: 'BOGONS-V4', family: 'ipv4' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ name: ['prefix list with this name already exists.'] });
      expect(await listed(`${PREFIX_LISTS}?family=ipv6`, 'name')).toEqual(['BOGONS-V6']);
    });

    it('entries: sequence, action, validated prefix, ge/le; read with the list nested', async () => {
      const entry = await api.created(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 5,
        action: 'deny',
        prefix: '10.0.0.0/8',
        ge: 8,
        le: 32,
      });
      expect(entry).toMatchObject({
        display: '5 deny 10.0.0.0/8',
        prefix_list: { id: fx.v4.id, url: url(PREFIX_LISTS, fx.v4.id), display: 'BOGONS-V4', name: 'BOGONS-V4' },
        sequence: 5,
        action: { value: 'deny', label: 'Deny' },
        prefix: '10.0.0.0/8',
        ge: 8,
        le: 32,
      });
      await api.created(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 4294967294,
        action: 'permit',
        prefix: '0.0.0.0/0',
        le: 24,
      });
      const v6 = await api.created(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v6.id,
        sequence: 10,
        action: 'deny',
        prefix: '2001:DB8::/32',
        ge: 48,
      });
      expect(v6).toMatchObject({ prefix: '2001:db8::/32', ge: 48, le: null });
      expect(
        (
          await seeded.db.query(
            'SELECT prefix::text AS prefix, sequence::text AS sequence FROM routing_prefixlistentry WHERE prefix_list_id = $1 ORDER BY id',
            [fx.v4.id],
          )
        ).rows,
      ).toEqual([
        { prefix: '10.0.0.0/8', sequence: '5' },
        { prefix: '0.0.0.0/0', sequence: '4294967294' },
      ]);
      expect(await listed(`${PREFIX_LIST_ENTRIES}?prefix_list_id=${fx.v4.id}`, 'sequence')).toEqual([5, 4294967294]);
      expect(await listed(`${PREFIX_LIST_ENTRIES}?action=deny`, 'display')).toEqual(['5 deny 10.0.0.0/8', '10 deny 2001:db8::/32']);
    });

    it('a sequence number is unique per list (the same number in another list is fine)', async () => {
      const duplicate = await api.post(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 5,
        action: 'permit',
        prefix: '172.16.0.0/12',
      });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ non_field_errors: ['The fields prefix_list, sequence must make a unique set.'] });
      await api.created(PREFIX_LIST_ENTRIES, { prefix_list: fx.v6.id, sequence: 5, action: 'permit', prefix: 'fc00::/7' });
      const bounds = await api.post(PREFIX_LIST_ENTRIES, { prefix_list: fx.v4.id, sequence: 0, action: 'permit', prefix: '172.16.0.0/12' });
      expect(bounds.status).toBe(400);
      expect(bounds.body).toEqual({ sequence: ['Ensure this value is greater than or equal to 1.'] });
    });

    it('refuses a bad action, a prefix with host bits or without a mask', async () => {
      const before = await count('routing_prefixlistentry');
      const action = await api.post(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 20,
        action: 'reject',
        prefix: '172.16.0.0/12',
      });
      expect(action.status).toBe(400);
      expect(action.body).toEqual({ action: ['"reject" is not a valid choice.'] });
      const hostBits = await api.post(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 20,
        action: 'deny',
        prefix: '172.16.0.1/12',
      });
      expect(hostBits.status).toBe(400);
      expect(hostBits.body).toEqual({ prefix: [expect.stringMatching(/host bits/)] });
      const noMask = await api.post(PREFIX_LIST_ENTRIES, { prefix_list: fx.v4.id, sequence: 20, action: 'deny', prefix: '172.16.0.0' });
      expect(noMask.status).toBe(400);
      expect(noMask.body).toEqual({ prefix: ['CIDR mask (e.g. /24) is required.'] });
      expect(await count('routing_prefixlistentry')).toBe(before);
    });

    it('ge and le outside prefix length … address width, or le below ge, are a 400 (on create and on update)', async () => {
      const before = await count('routing_prefixlistentry');
      const ge = await api.post(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 30,
        action: 'deny',
        prefix: '192.168.0.0/16',
        ge: 8,
      });
      expect(ge.status).toBe(400);
      expect(ge.body).toEqual({ ge: ['ge must be between the prefix length (16) and 32.'] });
      const wide = await api.post(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 30,
        action: 'deny',
        prefix: '192.168.0.0/16',
        le: 33,
      });
      expect(wide.body).toEqual({ le: ['le must be between the prefix length (16) and 32.'] });
      const shortLe = await api.post(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 30,
        action: 'deny',
        prefix: '192.168.0.0/16',
        le: 8,
      });
      expect(shortLe.body).toEqual({ le: ['le must be between the prefix length (16) and 32.'] });
      const le = await api.post(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 30,
        action: 'deny',
        prefix: '192.168.0.0/16',
        ge: 24,
        le: 20,
      });
      expect(le.status).toBe(400);
      expect(le.body).toEqual({ le: ['le must not be below ge.'] });
      expect(await count('routing_prefixlistentry')).toBe(before);
      const ok = await api.created(PREFIX_LIST_ENTRIES, {
        prefix_list: fx.v4.id,
        sequence: 30,
        action: 'deny',
        prefix: '192.168.0.0/16',
        ge: 16,
        le: 24,
      });
      const patched = await api.patch(`${PREFIX_LIST_ENTRIES}${ok.id}/`, { le: 12 });
      expect(patched.status).toBe(400);
      expect(patched.body).toEqual({ le: ['le must be between the prefix length (16) and 32.'] });
      const narrower = await api.patch(`${PREFIX_LIST_ENTRIES}${ok.id}/`, { prefix: '192.168.0.0/24' });
      expect(narrower.status).toBe(400);
      expect(narrower.body).toEqual({ ge: ['ge must be between the prefix length (24) and 32.'] });
      expect(
        (await seeded.db.query('SELECT prefix::text AS prefix, ge, le FROM routing_prefixlistentry WHERE id = $1', [ok.id])).rows,
      ).toEqual([{ prefix: '192.168.0.0/16', ge: 16, le: 24 }]);
    });

    it('route maps: unique name; deleting a prefix list deletes its entries (CASCADE)', async () => {
      const map = await api.created(ROUTE_MAPS, { name: 'CUSTOMER-IN', description: 'tag and filter' });
      expect(map).toMatchObject({ display: 'CUSTOMER-IN', description: 'tag and filter' });
      const duplicate = await api.post(ROUTE_MAPS, { name: 'CUSTOMER-IN' });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toEqual({ name: ['route map with this name already exists.'] });
      const entries = await count('routing_prefixlistentry', 'WHERE prefix_list_id = $1', [fx.v6.id]);
      expect(entries).toBe(2);
      const response = await api.delete(`${PREFIX_LISTS}${fx.v6.id}/`);
      expect(response.status).toBe(204);
      expect(await count('routing_prefixlistentry', 'WHERE prefix_list_id = $1', [fx.v6.id])).toBe(0);
      const recorded = await seeded.db.query(
        `SELECT count(*)::int AS n FROM core_objectchange c JOIN core_objecttype t ON t.id = c.changed_object_type_id
          WHERE t.model = 'prefixlistentry' AND c.action = 'delete' AND c.request_id = $1`,
        [response.headers.get('x-request-id')],
      );
      expect(recorded.rows).toEqual([{ n: 2 }]);
    });
  });
});
