import { PASSWORD } from '../../../../test/support/api-client';
import { PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const P = '/api/plugins/peering';
const R = '/api/plugins/routing';
const RENDER = `${P}/render-config/`;

/**
 * Who may render what through the peering plugin's render-config (default settings): sessions only
 * as far as the caller may view them, BGP passwords only of peers it may also change, and ids it may
 * not view answered exactly as ids that do not exist.
 */
describe('platform peering render-config: authorization', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  /** No permission at all. */
  let nobody: PlatformClient;
  /** Views templates, device edge-a, the session with service reference VISIBLE and every BGP peer; changes nothing. */
  let viewer: PlatformClient;
  /** Views templates, devices, sessions and BGP peers; may change the BGP peer named "open" only. */
  let changer: PlatformClient;
  const fx: Record<string, any> = {};

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    const { w } = seeded;
    const site = await root.created('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' });
    const manufacturer = await root.created('/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'ASR9k', slug: 'asr9k' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
    const device = (name: string) => root.created('/api/dcim/devices/', { name, device_type: deviceType.id, role: role.id, site: site.id });
    fx.deviceA = await device('edge-a');
    fx.deviceB = await device('edge-b');
    const rir = await root.created('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
    const localAsn = await root.created('/api/ipam/asns/', { asn: 64512, rir: rir.id });
    const remoteAsn = await root.created('/api/ipam/asns/', { asn: 65001, rir: rir.id });
    const ip = async (address: string) => (await root.created('/api/ipam/ip-addresses/', { address })).id;
    const scopeOf = async (deviceId: number) => {
      const router = await root.created(`${R}/bgp-routers/`, { device: deviceId, asn: localAsn.id });
      return (await root.created(`${R}/bgp-scopes/`, { router: router.id })).id;
    };
    const scopeA = await scopeOf(fx.deviceA.id);
    const scopeB = await scopeOf(fx.deviceB.id);
    const session = async (scope: number, name: string, address: string, password: string, reference: string) => {
      const peer = await root.created(`${R}/bgp-peers/`, { scope, name, peer: await ip(address), remote_as: remoteAsn.id, password });
      return root.created(`${P}/peering-session/`, { bgp_peer: peer.id, service_reference: reference });
    };
    fx.open = await session(scopeA, 'open', '10.0.0.2/30', 'open-secret', 'VISIBLE');
    fx.hidden = await session(scopeA, 'hidden', '10.0.0.6/30', 'hidden-secret', 'HIDDEN');
    fx.elsewhere = await session(scopeB, 'elsewhere', '10.0.1.2/30', 'elsewhere-secret', 'ELSEWHERE');
    fx.template = await root.created('/api/extras/config-templates/', {
      name: 'neighbors',
      template_code: '{% for s in sessions %}{{ s.service_reference }} {{ s.remote_ip }} pw={{ s.password }};{% endfor %}',
    });

    const grant = (userId: number, name: string, objectType: string, actions: string[], constraints: unknown = null) =>
      root.created('/api/users/permissions/', { name, object_types: [objectType], actions, users: [userId], constraints });
    await grant(w.user1.id, 'viewer templates', 'extras.configtemplate', ['view']);
    await grant(w.user1.id, 'viewer devices', 'dcim.device', ['view'], { name: 'edge-a' });
    await grant(w.user1.id, 'viewer sessions', 'peering.peeringsession', ['view'], { service_reference: 'VISIBLE' });
    await grant(w.user1.id, 'viewer peers', 'routing.bgppeer', ['view']);
    await grant(w.user2.id, 'changer templates', 'extras.configtemplate', ['view']);
    await grant(w.user2.id, 'changer devices', 'dcim.device', ['view']);
    await grant(w.user2.id, 'changer sessions', 'peering.peeringsession', ['view']);
    await grant(w.user2.id, 'changer peers', 'routing.bgppeer', ['view']);
    await grant(w.user2.id, 'changer peer open', 'routing.bgppeer', ['change'], { name: 'open' });
    nobody = root.as(await provisionToken(seeded.api, w.loner.username, PASSWORD));
    viewer = root.as(await provisionToken(seeded.api, w.user1.username, PASSWORD));
    changer = root.as(await provisionToken(seeded.api, w.user2.username, PASSWORD));
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('a token without any permission renders nothing and sees no password, with or without include_context', async () => {
    for (const path of [RENDER, `${RENDER}?include_context=true`]) {
      const response = await nobody.post(path, { template: fx.template.id, sessions: [fx.open.id] });
      expect({ path, status: response.status, leaked: response.text.includes('open-secret') }).toEqual({
        path,
        status: 400,
        leaked: false,
      });
      expect(Object.keys(response.body).sort()).toEqual(['sessions', 'template']);
    }
    const byDevice = await nobody.post(`${RENDER}?include_context=true`, { template: fx.template.id, device: fx.deviceA.id });
    expect({ status: byDevice.status, leaked: /secret/.test(byDevice.text) }).toEqual({ status: 400, leaked: false });
  });

  it('include_context=true gives a viewer without change permission neither the password in the content nor in the context', async () => {
    const response = await viewer.post(`${RENDER}?include_context=true`, { template: fx.template.id, sessions: [fx.open.id] });
    expect(response.status).toBe(200);
    expect(response.body.content).toBe('VISIBLE 10.0.0.2 pw=;');
    expect(response.body.context.sessions).toHaveLength(1);
    expect(response.body.context.sessions[0]).toMatchObject({ id: fx.open.id, service_reference: 'VISIBLE', remote_ip: '10.0.0.2' });
    expect(response.body.context.sessions[0]).not.toHaveProperty('password');
    expect(response.text).not.toContain('open-secret');
  });

  it('a device request renders only the sessions the caller may view', async () => {
    const response = await viewer.post(`${RENDER}?include_context=true`, { template: fx.template.id, device: fx.deviceA.id });
    expect(response.status).toBe(200);
    expect({ count: response.body.session_count, content: response.body.content }).toEqual({ count: 1, content: 'VISIBLE 10.0.0.2 pw=;' });
    expect(response.body.context.sessions.map((session: { id: number }) => session.id)).toEqual([fx.open.id]);
    expect(response.text).not.toMatch(/HIDDEN|hidden-secret/);
  });

  it('the password of a BGP peer appears only to a caller who may view and change that peer', async () => {
    const response = await changer.post(`${RENDER}?include_context=true`, { template: fx.template.id, device: fx.deviceA.id });
    expect(response.status).toBe(200);
    expect(response.body.content).toBe('VISIBLE 10.0.0.2 pw=open-secret;HIDDEN 10.0.0.6 pw=;');
    const [open, hidden] = response.body.context.sessions;
    expect(open).toMatchObject({ id: fx.open.id, password: 'open-secret' });
    expect(hidden.id).toBe(fx.hidden.id);
    expect(hidden).not.toHaveProperty('password');
    expect(response.text).not.toContain('hidden-secret');
    const superuser = await root.post(RENDER, { template: fx.template.id, device: fx.deviceA.id });
    expect(superuser.body.content).toBe('VISIBLE 10.0.0.2 pw=open-secret;HIDDEN 10.0.0.6 pw=hidden-secret;');
  });

  it('an id the caller may not view is answered exactly as an id that does not exist (same status, same body)', async () => {
    /** The answer, with the id under test named "ID" in its field's messages (the message names the id given). */
    const answer = async (client: PlatformClient, body: Record<string, unknown>, field: string, id: number) => {
      const response = await client.post(RENDER, body);
      const messages = (response.body[field] ?? []) as string[];
      return {
        status: response.status,
        body: { ...response.body, [field]: messages.map((message) => message.replace(`"${id}"`, '"ID"')) },
      };
    };
    const missing = 2_000_000_000;
    const cases: Array<[PlatformClient, string, (id: number) => Record<string, unknown>, number]> = [
      [viewer, 'sessions', (id) => ({ template: fx.template.id, sessions: [id] }), fx.hidden.id],
      [viewer, 'sessions', (id) => ({ template: fx.template.id, sessions: [fx.open.id, id] }), fx.elsewhere.id],
      [viewer, 'device', (id) => ({ template: fx.template.id, device: id }), fx.deviceB.id],
      [nobody, 'template', (id) => ({ template: id, device: fx.deviceA.id }), fx.template.id],
    ];
    for (const [client, field, body, invisible] of cases) {
      const seen = await answer(client, body(invisible), field, invisible);
      expect({ field, status: seen.status }).toEqual({ field, status: 400 });
      expect(seen).toEqual(await answer(client, body(missing), field, missing));
    }
  });

  it('ids beyond PostgreSQL integer range are a 400 naming the field, never a 500', async () => {
    const huge = 3_000_000_000;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ template: huge, device: fx.deviceA.id }, 'template'],
      [{ template: fx.template.id, device: huge }, 'device'],
      [{ template: fx.template.id, sessions: [fx.open.id, huge] }, 'sessions'],
    ];
    for (const [body, field] of cases) {
      const response = await root.post(RENDER, body);
      expect({ body, status: response.status, fields: Object.keys(response.body) }).toEqual({ body, status: 400, fields: [field] });
    }
  });
});
