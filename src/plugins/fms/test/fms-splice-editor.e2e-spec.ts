import { PASSWORD } from '../../../../test/support/api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const F = '/api/plugins/fms';
const PLANS = `${F}/splice-plans/`;
const ASSIGNMENTS = `${F}/tube-assignments/`;
const STRANDS = `${F}/fiber-strands/`;
const FRONT_PORTS = '/api/dcim/front-ports/';
const REAR_PORTS = '/api/dcim/rear-ports/';
const CABLES = '/api/dcim/cables/';

/**
 * What a splice editor does with a closure, in upstream's shapes: tubes assigned to trays carry
 * their fibres' ports with them, the strand map with live, planned and protected state, a plan
 * seeded from the live splices, a plan created by quick-add, the cached diff made stale by cable
 * changes, a circuit traced hop by hop, and the refusals answered as `{"error": …}`.
 */
describe('platform fms plugin: the splice editor operations', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let planner: PlatformClient;
  let stranger: PlatformClient;
  const fx: Record<string, any> = {};
  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);
  const moduleOf = async (portId: number) =>
    (await seeded.db.query('SELECT module_id FROM dcim_frontport WHERE id = $1', [portId])).rows[0].module_id as number | null;
  const strandsOf = async (fiberCableId: number) =>
    (await root.get(`${STRANDS}?fiber_cable_id=${fiberCableId}&limit=100`)).body.results as any[];

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    const { w } = seeded;
    const site = await root.created('/api/dcim/sites/', { name: 'Hub', slug: 'hub' });
    const maker = await root.created('/api/dcim/manufacturers/', { name: 'Prysmian', slug: 'prysmian' });
    const deviceType = await root.created('/api/dcim/device-types/', { manufacturer: maker.id, model: 'Dome 96', slug: 'dome-96' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Splice closure', slug: 'splice-closure', color: '00ff00' });
    const device = (name: string) => root.created('/api/dcim/devices/', { name, device_type: deviceType.id, role: role.id, site: site.id });
    fx.closure = await device('SC-1');
    fx.west = await device('ODF-West');
    fx.east = await device('ODF-East');
    const trayType = await root.created('/api/dcim/module-types/', { manufacturer: maker.id, model: 'Tray 12' });
    const basketType = await root.created('/api/dcim/module-types/', { manufacturer: maker.id, model: 'Basket' });
    await root.created(`${F}/tray-profiles/`, { module_type: trayType.id, tray_role: 'splice_tray', max_fibers: 12 });
    await root.created(`${F}/tray-profiles/`, { module_type: basketType.id, tray_role: 'express_basket', max_fibers: 48 });
    const module = async (bayName: string, moduleType: number) => {
      const bay = await root.created('/api/dcim/module-bays/', { device: fx.closure.id, name: bayName });
      return root.created('/api/dcim/modules/', { device: fx.closure.id, module_bay: bay.id, module_type: moduleType });
    };
    fx.tray1 = await module('Slot 1', trayType.id);
    fx.tray2 = await module('Slot 2', trayType.id);
    fx.basket = await module('Slot 3', basketType.id);

    // 2 tubes × 2 fibres: tube T1 holds strands 1–2, T2 strands 3–4.
    fx.type = await root.created(`${F}/cable-types/`, {
      manufacturer: maker.id,
      model: 'Mini 4',
      construction: 'loose_tube',
      strand_count: 4,
    });
    for (const [position, color] of [
      [1, '0000ff'],
      [2, 'ff8000'],
    ] as const)
      await root.created(`${F}/buffer-tube-templates/`, {
        fiber_cable_type: fx.type.id,
        name: `T${position}`,
        position,
        color,
        fiber_count: 2,
      });

    // A cable from each ODF's rear port to one of the closure's, its strands provisioned: A side on the ODF, B side on the closure.
    const feed = async (odf: any, label: string) => {
      const far = await root.created(REAR_PORTS, { device: odf.id, name: `${label}-R`, type: 'splice' });
      const near = await root.created(REAR_PORTS, { device: fx.closure.id, name: `${label}-R`, type: 'splice' });
      const cable = await root.created(CABLES, {
        label,
        type: 'smf',
        length: 2,
        length_unit: 'km',
        a_terminations: [{ object_type: 'dcim.rearport', object_id: far.id }],
        b_terminations: [{ object_type: 'dcim.rearport', object_id: near.id }],
      });
      const fiberCable = await root.created(`${F}/fiber-cables/`, { cable: cable.id, fiber_cable_type: fx.type.id });
      const strands = await strandsOf(fiberCable.id);
      const odfPorts: any[] = [];
      const closurePorts: any[] = [];
      for (const strand of strands) {
        odfPorts.push(await root.created(FRONT_PORTS, { device: odf.id, name: `${label}-F${strand.position}`, type: 'splice' }));
        closurePorts.push(await root.created(FRONT_PORTS, { device: fx.closure.id, name: `${label}-F${strand.position}`, type: 'splice' }));
        await root.patch(`${STRANDS}${strand.id}/`, { front_port_a: odfPorts.at(-1).id, front_port_b: closurePorts.at(-1).id });
      }
      const tubes = (await root.get(`${F}/buffer-tubes/?fiber_cable_id=${fiberCable.id}`)).body.results;
      await root.created(`${F}/closure-cable-entries/`, { closure: fx.closure.id, fiber_cable: fiberCable.id });
      return { cable, fiberCable, strands, tubes, odfPorts, closurePorts, far, near };
    };
    fx.westCable = await feed(fx.west, 'W1');
    fx.eastCable = await feed(fx.east, 'E1');

    await root.created('/api/users/permissions/', {
      name: 'fms planners',
      object_types: ['fms.spliceplan', 'fms.spliceplanentry'],
      actions: ['view', 'add', 'change', 'delete'],
      users: [w.user1.id],
    });
    planner = root.as(await provisionToken(seeded.api, w.user1.username, PASSWORD));
    stranger = root.as(await provisionToken(seeded.api, w.user2.username, PASSWORD));
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('tube assignments', () => {
    it("puts the tube's closure-side front ports on the tray, each move in the change log", async () => {
      const [w1, w2] = fx.westCable.closurePorts;
      expect([await moduleOf(w1.id), await moduleOf(w2.id)]).toEqual([null, null]);
      fx.westT1 = await root.created(ASSIGNMENTS, { closure: fx.closure.id, tray: fx.tray1.id, buffer_tube: fx.westCable.tubes[0].id });
      expect(fx.westT1).not.toHaveProperty('confirm_reassign');
      expect([await moduleOf(w1.id), await moduleOf(w2.id)]).toEqual([fx.tray1.id, fx.tray1.id]);
      // The ODF-side ports of the same strands stay where they are.
      expect(await moduleOf(fx.westCable.odfPorts[0].id)).toBeNull();
      const logged = await count(
        'core_objectchange',
        "WHERE changed_object_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'dcim' AND model = 'frontport') AND action = 'update' AND changed_object_id = ANY($1)",
        [[w1.id, w2.id]],
      );
      expect(logged).toBe(2);
    });

    it('refuses to take ports from another module unless confirm_reassign is set', async () => {
      const [e1, e2] = fx.eastCable.closurePorts;
      expect((await root.patch(`${FRONT_PORTS}${e1.id}/`, { module: fx.tray2.id })).status).toBe(200);
      const body = { closure: fx.closure.id, tray: fx.tray1.id, buffer_tube: fx.eastCable.tubes[0].id };
      const before = await count('fms_tubeassignment');
      const refused = await root.post(ASSIGNMENTS, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        confirm_reassign: ['The following front ports already belong to another module: E1-F1. Set confirm_reassign to move them.'],
      });
      expect((await root.post(ASSIGNMENTS, { ...body, confirm_reassign: 'yes' })).body).toEqual({
        confirm_reassign: ['Must be a valid boolean.'],
      });
      expect(await count('fms_tubeassignment')).toBe(before);
      expect(await moduleOf(e1.id)).toBe(fx.tray2.id);
      fx.eastT1 = await root.created(ASSIGNMENTS, { ...body, confirm_reassign: true });
      expect([await moduleOf(e1.id), await moduleOf(e2.id)]).toEqual([fx.tray1.id, fx.tray1.id]);
    });

    it('moves the ports with the assignment and back to the device when it is deleted', async () => {
      const [e1, e2] = fx.eastCable.closurePorts;
      // Its own tray is no conflict: moving the assignment needs no confirmation.
      const moved = await root.patch(`${ASSIGNMENTS}${fx.eastT1.id}/`, { tray: fx.tray2.id });
      expect(moved.status).toBe(200);
      expect([await moduleOf(e1.id), await moduleOf(e2.id)]).toEqual([fx.tray2.id, fx.tray2.id]);
      // A port moved elsewhere by hand is left there when the assignment goes.
      expect((await root.patch(`${FRONT_PORTS}${e2.id}/`, { module: fx.basket.id })).status).toBe(200);
      expect((await root.delete(`${ASSIGNMENTS}${fx.eastT1.id}/`)).status).toBe(204);
      expect([await moduleOf(e1.id), await moduleOf(e2.id)]).toEqual([null, fx.basket.id]);
      expect((await root.patch(`${FRONT_PORTS}${e2.id}/`, { module: null })).status).toBe(200);
    });

    it('documents confirm_reassign as a write-only request property', async () => {
      const schema = (await root.get('/api/schema/')).body;
      const writable = Object.entries(schema.components.schemas as Record<string, any>).find(
        ([name, value]) => /^WritableFmsTubeassignment/.test(name) && value.properties?.confirm_reassign,
      );
      expect(writable?.[1].properties.confirm_reassign).toMatchObject({ type: 'boolean', writeOnly: true });
    });
  });

  describe('live splices, import and the strand map', () => {
    const splice = (a: number, b: number) =>
      root.created(CABLES, {
        status: 'connected',
        a_terminations: [{ object_type: 'dcim.frontport', object_id: a }],
        b_terminations: [{ object_type: 'dcim.frontport', object_id: b }],
      });

    it('imports the live splices into a draft plan, skipping fibres already named or claimed', async () => {
      const [w1, w2] = fx.westCable.closurePorts;
      const [e1, e2, e3, e4] = fx.eastCable.closurePorts;
      // w1 (tray 1) ↔ e1 and e2 ↔ w2 (tray 1), e1 and e2 on no tray: fiber_a is the port on a tray;
      // e3 ↔ e4, both on no tray, cannot be an entry.
      fx.live1 = await splice(w1.id, e1.id);
      fx.live2 = await splice(e2.id, w2.id);
      await splice(e3.id, e4.id);
      fx.plan = await planner.created(PLANS, { closure: fx.closure.id, name: 'As built' });
      const imported = await planner.post(`${PLANS}${fx.plan.id}/import-from-device/`);
      expect(imported.status).toBe(200);
      expect(imported.body).toEqual({ imported: 2, skipped_existing: 0, skipped_claimed: 0, skipped_no_tray: 1 });
      const entries = await seeded.db.query(
        'SELECT fiber_a_id, fiber_b_id, tray_id FROM fms_spliceplanentry WHERE plan_id = $1 ORDER BY id',
        [fx.plan.id],
      );
      expect(entries.rows).toEqual([
        { fiber_a_id: w1.id, fiber_b_id: e1.id, tray_id: fx.tray1.id },
        { fiber_a_id: w2.id, fiber_b_id: e2.id, tray_id: fx.tray1.id },
      ]);
      const diff = await planner.get(`${PLANS}${fx.plan.id}/diff/`);
      expect(Object.values(diff.body as Record<string, any>).flatMap((tray) => [...tray.add, ...tray.remove])).toEqual([]);
      expect((await planner.post(`${PLANS}${fx.plan.id}/import-from-device/`)).body).toEqual({
        imported: 0,
        skipped_existing: 2,
        skipped_claimed: 0,
        skipped_no_tray: 1,
      });
      const other = await planner.created(PLANS, { closure: fx.closure.id, name: 'Second opinion' });
      expect((await planner.post(`${PLANS}${other.id}/import-from-device/`)).body).toEqual({
        imported: 0,
        skipped_existing: 0,
        skipped_claimed: 2,
        skipped_no_tray: 1,
      });
      expect((await root.delete(`${PLANS}${other.id}/`)).status).toBe(204);
    });

    it('refuses an import into a plan that is not a draft, or without change permission, as {"error"}', async () => {
      expect((await planner.post(`${PLANS}${fx.plan.id}/transition/`, { action: 'submit' })).status).toBe(200);
      const before = await count('fms_spliceplanentry');
      const refused = await planner.post(`${PLANS}${fx.plan.id}/import-from-device/`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: "Plan is 'pending_approval' — only draft plans can be edited.",
        non_field_errors: ["Plan is 'pending_approval' — only draft plans can be edited."],
      });
      expect((await stranger.post(`${PLANS}${fx.plan.id}/import-from-device/`)).status).toBe(403);
      // Deleting a plan under review is the approvers' (upstream's destroy answers {"error"}).
      const deleted = await planner.delete(`${PLANS}${fx.plan.id}/`);
      expect(deleted.status).toBe(403);
      expect(deleted.body.error).toContain('approve_spliceplan');
      expect(deleted.body.detail).toBe(deleted.body.error);
      expect(await count('fms_spliceplanentry')).toBe(before);
      expect((await root.post(`${PLANS}${fx.plan.id}/transition/`, { action: 'reject' })).status).toBe(200);
    });

    it('maps the closure strands by cable and tube with live, planned and protected state', async () => {
      const [w1, w2] = fx.westCable.closurePorts;
      const circuit = await root.created(`${F}/fiber-circuits/`, { name: 'West–East', strand_count: 1, status: 'active' });
      await root.created(`${F}/fiber-circuit-paths/`, { circuit: circuit.id, position: 1, origin: w1.id });
      const version = (await root.get(`${PLANS}${fx.plan.id}/`)).body.plan_version;
      const map = await root.get(`${F}/closure-strands/${fx.closure.id}/?plan_id=${fx.plan.id}`);
      expect(map.status).toBe(200);
      expect(map.body.plan_version).toBe(version);
      expect(map.body.cables.map((cable: any) => cable.cable_label)).toEqual(['W1', 'E1']);
      const west = map.body.cables[0];
      expect(west).toMatchObject({
        fiber_cable_id: fx.westCable.fiberCable.id,
        cable_url: expect.stringMatching(new RegExp(`/api/plugins/fms/fiber-cables/${fx.westCable.fiberCable.id}/$`)),
        fiber_type: 'smf',
        strand_count: 4,
        far_device_name: 'ODF-West',
        far_device_url: expect.stringMatching(new RegExp(`/api/dcim/devices/${fx.west.id}/$`)),
        loose_strands: [],
      });
      expect(west.tubes.map((tube: any) => [tube.name, tube.strand_count, tube.tray_assignment?.tray_id ?? null])).toEqual([
        ['T1', 2, fx.tray1.id],
        ['T2', 2, null],
      ]);
      expect(west.tubes[0].tray_assignment).toMatchObject({
        tray_name: 'Slot 1: Tray 12 (' + fx.tray1.id + ')',
        assignment_id: fx.westT1.id,
      });
      const eastStrands = fx.eastCable.strands;
      expect(west.tubes[0].strands[0]).toEqual({
        id: fx.westCable.strands[0].id,
        name: fx.westCable.strands[0].name,
        position: 1,
        color: fx.westCable.strands[0].color,
        tube_color: '0000ff',
        tube_name: 'T1',
        ribbon_name: null,
        ribbon_color: null,
        front_port_a_id: w1.id,
        live_spliced_to: eastStrands[0].id,
        plan_entry_id: expect.any(Number),
        plan_spliced_to: eastStrands[0].id,
        plan_is_express: false,
        protected: true,
        circuit_name: 'West–East',
        circuit_url: expect.stringMatching(new RegExp(`/api/plugins/fms/fiber-circuits/${circuit.id}/$`)),
      });
      expect(west.tubes[0].strands[1]).toMatchObject({ front_port_a_id: w2.id, live_spliced_to: eastStrands[1].id, protected: false });
      expect(west.tubes[1].strands[0]).toMatchObject({ live_spliced_to: null, plan_entry_id: null, plan_spliced_to: null });
      expect(map.body.trays).toEqual([
        { id: fx.tray1.id, name: `Slot 1: Tray 12 (${fx.tray1.id})`, role: 'splice_tray', capacity: 2 },
        { id: fx.tray2.id, name: `Slot 2: Tray 12 (${fx.tray2.id})`, role: 'splice_tray', capacity: 0 },
        { id: fx.basket.id, name: `Slot 3: Basket (${fx.basket.id})`, role: 'express_basket', capacity: 0 },
      ]);
      const withoutPlan = await root.get(`${F}/closure-strands/${fx.closure.id}/`);
      expect(withoutPlan.body.plan_version).toBeNull();
      expect(withoutPlan.body.cables[0].tubes[0].strands[0]).toMatchObject({ plan_entry_id: null, plan_spliced_to: null });
      await root.patch(`${F}/fiber-circuits/${circuit.id}/`, { status: 'decommissioned' });
    });

    it('shows only what the caller may view, and refuses a malformed plan id as {"error"}', async () => {
      // The planner may view plans but no device, cable or strand: an empty map, as for a closure that does not exist.
      expect((await planner.get(`${F}/closure-strands/${fx.closure.id}/?plan_id=${fx.plan.id}`)).body).toEqual({
        cables: [],
        trays: [],
        plan_version: null,
      });
      expect((await root.get(`${F}/closure-strands/424242/`)).body).toEqual({ cables: [], trays: [], plan_version: null });
      const bad = await root.get(`${F}/closure-strands/${fx.closure.id}/?plan_id=x`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        error: 'plan_id: Enter a whole number (a splice plan id).',
        plan_id: ['Enter a whole number (a splice plan id).'],
      });
      expect((await root.get(`${F}/closure-strands/abc/`)).status).toBe(404);
      expect((await root.as(undefined).get(`${F}/closure-strands/${fx.closure.id}/`)).status).toBe(403);
    });

    it('marks the cached diff stale when a cable on the closure is created, changed or deleted', async () => {
      const stale = async () =>
        (await seeded.db.query('SELECT diff_stale FROM fms_spliceplan WHERE id = $1', [fx.plan.id])).rows[0].diff_stale;
      await planner.get(`${PLANS}${fx.plan.id}/diff/`);
      expect(await stale()).toBe(false);
      // Unsplicing w1 ↔ e1 outside the plan: the next diff shows the pair to add again.
      expect((await root.delete(`${CABLES}${fx.live1.id}/`)).status).toBe(204);
      expect(await stale()).toBe(true);
      const diff = await planner.get(`${PLANS}${fx.plan.id}/diff/`);
      expect(diff.body[String(fx.tray1.id)].add).toEqual([[fx.westCable.closurePorts[0].id, fx.eastCable.closurePorts[0].id]]);
      expect(await stale()).toBe(false);
      fx.live1 = await splice(fx.westCable.closurePorts[0].id, fx.eastCable.closurePorts[0].id);
      expect(await stale()).toBe(true);
      await planner.get(`${PLANS}${fx.plan.id}/diff/`);
      expect((await root.patch(`${CABLES}${fx.live1.id}/`, { label: 'splice w1-e1' })).status).toBe(200);
      expect(await stale()).toBe(true);
      // A cable elsewhere leaves the plan's cache alone.
      await planner.get(`${PLANS}${fx.plan.id}/diff/`);
      const westPorts = fx.westCable.odfPorts;
      await root.created(CABLES, {
        a_terminations: [{ object_type: 'dcim.frontport', object_id: westPorts[2].id }],
        b_terminations: [{ object_type: 'dcim.frontport', object_id: westPorts[3].id }],
      });
      expect(await stale()).toBe(false);
      // So does a change of the plan's entries through their own endpoint.
      const [w2] = fx.westCable.closurePorts.slice(1);
      const entry = await planner.get(`${F}/splice-plan-entries/?plan_id=${fx.plan.id}&fiber_a_id=${w2.id}`);
      expect(entry.body.count).toBe(1);
      expect((await planner.delete(`${F}/splice-plan-entries/${entry.body.results[0].id}/`)).status).toBe(204);
      expect(await stale()).toBe(true);
    });
  });

  describe('quick-add', () => {
    it('creates a draft plan and answers it with 201; the model refuses as for POST splice-plans/', async () => {
      const created = await planner.post(`${PLANS}quick-add/`, { closure: fx.closure.id, name: 'Quick one' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Quick one', status: { value: 'draft' }, closure: { id: fx.closure.id }, entry_count: 0 });
      expect((await root.get(`${PLANS}${created.body.id}/`)).body.name).toBe('Quick one');
      const invalid = await planner.post(`${PLANS}quick-add/`, { name: 'No closure' });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ closure: ['This field is required.'] });
      const before = await count('fms_spliceplan');
      expect((await stranger.post(`${PLANS}quick-add/`, { closure: fx.closure.id, name: 'Nope' })).status).toBe(403);
      expect(await count('fms_spliceplan')).toBe(before);
    });
  });

  describe('circuit trace', () => {
    it('answers the hops as devices with ports, cables with strand and tube, and the splice with its plan and tray', async () => {
      const [w1] = fx.westCable.closurePorts;
      const [e1] = fx.eastCable.closurePorts;
      const entry = (
        await seeded.db.query('SELECT id FROM fms_spliceplanentry WHERE plan_id = $1 AND fiber_a_id = $2', [fx.plan.id, w1.id])
      ).rows[0].id;
      const circuit = await root.created(`${F}/fiber-circuits/`, { name: 'Trace W-E', strand_count: 2 });
      const path = await root.created(`${F}/fiber-circuit-paths/`, {
        circuit: circuit.id,
        position: 1,
        origin: fx.westCable.odfPorts[0].id,
        destination: fx.eastCable.odfPorts[0].id,
        path: [
          { type: 'rear_port', id: fx.westCable.far.id },
          { type: 'cable', id: fx.westCable.cable.id },
          { type: 'rear_port', id: fx.westCable.near.id },
          { type: 'front_port', id: w1.id },
          { type: 'splice_entry', id: entry },
          { type: 'front_port', id: e1.id },
          { type: 'rear_port', id: fx.eastCable.near.id },
          { type: 'cable', id: fx.eastCable.cable.id },
          { type: 'rear_port', id: fx.eastCable.far.id },
        ],
      });
      const trace = await root.get(`${F}/fiber-circuit-paths/${path.id}/trace/`);
      expect(trace.status).toBe(200);
      expect(trace.body.circuit_url).toMatch(new RegExp(`/api/plugins/fms/fiber-circuits/${circuit.id}/$`));
      const port = (p: any) => ({ id: p.id, name: p.name });
      const deviceUrl = (id: number) => expect.stringMatching(new RegExp(`/api/dcim/devices/${id}/$`));
      const cableHop = (feed: any, label: string) => ({
        type: 'cable',
        id: feed.cable.id,
        label,
        fiber_type: 'smf',
        strand_count: 4,
        strand_position: 1,
        strand_color: feed.strands[0].color,
        tube_name: 'T1',
        tube_color: '0000ff',
        fiber_cable_id: feed.fiberCable.id,
        fiber_cable_url: expect.stringMatching(new RegExp(`/api/plugins/fms/fiber-cables/${feed.fiberCable.id}/$`)),
      });
      expect(trace.body.hops).toEqual([
        {
          type: 'device',
          id: fx.west.id,
          name: 'ODF-West',
          role: 'Splice closure',
          site: 'Hub',
          url: deviceUrl(fx.west.id),
          ports: { front_port: port(fx.westCable.odfPorts[0]), rear_port: port(fx.westCable.far) },
        },
        cableHop(fx.westCable, 'W1'),
        {
          type: 'device',
          id: fx.closure.id,
          name: 'SC-1',
          role: 'Splice closure',
          site: 'Hub',
          url: deviceUrl(fx.closure.id),
          ingress: { rear_port: port(fx.westCable.near), front_port: port(w1) },
          splice: {
            id: entry,
            plan_id: fx.plan.id,
            plan_name: 'As built',
            tray_id: fx.tray1.id,
            tray: `Slot 1: Tray 12 (${fx.tray1.id})`,
            is_express: false,
          },
          egress: { front_port: port(e1), rear_port: port(fx.eastCable.near) },
        },
        cableHop(fx.eastCable, 'E1'),
        {
          type: 'device',
          id: fx.east.id,
          name: 'ODF-East',
          role: 'Splice closure',
          site: 'Hub',
          url: deviceUrl(fx.east.id),
          ingress: { rear_port: port(fx.eastCable.far), front_port: port(fx.eastCable.odfPorts[0]) },
        },
      ]);
    });
  });

  describe('provider circuits', () => {
    it('links a fiber circuit to the provider circuits it rides on, in REST and GraphQL', async () => {
      const provider = await root.created('/api/circuits/providers/', { name: 'Carrier', slug: 'carrier' });
      const type = await root.created('/api/circuits/circuit-types/', { name: 'Dark fibre', slug: 'dark-fibre' });
      const leased = await root.created('/api/circuits/circuits/', { cid: 'LEASE-7', provider: provider.id, type: type.id });
      const circuit = await root.created(`${F}/fiber-circuits/`, { name: 'Over lease', strand_count: 1, provider_circuits: [leased.id] });
      expect(circuit.provider_circuits).toEqual([expect.objectContaining({ id: leased.id, cid: 'LEASE-7' })]);
      const gql = await root.post('/graphql/', {
        query: `{ fms_fiber_circuit(id: ${circuit.id}) { name provider_circuits { id cid } } }`,
      });
      expect(gql.body).toEqual({
        data: { fms_fiber_circuit: { name: 'Over lease', provider_circuits: [{ id: String(leased.id), cid: 'LEASE-7' }] } },
      });
      expect((await root.patch(`${F}/fiber-circuits/${circuit.id}/`, { provider_circuits: [] })).body.provider_circuits).toEqual([]);
      expect((await root.post(`${F}/fiber-circuits/`, { name: 'Bad', strand_count: 1, provider_circuits: [424242] })).status).toBe(400);
    });
  });

  describe('{"error"} bodies of the plan actions', () => {
    it('answers apply refusals with error and detail', async () => {
      const refused = await root.post(`${PLANS}${fx.plan.id}/apply/`);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error: "Plan is 'draft': only an approved plan can be applied.",
        detail: "Plan is 'draft': only an approved plan can be applied.",
      });
      const transition = await root.post(`${PLANS}${fx.plan.id}/transition/`, { action: 'fly' });
      expect(transition.status).toBe(400);
      expect(Object.keys(transition.body)).toEqual(['error', 'action']);
    });
  });
});
