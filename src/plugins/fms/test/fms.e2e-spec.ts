import { PASSWORD } from '../../../../test/support/api-client';
import { countRows, PlatformClient, provisionToken, startPlatformApp } from '../../../../test/support/platform-client';
import type { SeededApp } from '../../../../test/support/seeded-app';

const F = '/api/plugins/fms';
const TYPES = `${F}/cable-types/`;
const TUBE_TEMPLATES = `${F}/buffer-tube-templates/`;
const RIBBON_TEMPLATES = `${F}/ribbon-templates/`;
const ELEMENT_TEMPLATES = `${F}/cable-element-templates/`;
const FIBER_CABLES = `${F}/fiber-cables/`;
const STRANDS = `${F}/fiber-strands/`;
const PLANS = `${F}/splice-plans/`;
const ENTRIES = `${F}/splice-plan-entries/`;
const CIRCUITS = `${F}/fiber-circuits/`;
const PATHS = `${F}/fiber-circuit-paths/`;
const FRONT_PORTS = '/api/dcim/front-ports/';
const CABLES = '/api/dcim/cables/';

/**
 * The fms plugin walked as a fibre planner would: a closure with tray modules, two cables of a
 * 2-tube × 12-fibre type whose strands are provisioned to the closure's front ports, a splice plan
 * bulk-updated, submitted, approved and applied, a fiber circuit over the result, what protects
 * what, and every refusal with the database unchanged after it.
 */
describe('platform fms plugin: fiber cables, splice plans, circuits', () => {
  let seeded: SeededApp;
  let root: PlatformClient;
  let planner: PlatformClient;
  let approver: PlatformClient;
  let reader: PlatformClient;
  const fx: Record<string, any> = {};
  const count = (table: string, where = '', params: unknown[] = []) => countRows(seeded.db, table, where, params);
  const note = { 'X-Changelog-Message': 'splice feeder to distribution' };

  beforeAll(async () => {
    ({ seeded, api: root } = await startPlatformApp());
    const { w } = seeded;
    const site = await root.created('/api/dcim/sites/', { name: 'POP1', slug: 'pop1' });
    fx.site = site;
    fx.maker = await root.created('/api/dcim/manufacturers/', { name: 'Corning', slug: 'corning' });
    const closureType = await root.created('/api/dcim/device-types/', { manufacturer: fx.maker.id, model: 'FOSC 450', slug: 'fosc-450' });
    const role = await root.created('/api/dcim/device-roles/', { name: 'Closure', slug: 'closure' });
    fx.closure = await root.created('/api/dcim/devices/', { name: 'closure-1', device_type: closureType.id, role: role.id, site: site.id });
    fx.otherDevice = await root.created('/api/dcim/devices/', {
      name: 'closure-2',
      device_type: closureType.id,
      role: role.id,
      site: site.id,
    });
    fx.trayType = await root.created('/api/dcim/module-types/', { manufacturer: fx.maker.id, model: 'Splice tray 24' });
    fx.trayProfile = await root.created(`${F}/tray-profiles/`, { module_type: fx.trayType.id, tray_role: 'splice_tray', max_fibers: 24 });
    const bay1 = await root.created('/api/dcim/module-bays/', { device: fx.closure.id, name: 'Tray slot 1' });
    const bay2 = await root.created('/api/dcim/module-bays/', { device: fx.closure.id, name: 'Tray slot 2' });
    fx.tray1 = await root.created('/api/dcim/modules/', { device: fx.closure.id, module_bay: bay1.id, module_type: fx.trayType.id });
    fx.tray2 = await root.created('/api/dcim/modules/', { device: fx.closure.id, module_bay: bay2.id, module_type: fx.trayType.id });
    fx.ports = [];
    for (let i = 1; i <= 8; i++) {
      fx.ports.push(
        await root.created(FRONT_PORTS, {
          device: fx.closure.id,
          module: i <= 4 ? fx.tray1.id : fx.tray2.id,
          name: `P${i}`,
          type: 'splice',
        }),
      );
    }
    fx.looseCableEnd = await root.created(FRONT_PORTS, { device: fx.closure.id, name: 'no-tray', type: 'splice' });
    fx.farPort = await root.created(FRONT_PORTS, { device: fx.otherDevice.id, module: null, name: 'far', type: 'splice' });

    const permission = async (name: string, objectTypes: string[], actions: string[], users: number[]) =>
      root.created('/api/users/permissions/', { name, object_types: objectTypes, actions, users });
    await permission('planners', ['fms.spliceplan', 'fms.spliceplanentry'], ['view', 'add', 'change', 'delete'], [w.user1.id]);
    await permission('approvers', ['fms.spliceplan'], ['view', 'approve'], [w.user2.id]);
    await permission('circuit readers', ['fms.fibercircuit'], ['view'], [w.admin1.id]);
    planner = root.as(await provisionToken(seeded.api, w.user1.username, PASSWORD));
    approver = root.as(await provisionToken(seeded.api, w.user2.username, PASSWORD));
    reader = root.as(await provisionToken(seeded.api, w.admin1.username, PASSWORD, { write_enabled: false }));
    fx.users = w;
    fx.odf = await root.created('/api/dcim/devices/', { name: 'odf-1', device_type: closureType.id, role: role.id, site: site.id });
  });

  let rearPorts = 0;
  /** A platform cable of a fibre type (or another) from the ODF's rear port to one of the closure's. */
  const platformCable = async (body: Record<string, unknown>) => {
    rearPorts += 1;
    const near = await root.created('/api/dcim/rear-ports/', { device: fx.odf.id, name: `R${rearPorts}`, type: 'splice' });
    const far = await root.created('/api/dcim/rear-ports/', { device: fx.closure.id, name: `R${rearPorts}`, type: 'splice' });
    return root.created(CABLES, {
      ...body,
      a_terminations: [{ object_type: 'dcim.rearport', object_id: near.id }],
      b_terminations: [{ object_type: 'dcim.rearport', object_id: far.id }],
    });
  };

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  describe('cable types and fiber cables', () => {
    it('creates a 2-tube × 12-fibre type with its templates and counts them', async () => {
      fx.type = await root.created(TYPES, { manufacturer: fx.maker.id, model: 'ALTOS 24', construction: 'loose_tube', strand_count: 24 });
      expect(fx.type).toMatchObject({
        model: 'ALTOS 24',
        construction: { value: 'loose_tube' },
        strand_count: 24,
        instance_count: 0,
        color_scheme: { value: 'eia_598' },
      });
      expect(fx.type.manufacturer).toMatchObject({ id: fx.maker.id, display: 'Corning' });
      for (const [position, color] of [
        [1, '0000ff'],
        [2, 'ff8000'],
      ] as const) {
        await root.created(TUBE_TEMPLATES, { fiber_cable_type: fx.type.id, name: `T${position}`, position, color, fiber_count: 12 });
      }
      await root.created(ELEMENT_TEMPLATES, { fiber_cable_type: fx.type.id, name: 'CSM', element_type: 'central_member' });
      const type = (await root.get(`${TYPES}${fx.type.id}/`)).body;
      expect(type).toMatchObject({ buffer_tube_template_count: 2, ribbon_template_count: 0, cable_element_template_count: 1 });
    });

    it('refuses an armored type without armor type, and a duplicate model of one maker', async () => {
      const before = await count('fms_fibercabletype');
      const armored = await root.post(TYPES, {
        manufacturer: fx.maker.id,
        model: 'X',
        construction: 'loose_tube',
        strand_count: 12,
        is_armored: true,
      });
      expect(armored.status).toBe(400);
      expect(armored.body).toEqual({ armor_type: ['An armored cable type needs an armor type.'] });
      const duplicate = await root.post(TYPES, { manufacturer: fx.maker.id, model: 'ALTOS 24', construction: 'ribbon', strand_count: 24 });
      expect(duplicate.status).toBe(400);
      const badConstruction = await root.post(TYPES, {
        manufacturer: fx.maker.id,
        model: 'Y',
        construction: 'spaghetti',
        strand_count: 24,
      });
      expect(badConstruction.status).toBe(400);
      expect(Object.keys(badConstruction.body)).toEqual(['construction']);
      expect(await count('fms_fibercabletype')).toBe(before);
    });

    it('builds every tube, strand and element of a new fiber cable; a cable of a copper type is refused', async () => {
      for (const name of ['feeder', 'distribution']) {
        const cable = await platformCable({ type: 'smf-os2', label: name, length: 1250, length_unit: 'm' });
        fx[name] = await root.created(FIBER_CABLES, { fiber_cable_type: fx.type.id, cable: cable.id });
        expect(fx[name]).toMatchObject({ cable: { id: cable.id }, fiber_cable_type: { id: fx.type.id, display: 'ALTOS 24' } });
      }
      expect(await count('fms_buffertube', 'WHERE fiber_cable_id = $1', [fx.feeder.id])).toBe(2);
      expect(await count('fms_cableelement', 'WHERE fiber_cable_id = $1', [fx.feeder.id])).toBe(1);
      const strands = await root.get(`${STRANDS}?fiber_cable_id=${fx.feeder.id}&limit=50`);
      expect(strands.status).toBe(200);
      expect(strands.body.count).toBe(24);
      expect(strands.body.results.map((strand: any) => strand.position)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      const s13 = strands.body.results[12];
      expect(s13).toMatchObject({ name: 'T2-F1', position: 13, color: '0000ff', front_port_a: null });
      expect(strands.body.results[11]).toMatchObject({ name: 'T1-F12', color: '00ffff' });
      fx.feederStrands = strands.body.results;
      fx.distributionStrands = (await root.get(`${STRANDS}?fiber_cable_id=${fx.distribution.id}`)).body.results;
      const tube2 = await root.get(`${F}/buffer-tubes/?fiber_cable_id=${fx.feeder.id}&name=T2`);
      const inTube2 = await root.get(`${STRANDS}?buffer_tube_id=${tube2.body.results[0].id}`);
      expect(inTube2.body.count).toBe(12);
      expect((await root.get(`${TYPES}${fx.type.id}/`)).body.instance_count).toBe(2);

      const copper = await platformCable({ type: 'cat6' });
      const before = await count('fms_fiberstrand');
      const refused = await root.post(FIBER_CABLES, { fiber_cable_type: fx.type.id, cable: copper.id });
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body)).toEqual(['cable']);
      expect(refused.body.cable[0]).toContain('not a fibre type');
      const again = await root.post(FIBER_CABLES, { fiber_cable_type: fx.type.id, cable: fx.feeder.cable.id });
      expect(again.status).toBe(400);
      expect(Object.keys(again.body)).toEqual(['cable']);
      expect(await count('fms_fiberstrand')).toBe(before);
    });

    it('leaves nothing behind when the type’s templates do not add up to its strand count', async () => {
      const broken = await root.created(TYPES, {
        manufacturer: fx.maker.id,
        model: 'Broken 36',
        construction: 'loose_tube',
        strand_count: 36,
      });
      await root.created(TUBE_TEMPLATES, { fiber_cable_type: broken.id, name: 'T1', position: 1, fiber_count: 12 });
      const cable = await platformCable({ type: 'smf' });
      const before = {
        cables: await count('fms_fibercable'),
        tubes: await count('fms_buffertube'),
        strands: await count('fms_fiberstrand'),
      };
      const refused = await root.post(FIBER_CABLES, { fiber_cable_type: broken.id, cable: cable.id });
      expect(refused.status).toBe(400);
      expect(refused.body.fiber_cable_type[0]).toContain('hold 12 fibers but its strand_count is 36');
      expect({
        cables: await count('fms_fibercable'),
        tubes: await count('fms_buffertube'),
        strands: await count('fms_fiberstrand'),
      }).toEqual(before);
    });

    it('names and colours strands by each scheme at positions 1, 12, 13, 24 and 25', async () => {
      const expected: Record<string, Record<number, string>> = {
        eia_598: { 1: '0000ff', 12: '00ffff', 13: '0000ff', 24: '00ffff', 25: '0000ff' },
        nbr_14771: { 1: '00ff00', 12: '00ffff', 13: '00ff00', 24: '00ffff', 25: '00ff00' },
        din_iec_60304: { 1: 'ff0000', 12: 'ff69b4', 13: 'ff0000', 24: 'ff69b4', 25: 'ff0000' },
      };
      for (const [scheme, colours] of Object.entries(expected)) {
        const type = await root.created(TYPES, {
          manufacturer: fx.maker.id,
          model: `Flat ${scheme}`,
          construction: 'tight_buffer',
          strand_count: 25,
          color_scheme: scheme,
        });
        const cable = await platformCable({ type: 'smf' });
        const fiberCable = await root.created(FIBER_CABLES, { fiber_cable_type: type.id, cable: cable.id });
        const strands = (await root.get(`${STRANDS}?fiber_cable_id=${fiberCable.id}`)).body.results as any[];
        for (const [position, colour] of Object.entries(colours)) {
          expect({ scheme, position, name: strands[Number(position) - 1].name, color: strands[Number(position) - 1].color }).toEqual({
            scheme,
            position,
            name: `F${position}`,
            color: colour,
          });
        }
      }
    });

    it('builds ribbons inside tubes with strands named after their ribbon and markers every 12', async () => {
      const type = await root.created(TYPES, {
        manufacturer: fx.maker.id,
        model: 'Ribbon 48',
        construction: 'ribbon_in_tube',
        strand_count: 48,
        strand_marker_interval: 12,
        strand_marker_color: '000000',
        strand_marker_type: 'ring',
      });
      const tube = await root.created(TUBE_TEMPLATES, { fiber_cable_type: type.id, name: 'T1', position: 1, fiber_count: null });
      for (const position of [1, 2]) {
        await root.created(RIBBON_TEMPLATES, {
          fiber_cable_type: type.id,
          buffer_tube_template: tube.id,
          name: `R${position}`,
          position,
          fiber_count: 24,
        });
      }
      const loose = await root.patch(`${TUBE_TEMPLATES}${tube.id}/`, { fiber_count: 12 });
      expect(loose.status).toBe(400);
      expect(Object.keys(loose.body)).toEqual(['fiber_count']);
      const cable = await platformCable({ type: 'smf' });
      const fiberCable = await root.created(FIBER_CABLES, { fiber_cable_type: type.id, cable: cable.id });
      const strands = (await root.get(`${STRANDS}?fiber_cable_id=${fiberCable.id}`)).body.results as any[];
      expect(strands.map((s) => s.name).slice(0, 2)).toEqual(['R1-F1', 'R1-F2']);
      expect(strands[24]).toMatchObject({ name: 'R2-F1', position: 25, color: '0000ff', marker_count: 0 });
      expect(strands[12]).toMatchObject({ name: 'R1-F13', marker_count: 1, marker_color: '000000', marker_type: { value: 'ring' } });
      const ribbons = await root.get(`${F}/ribbons/?fiber_cable_id=${fiberCable.id}`);
      expect(ribbons.body.count).toBe(2);
      expect((await root.get(`${STRANDS}?ribbon_id=${ribbons.body.results[1].id}`)).body.count).toBe(24);
    });

    it('provisions strands to the closure’s front ports', async () => {
      for (let i = 0; i < 4; i++) {
        const a = await root.patch(`${STRANDS}${fx.feederStrands[i].id}/`, { front_port_a: fx.ports[i].id });
        expect(a.status).toBe(200);
        const b = await root.patch(`${STRANDS}${fx.distributionStrands[i].id}/`, { front_port_a: fx.ports[i + 4].id });
        expect(b.status).toBe(200);
      }
      const provisioned = await root.get(`${STRANDS}?fiber_cable_id=${fx.feeder.id}&has_front_port_a=true`);
      expect(provisioned.body.count).toBe(4);
      expect(provisioned.body.results[0].front_port_a).toMatchObject({ id: fx.ports[0].id, display: 'P1' });
    });
  });

  describe('splice plans', () => {
    const bulk = (client: PlatformClient, body: unknown, headers: Record<string, string> = note) =>
      client.post(`${PLANS}${fx.plan.id}/bulk-update/`, body, headers);
    const planState = async () => ({
      entries: await count('fms_spliceplanentry', 'WHERE plan_id = $1', [fx.plan.id]),
      version: (await root.get(`${PLANS}${fx.plan.id}/`)).body.plan_version,
    });

    it('creates a draft plan; a plan cannot start in another state', async () => {
      fx.project = await root.created(`${F}/splice-projects/`, { name: 'Ring north' });
      const started = await planner.post(PLANS, {
        closure: fx.closure.id,
        name: 'Feeder to distribution',
        project: fx.project.id,
        status: 'approved',
      });
      expect(started.status).toBe(400);
      expect(Object.keys(started.body)).toEqual(['status']);
      fx.plan = await planner.created(PLANS, { closure: fx.closure.id, name: 'Feeder to distribution', project: fx.project.id });
      expect(fx.plan).toMatchObject({
        status: { value: 'draft' },
        submitted_by: null,
        entry_count: 0,
        plan_version: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      });
    });

    it('bulk-updates atomically and answers the entries and the new plan_version', async () => {
      const response = await bulk(planner, {
        add: [
          { fiber_a: fx.ports[0].id, fiber_b: fx.ports[4].id },
          { fiber_a: fx.ports[1].id, fiber_b: fx.ports[5].id },
          { fiber_a: fx.ports[2].id, fiber_b: fx.ports[6].id },
        ],
        plan_version: fx.plan.plan_version,
      });
      expect(response.status).toBe(200);
      expect(response.body.entries).toHaveLength(3);
      expect(response.body.entries[0]).toEqual({
        id: expect.any(Number),
        fiber_a: fx.ports[0].id,
        fiber_b: fx.ports[4].id,
        tray: fx.tray1.id,
        is_express: false,
      });
      expect(response.body.plan_version).not.toBe(fx.plan.plan_version);
      const stored = await seeded.db.query('SELECT change_note, tray_id FROM fms_spliceplanentry WHERE plan_id = $1', [fx.plan.id]);
      expect(stored.rows.every((row) => row.change_note === 'splice feeder to distribution')).toBe(true);
      const logged = await count(
        'core_objectchange',
        "WHERE changed_object_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'fms' AND model = 'spliceplanentry') AND action = 'create' AND message = $1",
        ['splice feeder to distribution'],
      );
      expect(logged).toBe(3);
      const removed = await bulk(planner, {
        remove: [{ fiber_a: fx.ports[6].id, fiber_b: fx.ports[2].id }],
        plan_version: response.body.plan_version,
      });
      expect(removed.status).toBe(200);
      expect(removed.body.entries).toHaveLength(2);
      fx.version = removed.body.plan_version;
      expect((await root.get(`${PLANS}${fx.plan.id}/`)).body).toMatchObject({ entry_count: 2, plan_version: fx.version });
    });

    it('refuses each bad bulk-update with its status and changes nothing', async () => {
      const before = await planState();
      const pair = (a: number, b: number) => ({ fiber_a: fx.ports[a].id, fiber_b: fx.ports[b].id });
      // Refusals of the action itself answer upstream's {"error"} beside the platform's detail or field map.
      const cases: Array<[string, () => Promise<any>, number, string[]]> = [
        ['no change permission', () => bulk(approver, { add: [pair(3, 7)] }), 403, ['detail']],
        [
          'stale plan_version',
          () => bulk(planner, { add: [pair(3, 7)], plan_version: '2020-01-01T00:00:00.000000Z' }),
          409,
          ['error', 'detail'],
        ],
        ['no changelog header', () => bulk(planner, { add: [pair(3, 7)] }, {}), 400, ['error', 'X-Changelog-Message']],
        [
          'blank changelog header',
          () => bulk(planner, { add: [pair(3, 7)] }, { 'X-Changelog-Message': '   ' }),
          400,
          ['error', 'X-Changelog-Message'],
        ],
        ['add not a list', () => bulk(planner, { add: { fiber_a: 1 } }), 400, ['error', 'add']],
        ['item without fiber_b', () => bulk(planner, { add: [{ fiber_a: fx.ports[3].id }] }), 400, ['error', 'add']],
        ['unknown front port', () => bulk(planner, { add: [{ fiber_a: fx.ports[3].id, fiber_b: 999999 }] }), 400, ['error', 'add']],
        [
          'port on another device',
          () => bulk(planner, { add: [{ fiber_a: fx.ports[3].id, fiber_b: fx.farPort.id }] }),
          400,
          ['error', 'add'],
        ],
        [
          'fiber_a on no tray',
          () => bulk(planner, { add: [{ fiber_a: fx.looseCableEnd.id, fiber_b: fx.ports[3].id }] }),
          400,
          ['error', 'add'],
        ],
        ['one fiber twice', () => bulk(planner, { add: [pair(3, 7), pair(3, 6)] }), 409, ['error', 'detail']],
      ];
      for (const [name, call, status, keys] of cases) {
        const response = await call();
        expect({ name, status: response.status, keys: Object.keys(response.body ?? {}) }).toEqual({ name, status, keys });
        if (keys[0] === 'error') expect(typeof response.body.error).toBe('string');
      }
      const stale = await bulk(planner, { add: [pair(3, 7)], plan_version: '2020-01-01T00:00:00.000000Z' });
      expect(stale.body.error).toBe(stale.body.detail);
      const header = await bulk(planner, { add: [pair(3, 7)] }, {});
      expect(header.body.error).toBe(`X-Changelog-Message: ${header.body['X-Changelog-Message'][0]}`);
      expect(await planState()).toEqual(before);
    });

    it('keeps a fiber to one non-archived plan per closure', async () => {
      fx.rival = await planner.created(PLANS, { closure: fx.closure.id, name: 'Rival' });
      const before = await planState();
      const claimed = await planner.post(
        `${PLANS}${fx.rival.id}/bulk-update/`,
        { add: [{ fiber_a: fx.ports[0].id, fiber_b: fx.ports[7].id }] },
        note,
      );
      expect(claimed.status).toBe(409);
      expect(claimed.body.detail).toContain('Feeder to distribution');
      const direct = await planner.post(ENTRIES, {
        plan: fx.rival.id,
        tray: fx.tray1.id,
        fiber_a: fx.ports[0].id,
        fiber_b: fx.ports[7].id,
      });
      expect(direct.status).toBe(400);
      expect(Object.keys(direct.body)).toEqual(['fiber_a']);
      expect(await count('fms_spliceplanentry', 'WHERE plan_id = $1', [fx.rival.id])).toBe(0);
      expect(await planState()).toEqual(before);
    });

    it("lists the closure's claimed fibres as a bare array, without archived or excluded plans", async () => {
      const claims = await planner.get(`${F}/closures/${fx.closure.id}/fiber-claims/`);
      expect(claims.status).toBe(200);
      expect(claims.body).toEqual([
        {
          fiber_a: fx.ports[0].id,
          fiber_b: fx.ports[4].id,
          plan_id: fx.plan.id,
          plan_name: 'Feeder to distribution',
          project_name: 'Ring north',
          status: 'draft',
        },
        {
          fiber_a: fx.ports[1].id,
          fiber_b: fx.ports[5].id,
          plan_id: fx.plan.id,
          plan_name: 'Feeder to distribution',
          project_name: 'Ring north',
          status: 'draft',
        },
      ]);
      expect((await planner.get(`${F}/closures/${fx.closure.id}/fiber-claims/?exclude_plan=${fx.plan.id}`)).body).toEqual([]);
      expect((await planner.get(`${F}/closures/${fx.otherDevice.id}/fiber-claims/`)).body).toEqual([]);
      expect((await planner.get(`${F}/closures/${fx.closure.id}/fiber-claims/?exclude_plan=x`)).status).toBe(400);
      expect((await reader.get(`${F}/closures/${fx.closure.id}/fiber-claims/`)).body).toEqual([]);
      expect((await root.as(undefined).get(`${F}/closures/${fx.closure.id}/fiber-claims/`)).status).toBe(403);
    });

    it('lets exactly one of two concurrent bulk-updates made against one plan_version succeed', async () => {
      const [first, second] = await Promise.all([
        bulk(planner, { add: [{ fiber_a: fx.ports[3].id, fiber_b: fx.ports[7].id }], plan_version: fx.version }),
        bulk(planner, { add: [{ fiber_a: fx.ports[7].id, fiber_b: fx.ports[3].id }], plan_version: fx.version }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      expect(await count('fms_spliceplanentry', 'WHERE plan_id = $1', [fx.plan.id])).toBe(3);
      fx.version = (first.status === 200 ? first : second).body.plan_version;
    });

    it('walks the lifecycle with a planner (change_spliceplan) and an approver (approve_spliceplan)', async () => {
      const transition = (client: PlatformClient, action: string) => client.post(`${PLANS}${fx.plan.id}/transition/`, { action });
      const approveEarly = await transition(approver, 'approve');
      expect(approveEarly.status).toBe(400);
      expect(approveEarly.body.action[0]).toContain('allowed actions: submit, archive');
      const submitted = await transition(planner, 'submit');
      expect(submitted.status).toBe(200);
      expect(submitted.body).toMatchObject({ status: { value: 'pending_approval' }, submitted_by: { id: fx.users.user1.id } });
      expect((await transition(planner, 'approve')).status).toBe(403);
      const entryWhilePending = await planner.post(ENTRIES, {
        plan: fx.plan.id,
        tray: fx.tray1.id,
        fiber_a: fx.ports[2].id,
        fiber_b: fx.ports[6].id,
      });
      expect(entryWhilePending.status).toBe(400);
      expect(entryWhilePending.body.plan[0]).toContain('only draft plans can be edited');
      const bulkWhilePending = await bulk(planner, { add: [{ fiber_a: fx.ports[2].id, fiber_b: fx.ports[6].id }] });
      expect(bulkWhilePending.status).toBe(403);
      const withdrawn = await transition(planner, 'withdraw');
      expect(withdrawn.body.status.value).toBe('draft');
      expect((await transition(planner, 'submit')).status).toBe(200);
      const rejected = await planner.patch(`${PLANS}${fx.plan.id}/`, { status: 'draft' });
      expect(rejected.status).toBe(200);
      expect(rejected.body.status.value).toBe('draft');
      expect((await transition(planner, 'submit')).status).toBe(200);
      expect((await approver.post(`${PLANS}${fx.plan.id}/transition/`, { action: 'withdraw' })).status).toBe(403);
      expect((await transition(approver, 'reject')).body.status.value).toBe('draft');
      expect((await transition(planner, 'submit')).status).toBe(200);
      const approved = await transition(approver, 'approve');
      expect(approved.status).toBe(200);
      expect(approved.body.status.value).toBe('approved');
      const skip = await planner.patch(`${PLANS}${fx.plan.id}/`, { status: 'pending_approval' });
      expect(skip.status).toBe(400);
      expect(skip.body.status[0]).toContain('allowed actions: reopen, archive');
      expect((await transition(planner, 'archive')).status).toBe(403);
      expect((await transition(approver, 'fly')).status).toBe(400);
      const history = await count(
        'core_objectchange',
        "WHERE changed_object_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'fms' AND model = 'spliceplan') AND changed_object_id = $1 AND action = 'update'",
        [fx.plan.id],
      );
      expect(history).toBe(8);
    });

    it('applies an approved plan: one cable per pair, the plan archived; only approvers may', async () => {
      expect((await planner.post(`${PLANS}${fx.plan.id}/apply/`)).status).toBe(403);
      const diff = await root.get(`${PLANS}${fx.plan.id}/diff/`);
      expect(diff.status).toBe(200);
      // Either concurrent request may have won: its pair's fiber_a decides the tray of the third entry.
      expect(Object.values(diff.body as Record<string, { add: unknown[] }>).flatMap((tray) => tray.add)).toHaveLength(3);
      expect(diff.body[String(fx.tray1.id)].add).toEqual(expect.arrayContaining([[fx.ports[0].id, fx.ports[4].id]]));
      const applied = await approver.post(`${PLANS}${fx.plan.id}/apply/`);
      expect(applied.status).toBe(200);
      expect(applied.body).toEqual({ added: 3, removed: 0 });
      const plan = (await root.get(`${PLANS}${fx.plan.id}/`)).body;
      expect(plan.status.value).toBe('archived');
      const claims = (await root.get(`${F}/closures/${fx.closure.id}/fiber-claims/`)).body as any[];
      expect(claims.filter((claim) => claim.plan_id === fx.plan.id)).toEqual([]);
      const onClosure = await root.get(`${CABLES}?device_id=${fx.closure.id}&limit=100`);
      const spliced = onClosure.body.results.filter((cable: any) => cable.a_terminations[0].object_type === 'dcim.frontport');
      expect(spliced).toHaveLength(3);
      fx.splice = spliced.find((cable: any) => cable.a_terminations[0].object_id === fx.ports[0].id);
      expect(fx.splice.b_terminations[0].object_id).toBe(fx.ports[4].id);
      expect((await approver.post(`${PLANS}${fx.plan.id}/apply/`)).status).toBe(409);
      expect((await planner.patch(`${PLANS}${fx.plan.id}/`, { name: 'renamed' })).status).toBe(400);
    });
  });

  describe('fiber circuits and protection', () => {
    it('holds the cables, ports, strands and splices of a live circuit', async () => {
      fx.circuit = await root.created(CIRCUITS, { name: 'Dark fibre A–B', cid: 'DF-001', strand_count: 1, status: 'active' });
      fx.closureRearPort = (await root.get(`${CABLES}${fx.feeder.cable.id}/`)).body.b_terminations[0].object_id;
      const entries = await seeded.db.query('SELECT id FROM fms_spliceplanentry WHERE plan_id = $1 AND fiber_a_id = $2', [
        fx.plan.id,
        fx.ports[0].id,
      ]);
      fx.entry = entries.rows[0].id;
      fx.path = await root.created(PATHS, {
        circuit: fx.circuit.id,
        position: 1,
        origin: fx.ports[0].id,
        destination: fx.ports[4].id,
        path: [
          { type: 'rear_port', id: fx.closureRearPort },
          { type: 'cable', id: fx.feeder.cable.id },
          { type: 'splice_entry', id: fx.entry },
          { type: 'cable', id: fx.splice.id },
        ],
      });
      // Its two end ports, the four hops, and the strand provisioned to each end port.
      expect(await count('fms_fibercircuitnode', 'WHERE path_id = $1', [fx.path.id])).toBe(8);
      const second = await root.post(PATHS, { circuit: fx.circuit.id, position: 2, origin: fx.ports[1].id });
      expect(second.status).toBe(400);
      expect(Object.keys(second.body)).toEqual(['circuit']);
      const active = await root.get(`${CIRCUITS}?status=active`);
      expect(active.body.results.map((circuit: any) => circuit.id)).toEqual([fx.circuit.id]);
    });

    it('answers protecting for each reference type, de-duplicated, to a read-only token', async () => {
      const summary = { id: fx.circuit.id, name: 'Dark fibre A–B', strand_count: 1 };
      const cases: Record<string, number> = {
        cable: fx.splice.id,
        front_port: fx.ports[0].id,
        rear_port: fx.closureRearPort,
        fiber_strand: fx.feederStrands[0].id,
        splice_entry: fx.entry,
      };
      for (const [type, id] of Object.entries(cases)) {
        const response = await reader.post(`${CIRCUITS}protecting/`, { [type]: [id, 424242] });
        expect({ type, status: response.status }).toEqual({ type, status: 200 });
        expect(response.body.results).toEqual([expect.objectContaining(summary)]);
        expect(response.body.by_reference).toEqual({ [type]: { [String(id)]: [fx.circuit.id], '424242': [] } });
      }
      const both = await reader.post(`${CIRCUITS}protecting/`, {
        cable: [fx.splice.id],
        front_port: [fx.ports[0].id, fx.ports[4].id],
        rear_port: [],
        splice_entry: [],
      });
      expect(both.body.results).toHaveLength(1);
      expect(both.body.by_reference.rear_port).toEqual({});
      const flat = await reader.get(`${CIRCUITS}protecting/?cable=${fx.splice.id}&front_port=${fx.ports[0].id},${fx.ports[4].id}`);
      expect(flat.status).toBe(200);
      expect(flat.body).toEqual([expect.objectContaining(summary)]);
      expect((await reader.get(`${CIRCUITS}protecting/`)).body).toEqual([]);
      for (const body of [{ bogus: [1] }, { cable: 5 }, { cable: ['x'] }, { cable: [1.5] }, { cable: [2 ** 31] }, { splice_entry: [-1] }]) {
        const bad = await reader.post(`${CIRCUITS}protecting/`, body);
        expect({ body, status: bad.status }).toEqual({ body, status: 400 });
      }
      // Ids beyond PostgreSQL's integer name nothing: 400 naming the parameter, not a failed query.
      for (const query of ['rear_port=9999999999', 'cable=2147483648', 'splice_entry=1,9223372036854775808']) {
        const bad = await reader.get(`${CIRCUITS}protecting/?${query}`);
        const type = query.split('=')[0];
        expect({ query, status: bad.status, body: bad.body }).toEqual({
          query,
          status: 400,
          body: {
            error: `${type}: Every id must be an integer from 0 to 2147483647.`,
            [type]: ['Every id must be an integer from 0 to 2147483647.'],
          },
        });
      }
      expect((await planner.post(`${CIRCUITS}protecting/`, { cable: [fx.splice.id] })).status).toBe(403);
      expect((await root.as(undefined).post(`${CIRCUITS}protecting/`, { cable: [fx.splice.id] })).status).toBe(403);
    });

    it('refuses to delete what a live circuit holds, naming it, until it is decommissioned', async () => {
      for (const path of [
        `${FRONT_PORTS}${fx.ports[4].id}/`,
        `/api/dcim/rear-ports/${fx.closureRearPort}/`,
        `${CABLES}${fx.splice.id}/`,
        `${STRANDS}${fx.feederStrands[0].id}/`,
      ]) {
        const refused = await root.delete(path);
        expect({ path, status: refused.status }).toEqual({ path, status: 409 });
        expect(refused.body.detail).toContain('Dark fibre A–B');
      }
      const plan = await planner.created(PLANS, { closure: fx.closure.id, name: 'Touch live' });
      const touch = await planner.post(
        `${PLANS}${plan.id}/bulk-update/`,
        { remove: [{ fiber_a: fx.ports[0].id, fiber_b: fx.ports[4].id }] },
        note,
      );
      expect(touch.status).toBe(409);
      expect(touch.body.detail).toContain('Cannot modify protected splices');
      expect((await root.patch(`${CIRCUITS}${fx.circuit.id}/`, { status: 'decommissioned' })).status).toBe(200);
      expect(await count('fms_fibercircuitnode')).toBe(0);
      expect((await root.delete(`${CABLES}${fx.splice.id}/`)).status).toBe(204);
    });

    it('traces a path with its loss per wavelength', async () => {
      await root.created(`${F}/attenuation-specs/`, { fiber_cable_type: fx.type.id, wavelength_nm: 1310, max_loss_db_per_km: 0.35 });
      await root.created(`${F}/attenuation-specs/`, { fiber_cable_type: fx.type.id, wavelength_nm: 1550, max_loss_db_per_km: 0.22 });
      const circuit = await root.created(CIRCUITS, { name: 'Trace me', strand_count: 1 });
      const path = await root.created(PATHS, {
        circuit: circuit.id,
        position: 1,
        origin: fx.ports[1].id,
        path: [
          { type: 'cable', id: fx.feeder.cable.id },
          { type: 'cable', id: fx.distribution.cable.id },
        ],
      });
      expect(path.calculated_loss_db).toEqual([
        // Each 1.25 km cable: 0.4375 dB rounds half-up to 0.438, twice.
        [1310, '0.876'],
        [1550, '0.550'],
      ]);
      const trace = await root.get(`${PATHS}${path.id}/trace/`);
      expect(trace.status).toBe(200);
      expect(trace.body).toMatchObject({
        circuit_id: circuit.id,
        circuit_name: 'Trace me',
        path_position: 1,
        total_calculated_loss_db: '0.876',
        wavelength_nm: 1310,
      });
      expect(trace.body.hops.map((hop: any) => hop.type)).toEqual(['device', 'cable', 'cable']);
      const badHop = await root.post(PATHS, { circuit: circuit.id, position: 2, origin: fx.ports[1].id, path: [{ type: 'duct', id: 1 }] });
      expect(badHop.status).toBe(400);
      expect(Object.keys(badHop.body)).toEqual(['path']);
    });
  });

  describe('GraphQL', () => {
    it('returns the same strands and splice plans as REST', async () => {
      const gql = await root.post('/graphql/', {
        query: `query ($cable: FilterValue) { fiber_strand_list(filters: { fiber_cable_id: $cable }, pagination: { limit: 100 }) { id name position color front_port_a { id } }
                 splice_plan(id: ${fx.plan.id}) { id name status submitted_by { id } closure { id name } } }`,
        variables: { cable: [String(fx.feeder.id)] },
      });
      expect(gql.status).toBe(200);
      expect(gql.body.errors).toBeUndefined();
      const rest = (await root.get(`${STRANDS}?fiber_cable_id=${fx.feeder.id}&limit=100`)).body.results;
      expect(gql.body.data.fiber_strand_list).toEqual(
        rest.map((strand: any) => ({
          id: String(strand.id),
          name: strand.name,
          position: strand.position,
          color: strand.color,
          front_port_a: strand.front_port_a ? { id: String(strand.front_port_a.id) } : null,
        })),
      );
      expect(gql.body.data.splice_plan).toMatchObject({
        id: String(fx.plan.id),
        name: 'Feeder to distribution',
        closure: { id: String(fx.closure.id), name: 'closure-1' },
        submitted_by: { id: String(fx.users.user1.id) },
      });
    });
  });
});
