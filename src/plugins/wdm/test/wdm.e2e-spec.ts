import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { PASSWORD } from '../../../../test/support/api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';
import { SETUP_HOOK_TIMEOUT_MS } from '../../../../test/support/timing';

const W = '/api/plugins/wdm';
const PROFILES = `${W}/wdm-profiles/`;
const CHANNEL_PLANS = `${W}/wdm-channel-plans/`;
const LINE_PORT_PLANS = `${W}/wdm-line-port-plans/`;
const NODES = `${W}/wdm-nodes/`;
const LINE_PORTS = `${W}/wdm-line-ports/`;
const CHANNELS = `${W}/wdm-channels/`;
const CIRCUITS = `${W}/wdm-circuits/`;
const PATHS = `${W}/wdm-wavelength-paths/`;

const REFERENCE_QUERY = `query ($filters: WdmNodeFilter) {
  wdm_node_list(filters: $filters) {
    id display grid node_type port_sync_valid
    line_ports { id direction role rear_port { id name } }
    channels { id grid_position label wavelength_nm status }
  }
}`;

/**
 * The wdm plugin as a transport planner uses it: profiles of two ROADM device types with their ITU
 * channel plans, nodes built from them, a cable between two ROADMs, mappings applied (and refused),
 * ports synced, a channel traced across the cable, a circuit stitched and decommissioned; GraphQL read-only.
 */
describe('platform wdm plugin: profiles, nodes, mappings, paths, circuits', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};
  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);
  const graphql = (query: string, variables?: Record<string, unknown>) => root.post('/graphql/', { query, variables });

  /** A device type with front-port templates M1..M4 and D1..D4 and rear-port templates LINE-TX and LINE-RX (44 positions). */
  const roadmType = async (model: string) => {
    const type = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model, slug: model.toLowerCase() });
    const templates: Record<string, any> = {};
    for (const name of ['LINE-TX', 'LINE-RX']) {
      templates[name] = await root.created('/api/dcim/rear-port-templates/', { device_type: type.id, name, type: 'lc', positions: 44 });
    }
    for (const name of ['M1', 'M2', 'M3', 'M4', 'D1', 'D2', 'D3', 'D4']) {
      templates[name] = await root.created('/api/dcim/front-port-templates/', { device_type: type.id, name, type: 'lc' });
    }
    return { type, templates };
  };

  /** A profile with channels at positions 1..3 (mux Mi, demux Di) and the two line ports. */
  const profileOf = async (type: { type: any; templates: Record<string, any> }, nodeType: string, grid = 'dwdm_c_100ghz') => {
    const profile = await root.created(PROFILES, { device_type: type.type.id, node_type: nodeType, grid });
    await root.created(
      CHANNEL_PLANS,
      [1, 2, 3].map((position) => ({
        profile: profile.id,
        grid_position: position,
        mux_front_port_template: type.templates[`M${position}`].id,
        demux_front_port_template: type.templates[`D${position}`].id,
      })),
    );
    await root.created(LINE_PORT_PLANS, [
      { profile: profile.id, rear_port_template: type.templates['LINE-TX'].id, direction: 'east', role: 'tx' },
      { profile: profile.id, rear_port_template: type.templates['LINE-RX'].id, direction: 'east', role: 'rx' },
    ]);
    return profile;
  };

  const device = (name: string, typeId: number) =>
    root.created('/api/dcim/devices/', { name, device_type: typeId, role: fx.role.id, site: fx.site.id });
  const port = async (deviceId: number, name: string, kind: 'front-ports' | 'rear-ports' = 'front-ports') =>
    (await root.get(`/api/dcim/${kind}/?device_id=${deviceId}&name=${name}`)).body.results[0];
  /** The node the plugin created for a device of a profiled device type. */
  const nodeOfDevice = async (deviceId: number) => {
    const list = await root.get(`${NODES}?device_id=${deviceId}`);
    expect(list.body.count).toBe(1);
    return list.body.results[0];
  };
  const channelsOf = async (nodeId: number) => (await root.get(`${CHANNELS}?wdm_node_id=${nodeId}&ordering=grid_position`)).body.results;

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    fx.site = await root.created('/api/dcim/sites/', { name: 'POP-W', slug: 'pop-w' });
    fx.maker = await root.created('/api/dcim/manufacturers/', { name: 'Ciena', slug: 'ciena' });
    fx.role = await root.created('/api/dcim/device-roles/', { name: 'Optical', slug: 'optical' });
    fx.roadm = await roadmType('ROADM-9');
    fx.roadmProfile = await profileOf(fx.roadm, 'roadm');
    fx.a = await device('roadm-a', fx.roadm.type.id);
    fx.b = await device('roadm-b', fx.roadm.type.id);
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('profiles and ITU channel plans', () => {
    it('computes label and wavelength of the first, a 50 GHz half step and the last channel; refuses a position off the grid', async () => {
      const type = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'MUX-88', slug: 'mux-88' });
      const profile = await root.created(PROFILES, { device_type: type.id, node_type: 'terminal_mux', grid: 'dwdm_c_50ghz' });
      const plans = await root.created(
        CHANNEL_PLANS,
        [1, 2, 88].map((position) => ({ profile: profile.id, grid_position: position })),
      );
      const stored = await Promise.all(plans.map(async (plan: any) => (await root.get(`${CHANNEL_PLANS}${plan.id}/`)).body));
      expect(stored.map((plan: any) => [plan.grid_position, plan.label, Number(plan.wavelength_nm)])).toEqual([
        [1, 'C21', 1560.61],
        [2, 'C21.5', 1560.2],
        [88, 'C64.5', 1526.05],
      ]);
      const off = await root.post(CHANNEL_PLANS, { profile: profile.id, grid_position: 89 });
      expect(off.status).toBe(400);
      expect(off.body.grid_position[0]).toContain('not on the dwdm_c_50ghz grid');
      // The label is computed, never written.
      const written = await root.post(CHANNEL_PLANS, { profile: profile.id, grid_position: 3, label: 'mine', wavelength_nm: 1 });
      expect(written.status).toBe(201);
      expect((await root.get(`${CHANNEL_PLANS}${written.body.id}/`)).body).toMatchObject({ label: 'C22', wavelength_nm: 1559.79 });
    });

    it('computes the CWDM and L-band ends', async () => {
      const cases: Array<[string, number, string, number]> = [
        ['cwdm', 1, 'CWDM-1270', 1270],
        ['cwdm', 18, 'CWDM-1610', 1610],
        ['dwdm_l_100ghz', 1, 'L184.50', 1624.89],
        ['dwdm_l_100ghz', 72, 'L191.60', 1564.68],
        ['dwdm_c_100ghz', 44, 'C64', 1526.44],
      ];
      for (const [grid, position, label, wavelength] of cases) {
        const type = await root.created('/api/dcim/device-types/', {
          manufacturer: fx.maker.id,
          model: `G-${grid}-${position}`,
          slug: `g-${grid}-${position}`.replace(/_/g, '-'),
        });
        const profile = await root.created(PROFILES, { device_type: type.id, node_type: 'terminal_mux', grid });
        const plan = await root.created(CHANNEL_PLANS, { profile: profile.id, grid_position: position });
        expect((await root.get(`${CHANNEL_PLANS}${plan.id}/`)).body).toMatchObject({ label, wavelength_nm: wavelength });
      }
    });

    it('refuses a profile of both a device type and a module type, or of neither (400)', async () => {
      const moduleType = await root.created('/api/dcim/module-types/', { manufacturer: fx.maker.id, model: 'WSS card' });
      const type = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'Chassis', slug: 'chassis' });
      const both = await root.post(PROFILES, { device_type: type.id, module_type: moduleType.id, node_type: 'roadm', grid: 'cwdm' });
      expect(both.status).toBe(400);
      expect(both.body.non_field_errors[0]).toContain('Exactly one of device_type and module_type');
      const neither = await root.post(PROFILES, { node_type: 'roadm', grid: 'cwdm' });
      expect(neither.status).toBe(400);
      expect((await root.post(PROFILES, { module_type: moduleType.id, node_type: 'roadm', grid: 'cwdm' })).status).toBe(201);
      expect((await root.post(PROFILES, { device_type: type.id, node_type: 'roadm', grid: 'bogus' })).body.grid).toBeDefined();
    });

    it("refuses a plan's template of another device type", async () => {
      const other = await roadmType('OTHER-1');
      const response = await root.post(CHANNEL_PLANS, {
        profile: fx.roadmProfile.id,
        grid_position: 10,
        mux_front_port_template: other.templates.M1.id,
      });
      expect(response.status).toBe(400);
      expect(response.body.mux_front_port_template[0]).toContain("profile's device type");
    });
  });

  describe('nodes', () => {
    it("a device of a profiled type is a node of the profile's type and grid, its channels and line ports matched by template name", async () => {
      fx.nodeA = await nodeOfDevice(fx.a.id);
      expect(fx.nodeA).toMatchObject({ node_type: { value: 'roadm' }, grid: { value: 'dwdm_c_100ghz' } });
      const channels = await channelsOf(fx.nodeA.id);
      fx.portsA = Object.fromEntries(
        await Promise.all(['M1', 'M2', 'M3', 'M4', 'D1', 'D2', 'D3'].map(async (name) => [name, await port(fx.a.id, name)])),
      );
      expect(channels.map((channel: any) => [channel.grid_position, channel.label, channel.wavelength_nm, channel.status.value])).toEqual([
        [1, 'C21', 1560.61, 'available'],
        [2, 'C22', 1559.79, 'available'],
        [3, 'C23', 1558.98, 'available'],
      ]);
      expect(channels.map((channel: any) => [channel.mux_front_port.id, channel.demux_front_port.id])).toEqual([
        [fx.portsA.M1.id, fx.portsA.D1.id],
        [fx.portsA.M2.id, fx.portsA.D2.id],
        [fx.portsA.M3.id, fx.portsA.D3.id],
      ]);
      const linePorts = (await root.get(`${LINE_PORTS}?wdm_node_id=${fx.nodeA.id}`)).body.results;
      expect(linePorts.map((line: any) => [line.rear_port.name, line.direction.value, line.role.value])).toEqual([
        ['LINE-TX', 'east', 'tx'],
        ['LINE-RX', 'east', 'rx'],
      ]);
      fx.channelsA = channels;
      expect((await root.get(`${NODES}${fx.nodeA.id}/`)).body.expected_port_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('one node per device; a second is refused and builds nothing', async () => {
      const again = await root.post(NODES, { device: fx.a.id, node_type: 'roadm', grid: 'dwdm_c_100ghz' });
      expect(again.status).toBe(400);
      expect(again.body.device).toBeDefined();
      expect(await count('wdm_wdmchannel', 'WHERE wdm_node_id = $1', [fx.nodeA.id])).toBe(3);
    });

    it('amplifiers get their line ports and no channels', async () => {
      const ampType = await roadmType('AMP-1');
      await profileOf(ampType, 'amplifier');
      const amp = await device('amp-1', ampType.type.id);
      const node = await nodeOfDevice(amp.id);
      expect(node.node_type.value).toBe('amplifier');
      expect(await count('wdm_wdmchannel', 'WHERE wdm_node_id = $1', [node.id])).toBe(0);
      const linePorts = (await root.get(`${LINE_PORTS}?wdm_node_id=${node.id}`)).body.results;
      expect(linePorts.map((line: any) => [line.rear_port.name, line.role.value])).toEqual([
        ['LINE-TX', 'tx'],
        ['LINE-RX', 'rx'],
      ]);
    });

    it('a fixed node allows only channel status changes', async () => {
      const muxType = await roadmType('FIXED-MUX');
      await profileOf(muxType, 'terminal_mux');
      const mux = await device('mux-1', muxType.type.id);
      const node = await nodeOfDevice(mux.id);
      const [first] = await channelsOf(node.id);
      const spare = await port(mux.id, 'M4');
      const remap = await root.patch(`${CHANNELS}${first.id}/`, { mux_front_port: spare.id });
      expect(remap.status).toBe(400);
      expect(remap.body.non_field_errors[0]).toContain('only the channel status may change');
      expect((await root.patch(`${CHANNELS}${first.id}/`, { status: 'reserved' })).body.status.value).toBe('reserved');
      const applied = await root.post(`${NODES}${node.id}/apply-mapping/`, { last_updated: node.last_updated, mapping: {} });
      expect(applied.status).toBe(400);
      expect(applied.body.errors[0]).toContain('fixed terminal_mux node');
    });
  });

  describe('apply-mapping', () => {
    const lastUpdated = async () => (await root.get(`${NODES}${fx.nodeA.id}/`)).body.last_updated as string;
    const mappingsOf = async (deviceId: number) =>
      (
        await seeded.db.query(
          'SELECT front_port_id, rear_port_id, rear_port_position FROM dcim_portmapping WHERE device_id = $1 ORDER BY front_port_id',
          [deviceId],
        )
      ).rows;

    it('remaps a channel, rewrites the port mappings and answers the counts and the new last_updated', async () => {
      const before = await lastUpdated();
      const [ch1] = fx.channelsA;
      const response = await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: before,
        mapping: { [ch1.id]: { mux: fx.portsA.M4.id } },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ added: 0, removed: 0, changed: 1, last_updated: expect.any(String) });
      expect(response.body.last_updated).not.toBe(before);
      expect(await lastUpdated()).toBe(response.body.last_updated);
      expect((await root.get(`${CHANNELS}${ch1.id}/`)).body.mux_front_port.id).toBe(fx.portsA.M4.id);
      const tx = await port(fx.a.id, 'LINE-TX', 'rear-ports');
      const rx = await port(fx.a.id, 'LINE-RX', 'rear-ports');
      const mappings = await mappingsOf(fx.a.id);
      expect(mappings).toContainEqual({ front_port_id: fx.portsA.M4.id, rear_port_id: tx.id, rear_port_position: 1 });
      expect(mappings).toContainEqual({ front_port_id: fx.portsA.D3.id, rear_port_id: rx.id, rear_port_position: 3 });
      expect(mappings.some((mapping: any) => mapping.front_port_id === fx.portsA.M1.id)).toBe(false);
      expect(mappings).toHaveLength(6);
      expect((await root.get(`${NODES}${fx.nodeA.id}/`)).body.port_sync_valid).toBe(true);
    });

    it('the legacy form "<ch>": fp sets the mux port; unknown channel ids are skipped', async () => {
      const [ch1] = fx.channelsA;
      const response = await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: await lastUpdated(),
        mapping: { [ch1.id]: fx.portsA.M1.id, 999999: fx.portsA.M4.id },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ added: 0, removed: 0, changed: 1 });
      expect((await root.get(`${CHANNELS}${ch1.id}/`)).body.mux_front_port.id).toBe(fx.portsA.M1.id);
    });

    it('a stale last_updated answers 409 and changes nothing', async () => {
      const stale = fx.nodeA.last_updated as string;
      const response = await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: stale,
        mapping: { [fx.channelsA[0].id]: { mux: fx.portsA.M4.id } },
      });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: 'Node was modified since editor loaded. Please reload.' });
      expect((await root.get(`${CHANNELS}${fx.channelsA[0].id}/`)).body.mux_front_port.id).toBe(fx.portsA.M1.id);
    });

    it('refuses a remapped active channel, a port used twice and a port outside the channel’s module (400 errors), writing nothing', async () => {
      const [ch1, ch2, ch3] = fx.channelsA;
      const bayA = await root.created('/api/dcim/module-bays/', { device: fx.a.id, name: 'Slot 1' });
      const cardType = await root.created('/api/dcim/module-types/', { manufacturer: fx.maker.id, model: 'Amp card' });
      const card = await root.created('/api/dcim/modules/', { device: fx.a.id, module_bay: bayA.id, module_type: cardType.id });
      const cardPort = await root.created('/api/dcim/front-ports/', { device: fx.a.id, module: card.id, name: 'CARD-1', type: 'lc' });
      const elsewhere = await port(fx.b.id, 'M4');
      await root.patch(`${CHANNELS}${ch2.id}/`, { status: 'active' });
      const before = await lastUpdated();
      const response = await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: before,
        mapping: {
          [ch1.id]: { mux: fx.portsA.M3.id },
          [ch2.id]: { mux: fx.portsA.M4.id },
          [ch3.id]: { mux: cardPort.id, demux: elsewhere.id },
        },
      });
      expect(response.status).toBe(400);
      const errors: string[] = response.body.errors;
      expect(errors.some((error) => error.includes('is active: release it'))).toBe(true);
      expect(errors.some((error) => error.includes(`Front port ${cardPort.id} is outside the module`))).toBe(true);
      expect(errors.some((error) => error.includes(`Front port ${elsewhere.id} is not a port of the node's device`))).toBe(true);
      const twice = await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: before,
        mapping: { [ch1.id]: { mux: fx.portsA.M3.id } },
      });
      expect(twice.status).toBe(400);
      expect(twice.body.errors).toEqual([expect.stringContaining(`Front port ${fx.portsA.M3.id} is used by more than one channel`)]);
      expect(await lastUpdated()).toBe(before);
      expect((await root.get(`${CHANNELS}${ch1.id}/`)).body.mux_front_port.id).toBe(fx.portsA.M1.id);
      await root.patch(`${CHANNELS}${ch2.id}/`, { status: 'available' });
    });

    it('needs the change permission on the node: a viewer and a read-only token get 403, without credentials 403', async () => {
      const { w } = seeded;
      await root.created('/api/users/permissions/', {
        name: 'wdm viewers',
        object_types: ['wdm.wdmnode', 'wdm.wdmchannel'],
        actions: ['view'],
        users: [w.user1.id],
      });
      const viewer = root.as(await provisionToken(seeded.api, w.user1.username, PASSWORD));
      const readOnly = root.as(await provisionToken(seeded.api, w.root.username, PASSWORD, { write_enabled: false }));
      const body = { last_updated: await lastUpdated(), mapping: {} };
      for (const client of [viewer, readOnly, root.as(undefined)]) {
        expect((await client.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, body)).status).toBe(403);
        expect((await client.post(`${NODES}${fx.nodeA.id}/sync-ports/?dry_run=false`)).status).toBe(403);
      }
      expect(await lastUpdated()).toBe(body.last_updated);
      // Reading is allowed with view.
      expect((await viewer.get(`${CHANNELS}${fx.channelsA[0].id}/trace/`)).status).toBe(200);
      expect((await readOnly.get(`${CHANNELS}${fx.channelsA[0].id}/trace/`)).status).toBe(200);
    });

    it('refuses a malformed body with the field named', async () => {
      const response = await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, { mapping: { x: 'y' } });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body).sort()).toEqual(['last_updated', 'mapping']);
    });

    it('of two concurrent apply-mappings with the same last_updated exactly one wins', async () => {
      const before = await lastUpdated();
      const [ch1] = fx.channelsA;
      const responses = await Promise.all(
        [fx.portsA.M4.id, fx.portsA.M1.id].map((mux) =>
          root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, { last_updated: before, mapping: { [ch1.id]: { mux } } }),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const winner = responses.find((response) => response.status === 200)!;
      expect(await lastUpdated()).toBe(winner.body.last_updated);
      // Put channel 1 back on M1 for what follows.
      await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: await lastUpdated(),
        mapping: { [ch1.id]: { mux: fx.portsA.M1.id } },
      });
    });
  });

  describe('sync-ports', () => {
    it('reports a drift in a dry run, writes nothing, then repairs it', async () => {
      fx.nodeB = await nodeOfDevice(fx.b.id);
      // Port mappings are not written when the node is created: its device has none yet.
      expect((await root.get(`${NODES}${fx.nodeB.id}/`)).body.port_sync_valid).toBe(false);
      const dry = await root.post(`${NODES}${fx.nodeB.id}/sync-ports/`);
      expect(dry.status).toBe(200);
      expect(dry.body).toEqual({
        port_sync_valid: false,
        dry_run: true,
        warnings: { cable_paths_affected: 0, wavelength_services: [] },
        changes: { rear_ports: { create: [] }, front_ports: { create: [] }, port_mappings: { delete: 0, create: 6 } },
      });
      expect(await count('dcim_portmapping', 'WHERE device_id = $1', [fx.b.id])).toBe(0);
      const applied = await root.post(`${NODES}${fx.nodeB.id}/sync-ports/?dry_run=false`);
      expect(applied.body).toMatchObject({ port_sync_valid: true, dry_run: false });
      expect(await count('dcim_portmapping', 'WHERE device_id = $1', [fx.b.id])).toBe(6);
      const again = await root.post(`${NODES}${fx.nodeB.id}/sync-ports/?dry_run=true`);
      expect(again.body).toMatchObject({ port_sync_valid: true, changes: { port_mappings: { delete: 0, create: 0 } } });
      expect((await root.get(`${NODES}${fx.nodeB.id}/`)).body.port_sync_valid).toBe(true);
    });

    it('a channel remapped outside apply-mapping leaves the node out of sync until synced', async () => {
      const [, ch2] = await channelsOf(fx.nodeB.id);
      const spare = await port(fx.b.id, 'M4');
      await root.patch(`${CHANNELS}${ch2.id}/`, { mux_front_port: spare.id });
      expect((await root.get(`${NODES}${fx.nodeB.id}/`)).body.port_sync_valid).toBe(false);
      const dry = await root.post(`${NODES}${fx.nodeB.id}/sync-ports/`);
      expect(dry.body.changes.port_mappings).toEqual({ delete: 1, create: 1 });
      await root.post(`${NODES}${fx.nodeB.id}/sync-ports/?dry_run=false`);
      expect((await root.get(`${NODES}${fx.nodeB.id}/`)).body.port_sync_valid).toBe(true);
      await root.patch(`${CHANNELS}${ch2.id}/`, { mux_front_port: (await port(fx.b.id, 'M2')).id });
      await root.post(`${NODES}${fx.nodeB.id}/sync-ports/?dry_run=false`);
    });

    it('plans the ports its profile names that the device lacks; applying creates them and is idempotent', async () => {
      const c = await device('roadm-c', fx.roadm.type.id);
      await root.delete(`/api/dcim/front-ports/${(await port(c.id, 'M3')).id}/`);
      const node = await nodeOfDevice(c.id);
      const dry = await root.post(`${NODES}${node.id}/sync-ports/`);
      expect(dry.body.changes.front_ports).toEqual({ create: [{ name: 'M3', type: 'lc' }] });
      expect(dry.body.port_sync_valid).toBe(false);
      expect((await root.post(`${NODES}${node.id}/sync-ports/?dry_run=false`)).body.port_sync_valid).toBe(true);
      const created = await port(c.id, 'M3');
      expect(created).toBeDefined();
      // The channel that lacked its mux port has it now, and its mapping is written.
      const third = (await channelsOf(node.id))[2];
      expect(third.mux_front_port.id).toBe(created.id);
      expect(await count('dcim_portmapping', 'WHERE front_port_id = $1', [created.id])).toBe(1);
      expect((await root.post(`${NODES}${node.id}/sync-ports/?dry_run=false`)).status).toBe(200);
      expect(await count('wdm_wdmchannel', 'WHERE wdm_node_id = $1', [node.id])).toBe(3);
      expect(await count('wdm_wdmlineport', 'WHERE wdm_node_id = $1', [node.id])).toBe(2);
    });

    it('refuses a dry_run that is not a boolean', async () => {
      const response = await root.post(`${NODES}${fx.nodeB.id}/sync-ports/?dry_run=maybe`);
      expect(response.status).toBe(400);
      expect(response.body.dry_run).toBeDefined();
    });
  });

  describe('trace, wavelength paths, circuits', () => {
    beforeAll(async () => {
      // roadm-a LINE-TX → roadm-b LINE-RX, then both nodes' mappings rewritten: their paths are derived.
      const near = await port(fx.a.id, 'LINE-TX', 'rear-ports');
      const far = await port(fx.b.id, 'LINE-RX', 'rear-ports');
      fx.cable = await root.created('/api/dcim/cables/', {
        label: 'span-ab',
        a_terminations: [{ object_type: 'dcim.rearport', object_id: near.id }],
        b_terminations: [{ object_type: 'dcim.rearport', object_id: far.id }],
      });
      fx.nearLine = near;
      fx.farLine = far;
      for (const node of [fx.nodeA, fx.nodeB]) expect((await root.post(`${NODES}${node.id}/sync-ports/?dry_run=false`)).status).toBe(200);
      fx.channelsB = await channelsOf(fx.nodeB.id);
    });

    it('traces a channel across the two ROADM nodes through the mux port, the cable and the far demux port', async () => {
      const [ch1] = fx.channelsA;
      const response = await root.get(`${CHANNELS}${ch1.id}/trace/`);
      expect(response.status).toBe(200);
      const trace = response.body;
      expect(trace).toMatchObject({
        channel_id: ch1.id,
        wavelength_nm: 1560.61,
        grid_position: 1,
        is_complete: true,
        is_active: false,
        is_valid: true,
      });
      expect(trace.wavelength_path_id).toEqual(expect.any(Number));
      expect(
        trace.elements.map((element: any) => [element.sequence, element.node_name, element.channel_id, element.channel_label]),
      ).toEqual([
        [0, 'roadm-a', ch1.id, 'C21'],
        [1, 'roadm-b', fx.channelsB[0].id, 'C21'],
      ]);
      expect(trace.elements[0].mux_port).toMatchObject({ id: fx.portsA.M1.id, name: 'M1' });
      expect(trace.elements[0].node_url).toMatch(new RegExp(`${NODES}${fx.nodeA.id}/$`));
      expect(trace.cable_segments).toEqual([
        {
          from_sequence: 0,
          to_sequence: 1,
          items: [
            expect.objectContaining({ type: 'rear_port', id: fx.nearLine.id, name: 'LINE-TX', device: 'roadm-a' }),
            expect.objectContaining({ type: 'cable', id: fx.cable.id, label: 'span-ab' }),
            expect.objectContaining({ type: 'rear_port', id: fx.farLine.id, name: 'LINE-RX', device: 'roadm-b' }),
          ],
        },
      ]);
      // The far channel's trace is the same path.
      expect((await root.get(`${CHANNELS}${fx.channelsB[0].id}/trace/`)).body.wavelength_path_id).toBe(trace.wavelength_path_id);
      fx.pathId = trace.wavelength_path_id;
    });

    it('a channel on no cable has no path: 200 with empty lists', async () => {
      const lonely = await device('roadm-lonely', fx.roadm.type.id);
      const node = await nodeOfDevice(lonely.id);
      const [first] = await channelsOf(node.id);
      const response = await root.get(`${CHANNELS}${first.id}/trace/`);
      expect(response.body).toMatchObject({ wavelength_path_id: null, wavelength_nm: null, elements: [], cable_segments: [] });
    });

    it('lists the derived wavelength paths read-only', async () => {
      const list = await root.get(`${PATHS}?grid_position=1`);
      expect(list.status).toBe(200);
      expect(list.body.results.map((path: any) => [path.id, path.wavelength_nm, path.is_complete])).toContainEqual([
        fx.pathId,
        1560.61,
        true,
      ]);
      // Derived: no write route at all.
      expect((await root.post(PATHS, { grid_position: 1 })).status).toBe(404);
      expect((await root.delete(`${PATHS}${fx.pathId}/`)).status).toBe(404);
      expect((await root.get(`${PATHS}${fx.pathId}/`)).status).toBe(200);
    });

    it('stitches a circuit over the path, and decommissioning it frees the channels and clears its paths', async () => {
      const [ch1] = fx.channelsA;
      for (const channel of [ch1, fx.channelsB[0]]) await root.patch(`${CHANNELS}${channel.id}/`, { status: 'active' });
      const circuit = await root.created(CIRCUITS, { name: 'LAMBDA-1', status: 'active', wavelength_paths: [fx.pathId] });
      const stitch = await root.get(`${CIRCUITS}${circuit.id}/stitch/`);
      expect(stitch.status).toBe(200);
      expect(stitch.body).toMatchObject({ service_id: circuit.id, service_name: 'LAMBDA-1', status: 'active' });
      expect(stitch.body.paths).toHaveLength(1);
      expect(stitch.body.paths[0]).toMatchObject({
        wavelength_path_id: fx.pathId,
        wavelength_nm: 1560.61,
        is_complete: true,
        is_active: true,
      });
      expect(stitch.body.paths[0].elements.map((element: any) => element.channel_id)).toEqual([ch1.id, fx.channelsB[0].id]);

      // A channel in use is not remapped.
      const refused = await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: (await root.get(`${NODES}${fx.nodeA.id}/`)).body.last_updated,
        mapping: { [ch1.id]: { mux: fx.portsA.M4.id } },
      });
      expect(refused.status).toBe(400);

      const decommissioned = await root.patch(`${CIRCUITS}${circuit.id}/`, { status: 'decommissioned' });
      expect(decommissioned.status).toBe(200);
      expect((await root.get(`${CIRCUITS}${circuit.id}/`)).body.wavelength_paths).toEqual([]);
      for (const channel of [ch1, fx.channelsB[0]])
        expect((await root.get(`${CHANNELS}${channel.id}/`)).body.status.value).toBe('available');
      expect((await root.get(`${PATHS}${fx.pathId}/`)).body.is_active).toBe(false);
      expect((await root.get(`${CIRCUITS}${circuit.id}/stitch/`)).body.paths).toEqual([]);
    });

    it('unmapping a channel dissolves its path: the far channel is on none and the path is gone', async () => {
      const [ch1] = fx.channelsA;
      const response = await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: (await root.get(`${NODES}${fx.nodeA.id}/`)).body.last_updated,
        mapping: { [ch1.id]: { mux: null, demux: null } },
      });
      expect(response.body).toMatchObject({ added: 0, removed: 1, changed: 0 });
      expect(await countRows(seeded.db, 'wdm_wdmwavelengthpathchannel', 'WHERE channel_id = $1', [fx.channelsB[0].id])).toBe(0);
      expect((await root.get(`${CHANNELS}${fx.channelsB[0].id}/trace/`)).body).toMatchObject({ wavelength_path_id: null, elements: [] });
      expect((await root.get(`${PATHS}${fx.pathId}/`)).status).toBe(404);
    });

    it('deleting a channel rebuilds the rest of its path: the path goes when one channel is left', async () => {
      const [ch1] = fx.channelsA;
      await root.post(`${NODES}${fx.nodeA.id}/apply-mapping/`, {
        last_updated: (await root.get(`${NODES}${fx.nodeA.id}/`)).body.last_updated,
        mapping: { [ch1.id]: { mux: fx.portsA.M1.id, demux: fx.portsA.D1.id } },
      });
      const pathId = (await root.get(`${CHANNELS}${ch1.id}/trace/`)).body.wavelength_path_id;
      expect(pathId).toEqual(expect.any(Number));
      expect((await root.delete(`${CHANNELS}${fx.channelsB[0].id}/`)).status).toBe(204);
      expect((await root.get(`${PATHS}${pathId}/`)).status).toBe(404);
      expect(await countRows(seeded.db, 'wdm_wdmwavelengthpathchannel', 'WHERE channel_id = $1', [ch1.id])).toBe(0);
    });

    it('404 for an unknown channel or circuit', async () => {
      expect((await root.get(`${CHANNELS}999999/trace/`)).status).toBe(404);
      expect((await root.get(`${CIRCUITS}999999/stitch/`)).status).toBe(404);
    });
  });

  describe('GraphQL (read-only)', () => {
    it('has exactly the WDM queries and filter inputs of the spec, its type names, and no mutation', async () => {
      const schema = await graphql(`
        {
          __schema {
            mutationType {
              name
            }
            types {
              name
            }
            queryType {
              fields {
                name
                args {
                  name
                  type {
                    name
                    kind
                    ofType {
                      name
                    }
                  }
                }
              }
            }
          }
          profile: __type(name: "WdmProfileFilter") {
            inputFields {
              name
            }
          }
          node: __type(name: "WdmNodeFilter") {
            inputFields {
              name
            }
          }
          channel: __type(name: "WdmChannelFilter") {
            inputFields {
              name
            }
          }
          circuit: __type(name: "WdmCircuitFilter") {
            inputFields {
              name
            }
          }
          path: __type(name: "WdmWavelengthPathType") {
            name
          }
          nodeType: __type(name: "WdmNodeInstanceType") {
            fields {
              name
            }
          }
          profileType: __type(name: "WdmProfileType") {
            fields {
              name
            }
          }
        }
      `);
      expect(schema.status).toBe(200);
      const data = schema.body.data;
      expect(data.__schema.mutationType).toBeNull();
      const wdm = data.__schema.queryType.fields.filter((field: any) => field.name.startsWith('wdm_'));
      expect(wdm.map((field: any) => field.name).sort()).toEqual(
        ['wdm_channel', 'wdm_channel_plan', 'wdm_circuit', 'wdm_line_port', 'wdm_node', 'wdm_profile']
          .flatMap((name) => [name, `${name}_list`])
          .sort(),
      );
      for (const field of wdm.filter((candidate: any) => !candidate.name.endsWith('_list'))) {
        expect(field.args).toEqual([{ name: 'id', type: { name: null, kind: 'NON_NULL', ofType: { name: 'Int' } } }]);
      }
      // The spec's four filter inputs and no other: the channel-plan and line-port lists take none.
      expect(
        data.__schema.types
          .map((type: any) => type.name)
          .filter((name: string) => /^Wdm.*Filter$/.test(name))
          .sort(),
      ).toEqual(['WdmChannelFilter', 'WdmCircuitFilter', 'WdmNodeFilter', 'WdmProfileFilter']);
      for (const name of ['wdm_channel_plan_list', 'wdm_line_port_list']) {
        expect(wdm.find((field: any) => field.name === name).args.map((arg: any) => arg.name)).toEqual(['pagination']);
      }
      expect(wdm.find((field: any) => field.name === 'wdm_node_list').args.map((arg: any) => arg.name)).toEqual(['filters', 'pagination']);
      const names = (input: any) => input.inputFields.map((field: any) => field.name);
      expect(names(data.profile)).toEqual(['id', 'node_type', 'grid']);
      expect(names(data.node)).toEqual(['id', 'node_type', 'grid', 'device_id']);
      expect(names(data.channel)).toEqual(['id', 'wdm_node_id', 'status', 'grid_position']);
      expect(names(data.circuit)).toEqual(['id', 'name', 'status']);
      expect(data.path).toBeNull();
      const nodeFields = data.nodeType.fields.map((field: any) => field.name);
      for (const field of [
        'id',
        'display',
        'tags',
        'custom_fields',
        'created',
        'last_updated',
        'device',
        'grid',
        'node_type',
        'description',
        'expected_port_hash',
        'port_sync_valid',
        'line_ports',
        'channels',
      ]) {
        expect(nodeFields).toContain(field);
      }
      expect(data.profileType.fields.map((field: any) => field.name)).toContain('channel_plans');
      const types = await graphql(
        `{ ${['WdmProfileType', 'WdmChannelPlanType', 'WdmLinePortType', 'WdmChannelType', 'WdmCircuitType']
          .map((name, index) => `t${index}: __type(name: "${name}") { name }`)
          .join(' ')} }`,
      );
      expect(Object.values(types.body.data).map((type: any) => type?.name)).toEqual([
        'WdmProfileType',
        'WdmChannelPlanType',
        'WdmLinePortType',
        'WdmChannelType',
        'WdmCircuitType',
      ]);
    });

    it("answers the spec's reference query with the node's line ports and channels", async () => {
      const response = await graphql(REFERENCE_QUERY, { filters: { id: [String(fx.nodeA.id)] } });
      expect(response.status).toBe(200);
      expect(response.body.errors).toBeUndefined();
      const [node] = response.body.data.wdm_node_list;
      const rest = (await root.get(`${NODES}${fx.nodeA.id}/`)).body;
      expect(node).toMatchObject({
        id: String(fx.nodeA.id),
        display: rest.display,
        grid: 'dwdm_c_100ghz',
        node_type: 'roadm',
        port_sync_valid: true,
      });
      expect(node.line_ports).toEqual([
        { id: expect.any(String), direction: 'east', role: 'tx', rear_port: { id: String(fx.nearLine.id), name: 'LINE-TX' } },
        { id: expect.any(String), direction: 'east', role: 'rx', rear_port: { id: expect.any(String), name: 'LINE-RX' } },
      ]);
      expect(node.channels.map((channel: any) => [channel.grid_position, channel.label, channel.wavelength_nm, channel.status])).toEqual([
        [1, 'C21', 1560.61, 'available'],
        [2, 'C22', 1559.79, 'available'],
        [3, 'C23', 1558.98, 'available'],
      ]);
      const profile = await graphql(`{ wdm_profile(id: ${fx.roadmProfile.id}) { grid channel_plans { grid_position label } } }`);
      expect(profile.body.data.wdm_profile.channel_plans.map((plan: any) => plan.label)).toEqual(['C21', 'C22', 'C23']);
      const channels = await graphql(`{ wdm_channel_list(filters: { wdm_node_id: ["${fx.nodeA.id}"], grid_position: ["2"] }) { label } }`);
      expect(channels.body.data.wdm_channel_list).toEqual([{ label: 'C22' }]);
    });

    // Fifty devices of a profiled type each build a node with its channels and line ports: a fixture-sized setup.
    it(
      'runs the reference query in the same number of SQL statements for 1 and for 50 nodes',
      async () => {
        const type = await roadmType('CWDM-8');
        await profileOf(type, 'terminal_mux', 'cwdm');
        const statementsFor = async (expected: number) => {
          // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, applied to each runner by the spy below
          const query = PostgresQueryRunner.prototype.query;
          const statements: string[] = [];
          const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args) {
            statements.push(String(args[0]));
            return query.apply(this, args);
          });
          try {
            const response = await graphql(REFERENCE_QUERY, { filters: { grid: ['cwdm'] } });
            expect(response.body.errors).toBeUndefined();
            const nodes = response.body.data.wdm_node_list;
            expect(nodes).toHaveLength(expected);
            expect(
              nodes.every(
                (node: any) =>
                  node.channels.length === 3 && node.line_ports.length === 2 && node.line_ports[0].rear_port.name === 'LINE-TX',
              ),
            ).toBe(true);
          } finally {
            spy.mockRestore();
          }
          // Statements of the query only: not the token lookup (and its occasional last-used write), nor the job worker's polling.
          return statements.filter((sql) => !/\b(users_token|jobs)\b/.test(sql));
        };
        // Each device of the profiled type is a node.
        const devicesOf = (indices: number[]) =>
          root.created(
            '/api/dcim/devices/',
            indices.map((index) => ({ name: `cwdm-${index}`, device_type: type.type.id, role: fx.role.id, site: fx.site.id })),
          );
        await devicesOf([0]);
        const one = await statementsFor(1);
        await devicesOf(Array.from({ length: 49 }, (_, index) => index + 1));
        const fifty = await statementsFor(50);
        expect(fifty.length).toBe(one.length);
        // The nodes, then one statement per nested list and level: line ports, their rear ports, channels.
        expect(one).toHaveLength(4);
        for (const table of ['wdm_wdmnode', 'wdm_wdmlineport', 'dcim_rearport', 'wdm_wdmchannel']) {
          expect(fifty.filter((sql) => sql.includes(`"${table}"`) || sql.includes(` ${table} `))).toHaveLength(1);
        }
      },
      SETUP_HOOK_TIMEOUT_MS,
    );
  });
});
