import { countRows, PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const R = '/api/plugins/routing';
const SESSION_TEMPLATES = `${R}/bgp-session-templates/`;
const POLICY_TEMPLATES = `${R}/bgp-policy-templates/`;
const SETTINGS = `${R}/bgp-settings/`;

/**
 * The rules of the routing models netbox-routing has beside routers and peers: template chains
 * without cycles, templates in use kept, typed BGP settings one per key, communities unique. The
 * generic contract of each is in routing-policy-api.e2e-spec.ts.
 */
describe('platform routing plugin: templates, settings and communities', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  const fx: Record<string, any> = {};

  beforeAll(async () => {
    ({ seeded, api } = await startPlatformApp());
    const site = await api.created('/api/dcim/sites/', { name: 'DC9', slug: 'dc9' });
    const manufacturer = await api.created('/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' });
    const deviceType = await api.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'ASR9k', slug: 'asr9k' });
    const role = await api.created('/api/dcim/device-roles/', { name: 'Border', slug: 'border' });
    const device = await api.created('/api/dcim/devices/', { name: 'br1', device_type: deviceType.id, role: role.id, site: site.id });
    const rir = await api.created('/api/ipam/rirs/', { name: 'RFC 6996', slug: 'rfc-6996', is_private: true });
    const asn = await api.created('/api/ipam/asns/', { asn: 65100, rir: rir.id });
    fx.router = await api.created(`${R}/bgp-routers/`, { device: device.id, asn: asn.id });
    fx.scope = await api.created(`${R}/bgp-scopes/`, { router: fx.router.id });
    fx.ip = await api.created('/api/ipam/ip-addresses/', { address: '192.0.2.9/31' });
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('a session template inherits from a parent; a chain that would loop is refused on parent', async () => {
    const base = await api.created(SESSION_TEMPLATES, { name: 'ST-BASE', ttl: 64 });
    const middle = await api.created(SESSION_TEMPLATES, { name: 'ST-MIDDLE', parent: base.id });
    const leaf = await api.created(SESSION_TEMPLATES, { name: 'ST-LEAF', parent: middle.id });
    expect(leaf.parent).toMatchObject({ id: middle.id, name: 'ST-MIDDLE' });
    const loop = await api.patch(`${SESSION_TEMPLATES}${base.id}/`, { parent: leaf.id });
    expect(loop.status).toBe(400);
    expect(loop.body).toEqual({ parent: ['A session template cannot inherit from one of its own descendants.'] });
    const self = await api.patch(`${SESSION_TEMPLATES}${base.id}/`, { parent: base.id });
    expect(self.body).toEqual({ parent: ['A session template cannot be its own parent.'] });
    expect((await api.get(`${SESSION_TEMPLATES}${base.id}/`)).body.parent).toBeNull();
    // A parent in use is kept, as upstream's PROTECT.
    expect((await api.delete(`${SESSION_TEMPLATES}${middle.id}/`)).status).toBe(409);
    fx.sessionTemplate = leaf;
  });

  it('a peer names its session template; a template a peer uses cannot be deleted', async () => {
    const peer = await api.created(`${R}/bgp-peers/`, { scope: fx.scope.id, peer: fx.ip.id, peer_session: fx.sessionTemplate.id });
    expect(peer.peer_session).toMatchObject({ id: fx.sessionTemplate.id, name: 'ST-LEAF' });
    expect((await api.delete(`${SESSION_TEMPLATES}${fx.sessionTemplate.id}/`)).status).toBe(409);
    expect((await api.get(`${R}/bgp-peers/?peer_session_id=${fx.sessionTemplate.id}`)).body.count).toBe(1);
    fx.peer = peer;
  });

  it('a policy template has several parents; a cycle through them is refused on parents', async () => {
    const a = await api.created(POLICY_TEMPLATES, { name: 'PT-A' });
    const b = await api.created(POLICY_TEMPLATES, { name: 'PT-B', parents: [a.id] });
    const c = await api.created(POLICY_TEMPLATES, { name: 'PT-C', parents: [{ id: a.id }, b.id] });
    expect(c.parents.map((parent: any) => parent.name).sort()).toEqual(['PT-A', 'PT-B']);
    const loop = await api.patch(`${POLICY_TEMPLATES}${a.id}/`, { parents: [c.id] });
    expect(loop.status).toBe(400);
    expect(loop.body).toEqual({ parents: ['A policy template cannot inherit from one of its own descendants.'] });
    expect((await api.patch(`${POLICY_TEMPLATES}${a.id}/`, { parents: [a.id] })).body).toEqual({
      parents: ['A policy template cannot be its own parent.'],
    });
    expect(await countRows(seeded.db, 'routing_bgppolicytemplate_parents', 'WHERE bgppolicytemplate_id = $1', [a.id])).toBe(0);
    // A peer address family names its policy template, which is then kept.
    const family = await api.created(`${R}/bgp-peer-address-families/`, {
      assigned_peer: fx.peer.id,
      afi: 'ipv4-unicast',
      peer_policy: c.id,
    });
    expect(family.peer_policy).toMatchObject({ id: c.id, name: 'PT-C' });
    expect((await api.delete(`${POLICY_TEMPLATES}${c.id}/`)).status).toBe(409);
  });

  it('a BGP setting is typed by its key, one per object and key, and goes with its object', async () => {
    const router = await api.created(SETTINGS, {
      assigned_object_type: 'routing.bgprouter',
      assigned_object_id: fx.router.id,
      key: 'router_id',
      value: '192.0.2.254',
    });
    expect(router).toMatchObject({
      assigned_object_type: 'routing.bgprouter',
      assigned_object_id: fx.router.id,
      assigned_object: { id: fx.router.id },
      key: { value: 'router_id', label: 'Router ID' },
      value: '192.0.2.254',
      display: 'router_id: 192.0.2.254',
    });
    const duplicate = await api.post(SETTINGS, {
      assigned_object_type: 'routing.bgprouter',
      assigned_object_id: fx.router.id,
      key: 'router_id',
      value: '192.0.2.253',
    });
    expect(duplicate.status).toBe(400);
    const boolean = await api.post(SETTINGS, {
      assigned_object_type: 'routing.bgprouter',
      assigned_object_id: fx.router.id,
      key: 'graceful_restart',
      value: 'yes',
    });
    expect(boolean.body).toEqual({ value: ['graceful_restart must be true or false.'] });
    const scopeSetting = await api.created(SETTINGS, {
      assigned_object_type: 'routing.bgpscope',
      assigned_object_id: fx.scope.id,
      key: 'timers_hold',
      value: '90',
    });
    const unknownObject = await api.post(SETTINGS, {
      assigned_object_type: 'routing.bgpscope',
      assigned_object_id: 2_147_483_000,
      key: 'timers_keepalive',
      value: '30',
    });
    expect(unknownObject.status).toBe(400);
    expect((await api.get(`${R}/bgp-scopes/${fx.scope.id}/`)).status).toBe(200);
    await api.delete(`${R}/bgp-peers/${fx.peer.id}/`);
    expect((await api.delete(`${R}/bgp-scopes/${fx.scope.id}/`)).status).toBe(204);
    expect(await countRows(seeded.db, 'routing_bgpsetting', 'WHERE id = $1', [scopeSetting.id])).toBe(0);
    expect(await countRows(seeded.db, 'routing_bgpsetting', 'WHERE id = $1', [router.id])).toBe(1);
  });

  it('a community value is unique; deleting a community deletes the list entries naming it', async () => {
    const community = await api.created(`${R}/communities/`, { community: '65100:1' });
    const again = await api.post(`${R}/communities/`, { community: '65100:1', name: 'again' });
    expect(again.status).toBe(400);
    expect(Object.keys(again.body)).toEqual(['community']);
    const list = await api.created(`${R}/community-lists/`, { name: 'CL-ONE' });
    const entry = await api.created(`${R}/community-list-entries/`, { community_list: list.id, action: 'permit', community: community.id });
    expect(entry.community).toMatchObject({ id: community.id, community: '65100:1' });
    expect((await api.delete(`${R}/communities/${community.id}/`)).status).toBe(204);
    expect(await countRows(seeded.db, 'routing_communitylistentry', 'WHERE id = $1', [entry.id])).toBe(0);
  });
});
