import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { countRows, PlatformClient, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';
import { SETUP_HOOK_TIMEOUT_MS } from '../../../../test/support/timing';

const W = '/api/plugins/wdm';
const PROFILES = `${W}/wdm-profiles/`;
const CHANNEL_PLANS = `${W}/wdm-channel-plans/`;
const LINE_PORT_PLANS = `${W}/wdm-line-port-plans/`;
const NODES = `${W}/wdm-nodes/`;
const LINE_PORTS = `${W}/wdm-line-ports/`;
const CHANNELS = `${W}/wdm-channels/`;
const PATHS = `${W}/wdm-wavelength-paths/`;
const CIRCUITS = `${W}/wdm-circuits/`;
const CABLES = '/api/dcim/cables/';

/**
 * What the plugin does on its own when platform objects change, as upstream's signals do: devices of
 * a profiled type become nodes, installed modules bring their channels and line ports, TX-to-TX and
 * RX-to-RX trunks are refused, and cabling rebuilds the wavelength paths; each creation in the change log.
 */
describe('platform wdm plugin: automation on devices, modules and cables', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  const fx: Record<string, any> = {};
  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);

  /** Changes recorded for objects of a type, oldest first. */
  const changesOf = async (objectType: string, query = '') => {
    const response = await root.get(`/api/core/object-changes/?limit=1000&changed_object_type=${objectType}${query}`);
    expect(response.status).toBe(200);
    return [...response.body.results].reverse();
  };
  /** The stored wavelength paths a channel lies on (the through table), lowest id first, with its place in each. */
  const pathsOf = async (channelId: number) =>
    (
      await seeded.db.query<{ path_id: number; sequence: number }>(
        'SELECT path_id, sequence FROM wdm_wdmwavelengthpathchannel WHERE channel_id = $1 ORDER BY path_id',
        [channelId],
      )
    ).rows;
  const nodesOf = async (deviceId: number) => (await root.get(`${NODES}?device_id=${deviceId}`)).body.results;
  const rearPort = async (deviceId: number, name: string) =>
    (await root.get(`/api/dcim/rear-ports/?device_id=${deviceId}&name=${name}`)).body.results[0];
  const device = (name: string, typeId: number) =>
    root.created('/api/dcim/devices/', { name, device_type: typeId, role: fx.role.id, site: fx.site.id });
  const cable = (a: number, b: number) =>
    root.post(CABLES, {
      a_terminations: [{ object_type: 'dcim.rearport', object_id: a }],
      b_terminations: [{ object_type: 'dcim.rearport', object_id: b }],
    });

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    fx.site = await root.created('/api/dcim/sites/', { name: 'POP-AUTO', slug: 'pop-auto' });
    fx.maker = await root.created('/api/dcim/manufacturers/', { name: 'Infinera', slug: 'infinera' });
    fx.role = await root.created('/api/dcim/device-roles/', { name: 'Transport', slug: 'transport' });
    // A ROADM type: mux/demux front ports for channels 1 and 2, a TX and an RX line port.
    fx.roadm = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'AUTO-ROADM', slug: 'auto-roadm' });
    const templates: Record<string, any> = {};
    for (const name of ['LINE-TX', 'LINE-RX']) {
      templates[name] = await root.created('/api/dcim/rear-port-templates/', { device_type: fx.roadm.id, name, type: 'lc', positions: 8 });
    }
    for (const name of ['M1', 'D1', 'M2', 'D2']) {
      templates[name] = await root.created('/api/dcim/front-port-templates/', { device_type: fx.roadm.id, name, type: 'lc' });
    }
    fx.roadmProfile = await root.created(PROFILES, { device_type: fx.roadm.id, node_type: 'roadm', grid: 'dwdm_c_100ghz' });
    await root.created(
      CHANNEL_PLANS,
      [1, 2].map((position) => ({
        profile: fx.roadmProfile.id,
        grid_position: position,
        mux_front_port_template: templates[`M${position}`].id,
        demux_front_port_template: templates[`D${position}`].id,
      })),
    );
    await root.created(LINE_PORT_PLANS, [
      { profile: fx.roadmProfile.id, rear_port_template: templates['LINE-TX'].id, direction: 'east', role: 'tx' },
      { profile: fx.roadmProfile.id, rear_port_template: templates['LINE-RX'].id, direction: 'east', role: 'rx' },
    ]);
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('a device of a profiled device type', () => {
    it("is a node of the profile's type and grid with its channels and line ports, the node's creation in the change log", async () => {
      fx.a = await device('auto-a', fx.roadm.id);
      const [node] = await nodesOf(fx.a.id);
      expect(node).toMatchObject({ device: { id: fx.a.id }, node_type: { value: 'roadm' }, grid: { value: 'dwdm_c_100ghz' } });
      fx.nodeA = node;
      const channels = (await root.get(`${CHANNELS}?wdm_node_id=${node.id}&ordering=grid_position`)).body.results;
      expect(channels.map((channel: any) => [channel.label, channel.mux_front_port.name, channel.demux_front_port.name])).toEqual([
        ['C21', 'M1', 'D1'],
        ['C22', 'M2', 'D2'],
      ]);
      const linePorts = (await root.get(`${LINE_PORTS}?wdm_node_id=${node.id}`)).body.results;
      expect(linePorts.map((line: any) => [line.rear_port.name, line.role.value])).toEqual([
        ['LINE-TX', 'tx'],
        ['LINE-RX', 'rx'],
      ]);
      const [deviceChange] = await changesOf('dcim.device', `&changed_object_id=${fx.a.id}`);
      const nodeChanges = await changesOf('wdm.wdmnode', `&changed_object_id=${node.id}`);
      expect(nodeChanges).toHaveLength(1);
      expect(nodeChanges[0]).toMatchObject({ action: { value: 'create' }, request_id: deviceChange.request_id });
      expect(nodeChanges[0].postchange_data).toMatchObject({ device: fx.a.id, node_type: 'roadm', grid: 'dwdm_c_100ghz' });
    });

    it('a device of a type without a profile is no node', async () => {
      const plain = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'PATCH-24', slug: 'patch-24' });
      const panel = await device('panel-1', plain.id);
      expect(await nodesOf(panel.id)).toEqual([]);
    });

    it('an amplifier profile gives the node its line ports and no channels', async () => {
      const ampType = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'ILA-2', slug: 'ila-2' });
      const east = await root.created('/api/dcim/rear-port-templates/', { device_type: ampType.id, name: 'EAST', type: 'lc' });
      const profile = await root.created(PROFILES, { device_type: ampType.id, node_type: 'amplifier', grid: 'dwdm_c_100ghz' });
      await root.created(LINE_PORT_PLANS, { profile: profile.id, rear_port_template: east.id, direction: 'east', role: 'bidi' });
      const amp = await device('ila-1', ampType.id);
      const [node] = await nodesOf(amp.id);
      expect(node.node_type.value).toBe('amplifier');
      expect(await count('wdm_wdmchannel', 'WHERE wdm_node_id = $1', [node.id])).toBe(0);
      const linePorts = (await root.get(`${LINE_PORTS}?wdm_node_id=${node.id}`)).body.results;
      expect(linePorts.map((line: any) => [line.rear_port.name, line.direction.value, line.role.value])).toEqual([
        ['EAST', 'east', 'bidi'],
      ]);
    });
  });

  describe('a module installed into a node’s device', () => {
    it("adds the channels and line ports of its module type's profile, on the module's ports, each in the change log", async () => {
      const shelfType = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'SHELF-4', slug: 'shelf-4' });
      await root.created('/api/dcim/module-bay-templates/', { device_type: shelfType.id, name: 'SLOT 1', position: '1' });
      // The shelf is a node by itself, with no channels of its own.
      await root.created(PROFILES, { device_type: shelfType.id, node_type: 'roadm', grid: 'dwdm_c_100ghz' });
      const card = await root.created('/api/dcim/module-types/', { manufacturer: fx.maker.id, model: 'WSS-2' });
      const line = await root.created('/api/dcim/rear-port-templates/', {
        module_type: card.id,
        name: 'CARD-LINE',
        type: 'lc',
        positions: 2,
      });
      const cardPorts: Record<string, any> = {};
      for (const name of ['CM1', 'CD1', 'CM2', 'CD2']) {
        cardPorts[name] = await root.created('/api/dcim/front-port-templates/', { module_type: card.id, name, type: 'lc' });
      }
      const cardProfile = await root.created(PROFILES, { module_type: card.id, node_type: 'roadm', grid: 'dwdm_c_100ghz' });
      await root.created(
        CHANNEL_PLANS,
        [1, 2].map((position) => ({
          profile: cardProfile.id,
          grid_position: position,
          mux_front_port_template: cardPorts[`CM${position}`].id,
          demux_front_port_template: cardPorts[`CD${position}`].id,
        })),
      );
      await root.created(LINE_PORT_PLANS, { profile: cardProfile.id, rear_port_template: line.id, direction: 'west', role: 'bidi' });

      const shelf = await device('shelf-1', shelfType.id);
      const [node] = await nodesOf(shelf.id);
      expect(await count('wdm_wdmchannel', 'WHERE wdm_node_id = $1', [node.id])).toBe(0);
      const [bay] = (await root.get(`/api/dcim/module-bays/?device_id=${shelf.id}`)).body.results;
      const module = await root.created('/api/dcim/modules/', { device: shelf.id, module_bay: bay.id, module_type: card.id });

      const channels = (await root.get(`${CHANNELS}?wdm_node_id=${node.id}&ordering=grid_position`)).body.results;
      expect(
        channels.map((channel: any) => [channel.module.id, channel.label, channel.mux_front_port.name, channel.demux_front_port.name]),
      ).toEqual([
        [module.id, 'C21', 'CM1', 'CD1'],
        [module.id, 'C22', 'CM2', 'CD2'],
      ]);
      const linePorts = (await root.get(`${LINE_PORTS}?wdm_node_id=${node.id}`)).body.results;
      expect(linePorts.map((linePort: any) => [linePort.module.id, linePort.rear_port.name, linePort.role.value])).toEqual([
        [module.id, 'CARD-LINE', 'bidi'],
      ]);
      const [moduleChange] = await changesOf('dcim.module', `&changed_object_id=${module.id}`);
      for (const [objectType, ids] of [
        ['wdm.wdmchannel', channels.map((channel: any) => channel.id)],
        ['wdm.wdmlineport', linePorts.map((linePort: any) => linePort.id)],
      ] as const) {
        const recorded = (await changesOf(objectType, `&request_id=${moduleChange.request_id}`)).filter(
          (change: any) => change.action.value === 'create',
        );
        expect(recorded.map((change: any) => change.changed_object_id).sort()).toEqual([...ids].sort());
      }
      // A module in a device that is no node adds nothing.
      const bare = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'BARE-1', slug: 'bare-1' });
      await root.created('/api/dcim/module-bay-templates/', { device_type: bare.id, name: 'SLOT 1', position: '1' });
      const host = await device('bare-host', bare.id);
      const [hostBay] = (await root.get(`/api/dcim/module-bays/?device_id=${host.id}`)).body.results;
      const before = await count('wdm_wdmchannel');
      await root.created('/api/dcim/modules/', { device: host.id, module_bay: hostBay.id, module_type: card.id });
      expect(await count('wdm_wdmchannel')).toBe(before);
    });
  });

  describe('cabling', () => {
    beforeAll(async () => {
      fx.b = await device('auto-b', fx.roadm.id);
      [fx.nodeB] = await nodesOf(fx.b.id);
      for (const node of [fx.nodeA, fx.nodeB]) {
        expect((await root.post(`${NODES}${node.id}/sync-ports/?dry_run=false`)).body.port_sync_valid).toBe(true);
      }
      fx.aTx = await rearPort(fx.a.id, 'LINE-TX');
      fx.aRx = await rearPort(fx.a.id, 'LINE-RX');
      fx.bTx = await rearPort(fx.b.id, 'LINE-TX');
      fx.bRx = await rearPort(fx.b.id, 'LINE-RX');
      fx.channelA = (await root.get(`${CHANNELS}?wdm_node_id=${fx.nodeA.id}&grid_position=1`)).body.results[0];
      fx.channelB = (await root.get(`${CHANNELS}?wdm_node_id=${fx.nodeB.id}&grid_position=1`)).body.results[0];
    });

    it('refuses a TX-to-TX or RX-to-RX trunk with a 400 naming both ports, and stores no cable', async () => {
      const cables = await count('dcim_cable');
      const tx = await cable(fx.aTx.id, fx.bTx.id);
      expect(tx.status).toBe(400);
      expect(tx.body.non_field_errors[0]).toBe(
        'Invalid WDM trunk cabling: auto-a LINE-TX and auto-b LINE-TX are both TX line ports. Connect TX to RX (or use bidirectional line ports).',
      );
      const rx = await cable(fx.aRx.id, fx.bRx.id);
      expect(rx.status).toBe(400);
      expect(rx.body.non_field_errors[0]).toContain('are both RX line ports');
      expect(await count('dcim_cable')).toBe(cables);
      expect(await count('dcim_cabletermination', 'WHERE termination_id = ANY($1)', [[fx.aTx.id, fx.bTx.id, fx.aRx.id, fx.bRx.id]])).toBe(
        0,
      );
    });

    it('a TX-to-RX cable builds the wavelength path of the channels on both ends; deleting it removes the path', async () => {
      expect(await pathsOf(fx.channelA.id)).toEqual([]);
      const created = await cable(fx.aTx.id, fx.bRx.id);
      expect(created.status).toBe(201);
      const trace = (await root.get(`${CHANNELS}${fx.channelA.id}/trace/`)).body;
      expect(trace.wavelength_path_id).toEqual(expect.any(Number));
      expect(trace.elements.map((element: any) => element.channel_id)).toEqual([fx.channelA.id, fx.channelB.id]);
      expect(await pathsOf(fx.channelB.id)).toEqual([{ path_id: trace.wavelength_path_id, sequence: 1 }]);
      expect((await root.get(`${PATHS}${trace.wavelength_path_id}/`)).body).toMatchObject({ grid_position: 1, is_complete: true });
      // A channel's ports changed by PATCH: its chain changes at once (here: it leads nowhere), and back.
      const ports = { mux_front_port: fx.channelB.mux_front_port.id, demux_front_port: fx.channelB.demux_front_port.id };
      expect((await root.patch(`${CHANNELS}${fx.channelB.id}/`, { mux_front_port: null, demux_front_port: null })).status).toBe(200);
      expect(await pathsOf(fx.channelA.id)).toEqual([]);
      expect((await root.patch(`${CHANNELS}${fx.channelB.id}/`, ports)).status).toBe(200);
      // The dissolved path was deleted; the chain is a path again.
      expect((await root.get(`${PATHS}${trace.wavelength_path_id}/`)).status).toBe(404);
      const [{ path_id: rebuilt }] = await pathsOf(fx.channelA.id);
      expect((await pathsOf(fx.channelB.id)).map((entry) => entry.path_id)).toEqual([rebuilt]);

      expect((await root.delete(`${CABLES}${created.body.id}/`)).status).toBe(204);
      expect((await root.get(`${PATHS}${rebuilt}/`)).status).toBe(404);
      for (const channel of [fx.channelA, fx.channelB]) expect(await pathsOf(channel.id)).toEqual([]);
    });

    it('port mappings, line ports and ports changed outside the plugin rebuild the paths and recheck port_sync_valid', async () => {
      const created = await cable(fx.aTx.id, fx.bRx.id);
      expect(created.status).toBe(201);
      const pathOf = async (channelId: number) => (await pathsOf(channelId))[0]?.path_id ?? null;
      expect(await pathOf(fx.channelA.id)).toEqual(expect.any(Number));
      // The far channel's mapping deleted through the DCIM API: the path goes, and node B is out of sync.
      const mappings = (await root.get(`/api/dcim/port-mappings/?device_id=${fx.b.id}&front_port_id=${fx.channelB.demux_front_port.id}`))
        .body.results;
      expect(mappings).toHaveLength(1);
      expect((await root.delete(`/api/dcim/port-mappings/${mappings[0].id}/`)).status).toBe(204);
      expect(await pathOf(fx.channelA.id)).toBeNull();
      expect((await root.get(`${NODES}${fx.nodeB.id}/`)).body.port_sync_valid).toBe(false);
      // Written back through the DCIM API: the path returns and the node is in sync again.
      const restored = await root.post('/api/dcim/port-mappings/', {
        device: fx.b.id,
        front_port: fx.channelB.demux_front_port.id,
        front_port_position: 1,
        rear_port: fx.bRx.id,
        rear_port_position: 1,
      });
      expect(restored.status).toBe(201);
      expect(await pathOf(fx.channelA.id)).toEqual(await pathOf(fx.channelB.id));
      expect(await pathOf(fx.channelA.id)).toEqual(expect.any(Number));
      expect((await root.get(`${NODES}${fx.nodeB.id}/`)).body.port_sync_valid).toBe(true);
      // The line port removed from the node: its channel leads nowhere, the path goes.
      const [rxLine] = (await root.get(`${LINE_PORTS}?wdm_node_id=${fx.nodeB.id}&role=rx`)).body.results;
      expect((await root.delete(`${LINE_PORTS}${rxLine.id}/`)).status).toBe(204);
      expect(await pathOf(fx.channelA.id)).toBeNull();
      expect(await pathOf(fx.channelB.id)).toBeNull();
      expect((await root.get(`${NODES}${fx.nodeB.id}/`)).body.port_sync_valid).toBe(false);
      // Put back, then synced: the path is rebuilt.
      expect((await root.post(LINE_PORTS, { wdm_node: fx.nodeB.id, rear_port: fx.bRx.id, direction: 'east', role: 'rx' })).status).toBe(
        201,
      );
      expect((await root.post(`${NODES}${fx.nodeB.id}/sync-ports/?dry_run=false`)).body.port_sync_valid).toBe(true);
      expect(await pathOf(fx.channelA.id)).toEqual(expect.any(Number));
      // A channel's front port deleted on the device (its mapping goes with it): the expected mappings are recomputed, still in sync.
      const hashBefore = (await root.get(`${NODES}${fx.nodeB.id}/`)).body.expected_port_hash;
      const m2 = (await root.get(`/api/dcim/front-ports/?device_id=${fx.b.id}&name=M2`)).body.results[0];
      expect((await root.delete(`/api/dcim/front-ports/${m2.id}/`)).status).toBe(204);
      const afterDelete = (await root.get(`${NODES}${fx.nodeB.id}/`)).body;
      expect(afterDelete.expected_port_hash).not.toBe(hashBefore);
      expect(afterDelete.port_sync_valid).toBe(true);
      expect((await root.delete(`${CABLES}${created.body.id}/`)).status).toBe(204);
      expect(await pathOf(fx.channelA.id)).toBeNull();
    });

    it('re-terminating a cable onto another line port moves the path', async () => {
      const c = await device('auto-c', fx.roadm.id);
      const [nodeC] = await nodesOf(c.id);
      await root.post(`${NODES}${nodeC.id}/sync-ports/?dry_run=false`);
      const channelC = (await root.get(`${CHANNELS}?wdm_node_id=${nodeC.id}&grid_position=1`)).body.results[0];
      const created = await cable(fx.aTx.id, fx.bRx.id);
      expect(created.status).toBe(201);
      const moved = await root.patch(`${CABLES}${created.body.id}/`, {
        b_terminations: [{ object_type: 'dcim.rearport', object_id: (await rearPort(c.id, 'LINE-RX')).id }],
      });
      expect(moved.status).toBe(200);
      expect(await pathsOf(fx.channelB.id)).toEqual([]);
      const trace = (await root.get(`${CHANNELS}${fx.channelA.id}/trace/`)).body;
      expect(trace.elements.map((element: any) => element.channel_id)).toEqual([fx.channelA.id, channelC.id]);
      // A cable re-terminated onto a same-role port is refused like a new one.
      const wrong = await root.patch(`${CABLES}${created.body.id}/`, {
        b_terminations: [{ object_type: 'dcim.rearport', object_id: fx.bTx.id }],
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.non_field_errors[0]).toContain('are both TX line ports');
    });
  });

  /**
   * Nodes built by hand on a type without a profile: one bidirectional line port per degree (rear
   * ports DEG1…DEGn) and a channel at grid position 1 whose mux port is mapped to DEG1 and DEG3…DEGn
   * (one front position each) and whose demux port to DEG2. A node of three degrees is a ROADM
   * where the channel's paths branch.
   */
  describe('paths through nodes of several degrees', () => {
    const DIRECTIONS = ['east', 'west', 'common'];
    const opticalNode = async (name: string, degrees: number) => {
      const dev = await root.created('/api/dcim/devices/', { name, device_type: fx.plainType.id, role: fx.role.id, site: fx.site.id });
      const node = await root.created(NODES, { device: dev.id, node_type: 'roadm', grid: 'dwdm_c_100ghz' });
      const rears = [];
      for (let degree = 1; degree <= degrees; degree++) {
        const rear = await root.created('/api/dcim/rear-ports/', { device: dev.id, name: `DEG${degree}`, type: 'lc', positions: 1 });
        await root.created(LINE_PORTS, { wdm_node: node.id, rear_port: rear.id, direction: DIRECTIONS[degree - 1], role: 'bidi' });
        rears.push(rear);
      }
      const muxRears = rears.filter((_, index) => index !== 1);
      const mux = await root.created('/api/dcim/front-ports/', { device: dev.id, name: 'X', type: 'lc', positions: muxRears.length });
      const demux = degrees > 1 ? await root.created('/api/dcim/front-ports/', { device: dev.id, name: 'Y', type: 'lc' }) : null;
      const mapping = (front: number, frontPosition: number, rear: number) =>
        root.created('/api/dcim/port-mappings/', {
          device: dev.id,
          front_port: front,
          front_port_position: frontPosition,
          rear_port: rear,
          rear_port_position: 1,
        });
      for (const [index, rear] of muxRears.entries()) await mapping(mux.id, index + 1, rear.id);
      if (demux) await mapping(demux.id, 1, rears[1].id);
      const channel = await root.created(CHANNELS, {
        wdm_node: node.id,
        grid_position: 1,
        mux_front_port: mux.id,
        ...(demux ? { demux_front_port: demux.id } : {}),
      });
      return { device: dev, node, channel, rears };
    };
    /** Every stored path and its channels in order, by path id. */
    const storedPaths = async () => {
      const rows = (
        await seeded.db.query<{ path_id: number; channel_id: number }>(
          'SELECT path_id, channel_id FROM wdm_wdmwavelengthpathchannel ORDER BY path_id, sequence',
        )
      ).rows;
      const paths = new Map<number, number[]>();
      for (const row of rows) paths.set(row.path_id, [...(paths.get(row.path_id) ?? []), row.channel_id]);
      return paths;
    };

    beforeAll(async () => {
      await seeded.db.query('DELETE FROM wdm_wdmwavelengthpath');
      fx.plainType = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'HAND-BUILT', slug: 'hand-built' });
    });

    it('a ROADM of three degrees puts its channel on three paths and each terminal channel on two; a cable removed keeps the remaining path and its circuit', async () => {
      const a = await opticalNode('deg-a', 1);
      const r = await opticalNode('deg-r', 3);
      const b = await opticalNode('deg-b', 1);
      const d = await opticalNode('deg-d', 1);
      expect((await cable(a.rears[0].id, r.rears[0].id)).status).toBe(201);
      expect((await cable(r.rears[1].id, b.rears[0].id)).status).toBe(201);
      // A chain so far: one path.
      expect([...(await storedPaths()).values()]).toEqual([[a.channel.id, r.channel.id, b.channel.id]]);
      const [kept] = (await storedPaths()).keys();
      const toD = await cable(r.rears[2].id, d.rears[0].id);
      expect(toD.status).toBe(201);
      const paths = await storedPaths();
      // The walk branches at the ROADM: one path between each two ends, the existing one keeping its id.
      expect([...paths.values()]).toEqual([
        [a.channel.id, r.channel.id, b.channel.id],
        [a.channel.id, r.channel.id, d.channel.id],
        [b.channel.id, r.channel.id, d.channel.id],
      ]);
      expect(paths.get(kept)).toEqual([a.channel.id, r.channel.id, b.channel.id]);
      expect((await pathsOf(a.channel.id)).map((entry) => entry.sequence)).toEqual([0, 0]);
      expect((await pathsOf(r.channel.id)).map((entry) => entry.sequence)).toEqual([1, 1, 1]);
      expect(await pathsOf(d.channel.id)).toHaveLength(2);
      for (const pathId of paths.keys()) {
        expect((await root.get(`${PATHS}${pathId}/`)).body).toMatchObject({ grid_position: 1, is_complete: true, is_valid: true });
      }
      // The trace of a channel on several paths follows the first of them.
      const trace = (await root.get(`${CHANNELS}${a.channel.id}/trace/`)).body;
      expect(trace.wavelength_path_id).toBe(kept);
      expect(trace.elements.map((element: any) => element.channel_id)).toEqual([a.channel.id, r.channel.id, b.channel.id]);
      expect(trace.cable_segments.map((segment: any) => segment.items[0].name)).toEqual(['DEG1', 'DEG2']);
      // A circuit over two of the paths stitches each from its stored channels.
      const [toB, toDPath] = [...paths.keys()];
      const circuit = await root.created(CIRCUITS, { name: 'roadm-branch', wavelength_paths: [toB, toDPath] });
      const stitched = (await root.get(`${CIRCUITS}${circuit.id}/stitch/`)).body.paths;
      expect(stitched.map((path: any) => path.elements.map((element: any) => element.node_name))).toEqual([
        ['deg-a', 'deg-r', 'deg-b'],
        ['deg-a', 'deg-r', 'deg-d'],
      ]);
      // Activating the ROADM's channel touches all three paths' is_active; all channels active makes a path active.
      for (const channel of [a, r, b]) {
        expect((await root.patch(`${CHANNELS}${channel.channel.id}/`, { status: 'active' })).status).toBe(200);
      }
      const activity = await seeded.db.query<{ id: number; is_active: boolean }>(
        'SELECT id, is_active FROM wdm_wdmwavelengthpath ORDER BY id',
      );
      expect(activity.rows.map((row) => row.is_active)).toEqual([true, false, false]);
      // The cable to D removed: the two paths through it go; the first keeps its id and its circuit.
      expect((await root.delete(`${CABLES}${toD.body.id}/`)).status).toBe(204);
      expect([...(await storedPaths()).entries()]).toEqual([[kept, [a.channel.id, r.channel.id, b.channel.id]]]);
      expect((await root.get(`${CIRCUITS}${circuit.id}/`)).body.wavelength_paths.map((path: any) => path.id)).toEqual([kept]);
      expect(await pathsOf(d.channel.id)).toEqual([]);
      // The ROADM deleted: its channel with it, and with it every path (no two channels are linked any more).
      expect((await root.delete(`/api/dcim/devices/${r.device.id}/`)).status).toBe(204);
      expect((await storedPaths()).size).toBe(0);
      expect(await count('wdm_wdmwavelengthpath')).toBe(0);
    });

    it(
      'rebuilds a path of 6 nodes in as many statements as a path of 3',
      async () => {
        /** The plugin's statements while the last cable of a chain of `length` nodes is created (the rebuild among them). */
        const statementsClosing = async (prefix: string, length: number) => {
          const nodes: Array<Awaited<ReturnType<typeof opticalNode>>> = [];
          for (let index = 0; index < length; index++)
            nodes.push(await opticalNode(`${prefix}-${index}`, index === 0 || index === length - 1 ? 1 : 2));
          const east = (index: number) => (index === 0 ? nodes[0].rears[0] : nodes[index].rears[1]);
          const west = (index: number) => nodes[index].rears[0];
          for (let index = 0; index < length - 2; index++) expect((await cable(east(index).id, west(index + 1).id)).status).toBe(201);
          // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, applied to each runner by the spy below
          const query = PostgresQueryRunner.prototype.query;
          const statements: string[] = [];
          const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args) {
            statements.push(String(args[0]));
            return query.apply(this, args);
          });
          try {
            expect((await cable(east(length - 2).id, west(length - 1).id)).status).toBe(201);
          } finally {
            spy.mockRestore();
          }
          const [path] = await pathsOf(nodes[0].channel.id);
          expect((await storedPaths()).get(path.path_id)).toEqual(nodes.map((node) => node.channel.id));
          return statements.filter((sql) => sql.includes('wdm_'));
        };
        const three = await statementsClosing('short', 3);
        const six = await statementsClosing('long', 6);
        expect(six.length).toBe(three.length);
        expect(six.filter((sql) => sql.includes('WITH RECURSIVE'))).toHaveLength(1);
      },
      SETUP_HOOK_TIMEOUT_MS,
    );
  });
});
