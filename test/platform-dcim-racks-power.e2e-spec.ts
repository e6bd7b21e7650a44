import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { factories, Factories } from './support/factories';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

/**
 * Rack elevation, device mounting rules, and cable paths as NetBox stores them: one per end point,
 * rewritten when cables or port mappings change, read by `trace/` and by `paths/` on pass-through ports.
 */
describe('DCIM: rack elevation and stored cable paths', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  let f: Factories;

  beforeAll(async () => {
    ({ seeded, api } = await startPlatformApp());
    f = factories(api);
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  const storedPaths = async (type: string, id: number) =>
    (
      await seeded.db.query(
        'SELECT is_complete, is_active, jsonb_array_length(path) AS levels FROM dcim_cablepath WHERE origin_type = $1 AND origin_id = $2',
        [type, id],
      )
    ).rows;

  /** The SQL statements run while `work` runs (the app serves in this process). */
  async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, applied to each runner by the spy below
    const query = PostgresQueryRunner.prototype.query;
    const statements: string[] = [];
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (this: PostgresQueryRunner, ...args) {
      statements.push(String(args[0]));
      return query.apply(this, args);
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return statements;
  }
  const isWalkLevel = (sql: string) => sql.includes('FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::text[])');

  it('elevation lists every unit from the top with the device on it; mounting refuses occupied units', async () => {
    const site = await f.site();
    const rack = await f.rack({ site: site.id, u_height: 4 });
    const twoU = await f.deviceType({ u_height: 2 });
    const device = await f.device({ site: site.id, device_type: twoU.id, rack: rack.id, position: 2, face: 'front' });
    const clash = await api.post('/api/dcim/devices/', {
      name: 'clash',
      site: site.id,
      device_type: twoU.id,
      role: device.role.id,
      rack: rack.id,
      position: 3,
      face: 'front',
    });
    expect({ status: clash.status, fields: Object.keys(clash.body) }).toEqual({ status: 400, fields: ['position'] });
    const noFace = await api.post('/api/dcim/devices/', {
      name: 'x',
      site: site.id,
      device_type: twoU.id,
      role: device.role.id,
      rack: rack.id,
      position: 1,
    });
    expect(noFace.body).toEqual({ face: ['Must specify rack face when defining rack position.'] });

    const elevation = await api.get(`/api/dcim/racks/${rack.id}/elevation/`);
    expect(elevation.status).toBe(200);
    expect(elevation.body.count).toBe(8);
    expect(elevation.body.results.map((unit: { name: string }) => unit.name)).toEqual([
      'U4.5',
      'U4',
      'U3.5',
      'U3',
      'U2.5',
      'U2',
      'U1.5',
      'U1',
    ]);
    const occupied = elevation.body.results.filter((unit: { occupied: boolean }) => unit.occupied);
    expect(occupied.map((unit: { id: number; device: { id: number } }) => [unit.id, unit.device.id])).toEqual([
      [3.5, device.id],
      [3, device.id],
      [2.5, device.id],
      [2, device.id],
    ]);
    // A full-depth device shows on the rear too; `expand_devices=false` gives its lowest unit and height.
    const rear = await api.get(`/api/dcim/racks/${rack.id}/elevation/?face=rear&expand_devices=false`);
    expect(rear.body.results.filter((unit: { occupied: boolean }) => unit.occupied)).toEqual([
      expect.objectContaining({ id: 2, height: 2, face: { value: 'rear', label: 'Rear' } }),
    ]);
    expect((await api.get(`/api/dcim/racks/${rack.id}/elevation/?face=top`)).status).toBe(400);
    // The rack cannot shrink below its devices.
    expect((await api.patch(`/api/dcim/racks/${rack.id}/`, { u_height: 2 })).body).toEqual({
      u_height: ['Rack must be at least 3U tall to house currently installed devices.'],
    });
  });

  it('stores the path of each end point, follows pass-through ports, and rewrites it when cabling changes', async () => {
    const site = await f.site();
    const [a, panelA, panelB, b] = [
      await f.device({ site: site.id }),
      await f.device({ site: site.id }),
      await f.device({ site: site.id }),
      await f.device({ site: site.id }),
    ];
    const ifA = await f.interface({ device: a.id });
    const ifB = await f.interface({ device: b.id });
    const rearA = await f.rearPort({ device: panelA.id, positions: 1 });
    const rearB = await f.rearPort({ device: panelB.id, positions: 1 });
    const frontA = await f.frontPort({ device: panelA.id, rear_ports: [{ position: 1, rear_port: rearA.id, rear_port_position: 1 }] });
    const frontB = await f.frontPort({ device: panelB.id, rear_ports: [{ position: 1, rear_port: rearB.id, rear_port_position: 1 }] });

    await f.cable([['dcim.interface', ifA.id]], [['dcim.frontport', frontA.id]]);
    expect(await storedPaths('dcim.interface', ifA.id)).toEqual([{ is_complete: false, is_active: true, levels: 4 }]);
    const trunk = await f.cable([['dcim.rearport', rearA.id]], [['dcim.rearport', rearB.id]], { status: 'planned' });
    let last: { id: number } = { id: 0 };
    const statements = await statementsDuring(async () => {
      last = await f.cable([['dcim.frontport', frontB.id]], [['dcim.interface', ifB.id]]);
    });
    // Both paths (9 levels each) are walked together: one statement per step for both (cable, through
    // a panel, cable, through, cable), never one per path or per hop of a path.
    expect(statements.filter(isWalkLevel).length).toBe(5);

    // Both ends now hold complete paths across 3 cables; the planned trunk makes them inactive.
    expect(await storedPaths('dcim.interface', ifA.id)).toEqual([{ is_complete: true, is_active: false, levels: 9 }]);
    expect(await storedPaths('dcim.interface', ifB.id)).toEqual([{ is_complete: true, is_active: false, levels: 9 }]);
    let trace = await api.get(`/api/dcim/interfaces/${ifA.id}/trace/`);
    // The trace of a stored path costs the same statements whatever its length: none walks it again.
    const traceStatements = await statementsDuring(async () => {
      trace = await api.get(`/api/dcim/interfaces/${ifA.id}/trace/`);
    });
    expect(traceStatements.filter(isWalkLevel)).toEqual([]);
    expect(traceStatements.length).toBeGreaterThan(0);
    expect(traceStatements.length).toBeLessThanOrEqual(8);
    expect(
      trace.body.map(([near, cable, far]: [Array<{ id: number }>, { id: number }, Array<{ id: number }>]) => [
        near[0].id,
        cable.id,
        far[0].id,
      ]),
    ).toEqual([
      [ifA.id, expect.any(Number), frontA.id],
      [rearA.id, trunk.id, rearB.id],
      [frontB.id, last.id, ifB.id],
    ]);
    const shown = (await api.get(`/api/dcim/interfaces/${ifA.id}/`)).body;
    expect(shown).toMatchObject({
      link_peers_type: 'dcim.frontport',
      link_peers: [expect.objectContaining({ id: frontA.id })],
      connected_endpoints_type: 'dcim.interface',
      connected_endpoints: [expect.objectContaining({ id: ifB.id })],
      connected_endpoints_reachable: false,
      _occupied: true,
    });
    const paths = await api.get(`/api/dcim/rear-ports/${rearA.id}/paths/`);
    expect(paths.body).toHaveLength(2);
    expect(paths.body[0]).toEqual({
      id: expect.any(Number),
      path: expect.any(Array),
      is_active: false,
      is_complete: true,
      is_split: false,
    });
    expect(paths.body.map((path: { path: Array<Array<{ id: number }>> }) => path.path[0][0].id).sort()).toEqual([ifA.id, ifB.id].sort());

    // Connecting the trunk makes both active; deleting it cuts both paths back to the panels.
    await api.patch(`/api/dcim/cables/${trunk.id}/`, { status: 'connected' });
    expect(await storedPaths('dcim.interface', ifB.id)).toEqual([{ is_complete: true, is_active: true, levels: 9 }]);
    expect((await api.delete(`/api/dcim/cables/${trunk.id}/`)).status).toBe(204);
    expect(await storedPaths('dcim.interface', ifA.id)).toEqual([{ is_complete: false, is_active: true, levels: 4 }]);
    // Ending on a rear port without a cable, the trace ends as NetBox pads it: [[the port], [], []].
    const cut = (await api.get(`/api/dcim/interfaces/${ifA.id}/trace/`)).body;
    expect(cut).toHaveLength(2);
    expect(cut[1]).toEqual([[expect.objectContaining({ id: rearA.id })], [], []]);
    expect((await api.get(`/api/dcim/front-ports/${frontA.id}/paths/`)).body).toHaveLength(1);
    // An end point that loses its cable loses its path.
    expect((await api.delete(`/api/dcim/cables/${last.id}/`)).status).toBe(204);
    expect(await storedPaths('dcim.interface', ifB.id)).toEqual([]);
  });

  it('refuses cables between incompatible ends; power ports reach outlets and feeds', async () => {
    const device = await f.device();
    const psu = await f.powerPort({ device: device.id });
    const iface = await f.interface({ device: device.id });
    const refused = await api.post('/api/dcim/cables/', {
      a_terminations: [{ object_type: 'dcim.powerport', object_id: psu.id }],
      b_terminations: [{ object_type: 'dcim.interface', object_id: iface.id }],
    });
    expect(refused.body).toEqual({ b_terminations: ['Incompatible termination types: dcim.powerport and dcim.interface'] });
    const feed = await f.powerFeed();
    await f.cable([['dcim.powerfeed', feed.id]], [['dcim.powerport', psu.id]]);
    expect((await api.get(`/api/dcim/power-ports/${psu.id}/`)).body).toMatchObject({
      connected_endpoints_type: 'dcim.powerfeed',
      connected_endpoints: [expect.objectContaining({ id: feed.id })],
      connected_endpoints_reachable: true,
    });
    expect((await api.get(`/api/dcim/power-feeds/${feed.id}/trace/`)).body).toHaveLength(1);
  });

  it("shows an interface's MAC addresses and accepts only its own as primary; counts racks and feeds", async () => {
    const iface = await f.interface();
    const other = await f.interface();
    const own = await api.created('/api/dcim/mac-addresses/', {
      mac_address: '02:00:00:00:00:01',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: iface.id,
    });
    const foreign = await api.created('/api/dcim/mac-addresses/', {
      mac_address: '02:00:00:00:00:02',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: other.id,
    });
    expect((await api.patch(`/api/dcim/interfaces/${iface.id}/`, { primary_mac_address: foreign.id })).body).toEqual({
      primary_mac_address: ['The MAC address is not assigned to this interface.'],
    });
    const updated = await api.patch(`/api/dcim/interfaces/${iface.id}/`, { primary_mac_address: own.id });
    expect(updated.body).toMatchObject({
      mac_address: '02:00:00:00:00:01',
      primary_mac_address: { id: own.id },
      mac_addresses: [expect.objectContaining({ id: own.id, mac_address: '02:00:00:00:00:01' })],
    });
    // Deleting the MAC address clears the primary.
    expect((await api.delete(`/api/dcim/mac-addresses/${own.id}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/interfaces/${iface.id}/`)).body).toMatchObject({
      mac_address: null,
      primary_mac_address: null,
      mac_addresses: [],
    });

    const role = await f.rackRole();
    const rack = await f.rack({ role: role.id });
    await f.device({ site: rack.site.id, rack: rack.id });
    const panel = await f.powerPanel({ site: rack.site.id });
    await f.powerFeed({ power_panel: panel.id, rack: rack.id });
    expect((await api.get(`/api/dcim/racks/${rack.id}/`)).body).toMatchObject({ device_count: 1, powerfeed_count: 1 });
    expect((await api.get(`/api/dcim/rack-roles/${role.id}/`)).body).toMatchObject({ rack_count: 1 });
    expect((await api.get(`/api/dcim/power-panels/${panel.id}/`)).body).toMatchObject({ powerfeed_count: 1 });
    // A rack in use is protected; its role too.
    expect((await api.delete(`/api/dcim/rack-roles/${role.id}/`)).status).toBe(409);
  });

  it('a virtual chassis lists its members, takes only one of them as master, and releases them when deleted', async () => {
    const chassis = await f.virtualChassis();
    const outsider = await f.device();
    expect((await api.patch(`/api/dcim/virtual-chassis/${chassis.id}/`, { master: outsider.id })).body).toEqual({
      master: ['The selected master is not assigned to this virtual chassis.'],
    });
    const member = await f.device({ virtual_chassis: chassis.id, vc_position: 1, vc_priority: 10 });
    const duplicate = await api.patch(`/api/dcim/devices/${outsider.id}/`, { virtual_chassis: chassis.id, vc_position: 1 });
    expect(duplicate.status).toBe(400);
    const updated = await api.patch(`/api/dcim/virtual-chassis/${chassis.id}/`, { master: member.id });
    expect(updated.body).toMatchObject({
      master: { id: member.id },
      member_count: 1,
      members: [expect.objectContaining({ id: member.id, name: member.name })],
    });
    expect((await api.delete(`/api/dcim/virtual-chassis/${chassis.id}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/devices/${member.id}/`)).body).toMatchObject({
      virtual_chassis: null,
      vc_position: null,
      vc_priority: null,
    });
  });
});
