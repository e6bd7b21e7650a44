import { PASSWORD } from '../../../../test/support/api-client';
import { PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const P = '/api/plugins/peering';
const R = '/api/plugins/routing';
const RENDER = `${P}/render-config/`;

/**
 * render-config resolves a BGP peer's values through its session template's chain (the peer's own
 * value, then its template, then the template's parent, …) and an address family's policies through
 * its policy template's ancestry (nearest first, lower id first at the same depth); chains that loop
 * are refused on write, and a loop written behind the API's back does not hang a render.
 */
describe('platform peering render-config: session and policy template inheritance', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  /** Views everything render-config reads and changes the BGP peers, but not the session templates. */
  let peerChanger: PlatformClient;
  const fx: Record<string, any> = {};

  const render = async (client: PlatformClient, sessions: number[]) => {
    const response = await client.post(`${RENDER}?include_context=true`, { template: fx.template.id, sessions });
    expect(response.status).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    const { w } = seeded;
    const site = await root.created('/api/dcim/sites/', { name: 'FRA1', slug: 'fra1' });
    const manufacturer = await root.created('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'MX204', slug: 'mx204' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Border', slug: 'border' });
    const device = await root.created('/api/dcim/devices/', { name: 'border1', device_type: deviceType.id, role: role.id, site: site.id });
    const rir = await root.created('/api/ipam/rirs/', { name: 'ARIN', slug: 'arin' });
    const asn = (number: number) => root.created('/api/ipam/asns/', { asn: number, rir: rir.id });
    fx.routerAsn = await asn(64500);
    fx.templateLocalAsn = await asn(64501);
    fx.templateRemoteAsn = await asn(65010);
    fx.groupRemoteAsn = await asn(65020);
    fx.ownRemoteAsn = await asn(65030);
    const router = await root.created(`${R}/bgp-routers/`, { device: device.id, asn: fx.routerAsn.id });
    const scope = await root.created(`${R}/bgp-scopes/`, { router: router.id });
    const ip = async (address: string) => (await root.created('/api/ipam/ip-addresses/', { address })).id;
    fx.slow = await root.created(`${R}/bfd-profiles/`, { name: 'slow', min_tx_int: 1000, min_rx_int: 1000, multiplier: 5 });
    fx.fast = await root.created(`${R}/bfd-profiles/`, { name: 'fast', min_tx_int: 50, min_rx_int: 50, multiplier: 3 });
    // grandparent ← parent ← child: each sets some values, the nearer one wins.
    fx.grandparent = await root.created(`${R}/bgp-session-templates/`, {
      name: 'GP',
      local_as: fx.templateLocalAsn.id,
      ttl: 5,
      bfd: fx.slow.id,
      password: 'gp-secret',
    });
    fx.parent = await root.created(`${R}/bgp-session-templates/`, {
      name: 'PARENT',
      parent: fx.grandparent.id,
      remote_as: fx.templateRemoteAsn.id,
    });
    fx.child = await root.created(`${R}/bgp-session-templates/`, { name: 'CHILD', parent: fx.parent.id, ttl: 3 });
    const group = await root.created(`${R}/bgp-peer-templates/`, { name: 'GROUP', remote_as: fx.groupRemoteAsn.id });
    const peer = (name: string, address: string, values: Record<string, unknown>) =>
      root.created(`${R}/bgp-peers/`, { scope: scope.id, name, peer: address, ...values });
    fx.inheriting = await peer('inheriting', await ip('192.0.2.1/31'), { peer_session: fx.child.id, peer_group: group.id });
    fx.own = await peer('own', await ip('192.0.2.3/31'), {
      peer_session: fx.child.id,
      remote_as: fx.ownRemoteAsn.id,
      local_as: fx.routerAsn.id,
      ttl: 9,
      bfd_profile: fx.fast.id,
      password: 'own-secret',
    });
    fx.grouped = await peer('grouped', await ip('192.0.2.5/31'), { peer_group: group.id });
    const session = async (bgpPeer: number) => (await root.created(`${P}/peering-session/`, { bgp_peer: bgpPeer })).id;
    fx.inheritingSession = await session(fx.inheriting.id);
    fx.ownSession = await session(fx.own.id);
    fx.groupedSession = await session(fx.grouped.id);

    // Policy templates: BASE-A and BASE-B both parents of EDGE; the address family names EDGE.
    const routeMap = async (name: string) => (await root.created(`${R}/route-maps/`, { name })).id;
    const prefixList = async (name: string) => (await root.created(`${R}/prefix-lists/`, { name, family: 'ipv4' })).id;
    fx.baseA = await root.created(`${R}/bgp-policy-templates/`, { name: 'BASE-A', routemap_in: await routeMap('RM-A-IN') });
    fx.baseB = await root.created(`${R}/bgp-policy-templates/`, {
      name: 'BASE-B',
      routemap_in: await routeMap('RM-B-IN'),
      prefixlist_out: await prefixList('PL-B-OUT'),
    });
    fx.edge = await root.created(`${R}/bgp-policy-templates/`, {
      name: 'EDGE',
      parents: [fx.baseB.id, fx.baseA.id],
      routemap_out: await routeMap('RM-EDGE-OUT'),
    });
    await root.created(`${R}/bgp-peer-address-families/`, {
      assigned_peer: fx.inheriting.id,
      afi: 'ipv4-unicast',
      peer_policy: fx.edge.id,
      prefixlist_in: await prefixList('PL-OWN-IN'),
    });
    fx.template = await root.created('/api/extras/config-templates/', {
      name: 'junos-neighbors',
      template_code:
        '{% for s in sessions %}{{ s.name }} local-as {{ s.local_asn }} peer-as {{ s.peer_asn }} ttl {{ s.ttl }} bfd {{ s.bfd_profile.name }} auth {{ s.password }};{% endfor %}',
    });

    const grant = (name: string, objectType: string, actions: string[]) =>
      root.created('/api/users/permissions/', { name, object_types: [objectType], actions, users: [w.user1.id] });
    await grant('templates', 'extras.configtemplate', ['view']);
    await grant('sessions', 'peering.peeringsession', ['view']);
    await grant('peers', 'routing.bgppeer', ['view', 'change']);
    await grant('session templates', 'routing.bgpsessiontemplate', ['view']);
    peerChanger = root.as(await provisionToken(seeded.api, w.user1.username, PASSWORD));
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it("a peer's unset values come from its session template, then the template's parent, then the grandparent", async () => {
    const body = await render(root, [fx.inheritingSession]);
    expect(body.content).toBe('inheriting local-as 64501 peer-as 65010 ttl 3 bfd slow auth gp-secret;');
    expect(body.context.sessions[0]).toMatchObject({
      local_asn: 64501,
      peer_asn: 65010,
      ttl: 3,
      password: 'gp-secret',
      bfd_profile: { name: 'slow', minimum_interval: 1000, minimum_rx_interval: 1000, multiplier: 5, hold: null },
      peer_group: { id: expect.any(Number), name: 'GROUP' },
    });
  });

  it("a peer's own values win over its templates; without a template the peer group and the router still fill in", async () => {
    const body = await render(root, [fx.ownSession, fx.groupedSession]);
    expect(body.content).toBe(
      'own local-as 64500 peer-as 65030 ttl 9 bfd fast auth own-secret;grouped local-as 64500 peer-as 65020 ttl None bfd  auth ;',
    );
  });

  it('a template changed is rendered at once: the nearest value along the chain wins', async () => {
    expect((await root.patch(`${R}/bgp-session-templates/${fx.parent.id}/`, { ttl: 7, local_as: fx.routerAsn.id })).status).toBe(200);
    // CHILD's own ttl (3) still wins over PARENT's; PARENT's local AS now wins over GP's.
    expect((await render(root, [fx.inheritingSession])).content).toBe(
      'inheriting local-as 64500 peer-as 65010 ttl 3 bfd slow auth gp-secret;',
    );
    expect((await root.patch(`${R}/bgp-session-templates/${fx.child.id}/`, { ttl: null })).status).toBe(200);
    expect((await render(root, [fx.inheritingSession])).content).toBe(
      'inheriting local-as 64500 peer-as 65010 ttl 7 bfd slow auth gp-secret;',
    );
    expect((await root.patch(`${R}/bgp-session-templates/${fx.child.id}/`, { ttl: 3 })).status).toBe(200);
    expect((await root.patch(`${R}/bgp-session-templates/${fx.parent.id}/`, { ttl: null, local_as: null })).status).toBe(200);
  });

  it("an address family's unset policies come from its policy template, then its parents (lower id first at the same depth)", async () => {
    const body = await render(root, [fx.inheritingSession]);
    // Own prefix list in; EDGE's own route map out; BASE-A (lower id) wins the route map in over BASE-B; PL-B-OUT only BASE-B sets.
    expect(body.context.sessions[0].address_families).toEqual([
      {
        afi: 'ipv4-unicast',
        route_map_in: { name: 'RM-A-IN' },
        route_map_out: { name: 'RM-EDGE-OUT' },
        prefix_list_in: { name: 'PL-OWN-IN' },
        prefix_list_out: { name: 'PL-B-OUT' },
      },
    ]);
    expect(body.context.route_maps.map((routeMap: any) => routeMap.name)).toEqual(['RM-A-IN', 'RM-EDGE-OUT']);
    expect(body.context.prefix_lists.map((list: any) => list.name)).toEqual(['PL-B-OUT', 'PL-OWN-IN']);
  });

  it('a password inherited from a session template needs change permission on the template too', async () => {
    const inherited = await render(peerChanger, [fx.inheritingSession, fx.ownSession]);
    expect(inherited.context.sessions[0]).not.toHaveProperty('password');
    expect(inherited.context.sessions[1].password).toBe('own-secret');
    expect(JSON.stringify(inherited)).not.toContain('gp-secret');
  });

  it('refuses a session or policy template chain that loops with a 400 naming the field', async () => {
    const sessionLoop = await root.patch(`${R}/bgp-session-templates/${fx.grandparent.id}/`, { parent: fx.child.id });
    expect(sessionLoop.status).toBe(400);
    expect(sessionLoop.body).toEqual({ parent: ['A session template cannot inherit from one of its own descendants.'] });
    const policyLoop = await root.patch(`${R}/bgp-policy-templates/${fx.baseA.id}/`, { parents: [fx.edge.id] });
    expect(policyLoop.status).toBe(400);
    expect(policyLoop.body).toEqual({ parents: ['A policy template cannot inherit from one of its own descendants.'] });
    expect((await root.get(`${R}/bgp-session-templates/${fx.grandparent.id}/`)).body.parent).toBeNull();
  });

  it('a loop written behind the API (two concurrent writers) still renders: each template is read once, the nearest value wins', async () => {
    await seeded.db.query('UPDATE routing_bgpsessiontemplate SET parent_id = $1 WHERE id = $2', [fx.child.id, fx.grandparent.id]);
    await seeded.db.query('INSERT INTO routing_bgppolicytemplate_parents (bgppolicytemplate_id, to_bgppolicytemplate_id) VALUES ($1, $2)', [
      fx.baseA.id,
      fx.edge.id,
    ]);
    try {
      const body = await render(root, [fx.inheritingSession]);
      expect(body.content).toBe('inheriting local-as 64501 peer-as 65010 ttl 3 bfd slow auth gp-secret;');
      expect(body.context.sessions[0].address_families[0].route_map_in).toEqual({ name: 'RM-A-IN' });
    } finally {
      await seeded.db.query('UPDATE routing_bgpsessiontemplate SET parent_id = NULL WHERE id = $1', [fx.grandparent.id]);
      await seeded.db.query('DELETE FROM routing_bgppolicytemplate_parents WHERE bgppolicytemplate_id = $1', [fx.baseA.id]);
    }
  });
});
