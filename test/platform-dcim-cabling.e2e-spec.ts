import { PASSWORD } from './support/api-client';
import { PlatformClient, provisionToken, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

/**
 * Device types with port templates and front↔rear mappings, devices instantiating them in one
 * transaction, cables with their terminations, the trace across a patch-panel pair, and config
 * templates rendered in the sandbox.
 */
describe('DCIM: instantiation, cabling, trace, render-config', () => {
  let seeded: SeededApp;
  let api: PlatformClient;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ seeded, api } = await startPlatformApp());
    ids.site = (await api.created('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' })).id;
    ids.manufacturer = (await api.created('/api/dcim/manufacturers/', { name: 'Panduit', slug: 'panduit' })).id;
    ids.role = (await api.created('/api/dcim/device-roles/', { name: 'Patch panel', slug: 'patch-panel' })).id;
    ids.panelType = (
      await api.created('/api/dcim/device-types/', { manufacturer: ids.manufacturer, model: 'FLEX-48', slug: 'flex-48' })
    ).id;
    // 4 rear ports (MPO trunks) of 12 positions, 48 LC front ports, each front port mapped to one rear position.
    const rears = await api.created(
      '/api/dcim/rear-port-templates/',
      Array.from({ length: 4 }, (_, index) => ({ device_type: ids.panelType, name: `R${index + 1}`, type: 'mpo', positions: 12 })),
    );
    const fronts = await api.created(
      '/api/dcim/front-port-templates/',
      Array.from({ length: 48 }, (_, index) => ({ device_type: ids.panelType, name: `F${index + 1}`, type: 'lc' })),
    );
    await api.created(
      '/api/dcim/port-template-mappings/',
      fronts.map((front: { id: number }, index: number) => ({
        device_type: ids.panelType,
        front_port: front.id,
        front_port_position: 1,
        rear_port: rears[Math.floor(index / 12)].id,
        rear_port_position: (index % 12) + 1,
      })),
    );
  });

  afterAll(async () => {
    await seeded?.db.end();
    await seeded?.testApp.close();
  });

  it('creates a device with all 48 front ports, 4 rear ports and 48 mappings of its type, in one transaction', async () => {
    const before = Number((await seeded.db.query('SELECT COUNT(*) FROM core_objectchange')).rows[0].count);
    const device = await api.created('/api/dcim/devices/', { name: 'panel-a', device_type: ids.panelType, role: ids.role, site: ids.site });
    ids.panelA = device.id;
    const counts = async (table: string) =>
      Number((await seeded.db.query(`SELECT COUNT(*) FROM ${table} WHERE device_id = $1`, [device.id])).rows[0].count);
    expect(await counts('dcim_frontport')).toBe(48);
    expect(await counts('dcim_rearport')).toBe(4);
    expect(await counts('dcim_portmapping')).toBe(48);
    const mapping = await seeded.db.query(
      `SELECT f.name AS front, r.name AS rear, m.rear_port_position FROM dcim_portmapping m
         JOIN dcim_frontport f ON f.id = m.front_port_id JOIN dcim_rearport r ON r.id = m.rear_port_id
        WHERE m.device_id = $1 AND f.name = 'F14'`,
      [device.id],
    );
    expect(mapping.rows).toEqual([{ front: 'F14', rear: 'R2', rear_port_position: 2 }]);
    // Every component is in the change log, with the device as related object, under the device's request.
    const changes = await seeded.db.query(
      `SELECT COUNT(*)::int AS n, COUNT(DISTINCT request_id)::int AS requests FROM core_objectchange WHERE id > (SELECT MAX(id) - $1 FROM core_objectchange)`,
      [1 + 48 + 4 + 48],
    );
    expect(changes.rows[0]).toEqual({ n: 101, requests: 1 });
    expect(Number((await seeded.db.query('SELECT COUNT(*) FROM core_objectchange')).rows[0].count) - before).toBe(101);
    const ports = await api.get(`/api/dcim/front-ports/?device_id=${device.id}&limit=100`);
    expect(ports.body.count).toBe(48);
  });

  it('rolls the whole device back when instantiation fails (nothing half-created)', async () => {
    const devicesBefore = Number((await seeded.db.query('SELECT COUNT(*) FROM dcim_device')).rows[0].count);
    // Same name on the same site and tenant: refused before anything is written.
    const response = await api.post('/api/dcim/devices/', { name: 'panel-a', device_type: ids.panelType, role: ids.role, site: ids.site });
    expect(response.status).toBe(400);
    expect(Number((await seeded.db.query('SELECT COUNT(*) FROM dcim_device')).rows[0].count)).toBe(devicesBefore);
  });

  it('traces a front port through its rear port and the trunk cable to the far front port', async () => {
    ids.panelB = (
      await api.created('/api/dcim/devices/', { name: 'panel-b', device_type: ids.panelType, role: ids.role, site: ids.site })
    ).id;
    const port = async (device: number, path: string, name: string) =>
      (await api.get(`/api/dcim/${path}/?device_id=${device}&name=${name}`)).body.results[0].id as number;
    const rearA = await port(ids.panelA, 'rear-ports', 'R2');
    const rearB = await port(ids.panelB, 'rear-ports', 'R2');
    const trunk = await api.created('/api/dcim/cables/', {
      type: 'smf-os2',
      status: 'connected',
      label: 'TRUNK-1',
      length: 120,
      length_unit: 'm',
      a_terminations: [{ object_type: 'dcim.rearport', object_id: rearA }],
      b_terminations: [{ object_type: 'dcim.rearport', object_id: rearB }],
    });
    expect(trunk.a_terminations).toEqual([
      {
        object_type: 'dcim.rearport',
        object_id: rearA,
        object: expect.objectContaining({ id: rearA, name: 'R2' }),
        positions: null,
        connector: null,
      },
    ]);
    expect((await api.get(`/api/dcim/rear-ports/${rearA}/`)).body).toMatchObject({ cable: { id: trunk.id }, cable_end: 'A' });

    const frontA = await port(ids.panelA, 'front-ports', 'F17');
    const trace = await api.get(`/api/dcim/front-ports/${frontA}/trace/`);
    expect(trace.status).toBe(200);
    expect(trace.body).toHaveLength(1);
    const [near, cable, far] = trace.body[0];
    expect(near.map((end: { id: number }) => end.id)).toEqual([rearA]);
    expect(cable).toMatchObject({ id: trunk.id, label: 'TRUNK-1' });
    expect(far.map((end: { id: number }) => end.id)).toEqual([rearB]);

    // A patch cable on the far front port at the same position extends the trace by one segment.
    const frontB = await port(ids.panelB, 'front-ports', 'F17');
    ids.server = (
      await api.created('/api/dcim/devices/', { name: 'server-1', device_type: ids.panelType, role: ids.role, site: ids.site })
    ).id;
    const serverPort = await port(ids.server, 'front-ports', 'F1');
    const patch = await api.created('/api/dcim/cables/', {
      type: 'smf',
      a_terminations: [{ object_type: 'dcim.frontport', object_id: frontB, positions: [1], connector: 2 }],
      b_terminations: [{ object_type: 'dcim.frontport', object_id: serverPort }],
    });
    expect(patch.a_terminations[0]).toMatchObject({ object_id: frontB, positions: [1], connector: 2 });
    const badPosition = await api.post('/api/dcim/cables/', {
      a_terminations: [{ object_type: 'dcim.frontport', object_id: await port(ids.server, 'front-ports', 'F2'), positions: [2] }],
      b_terminations: [{ object_type: 'dcim.frontport', object_id: await port(ids.server, 'front-ports', 'F3'), connector: 0 }],
    });
    expect(badPosition.status).toBe(400);
    expect(badPosition.body.a_terminations[0]).toMatch(/has no position 2/);
    expect(badPosition.body.b_terminations[0]).toMatch(/connector 1–256/);
    const longer = await api.get(`/api/dcim/front-ports/${frontA}/trace/`);
    expect(longer.body).toHaveLength(2);
    expect(longer.body[1][1]).toMatchObject({ id: patch.id });
    expect(longer.body[1][2].map((end: { id: number }) => end.id)).toEqual([serverPort]);
  });

  it('shows in a trace only the objects the caller may view, the others as null', async () => {
    const grant = async (name: string, objectTypes: string[], constraints?: Record<string, unknown>) =>
      api.created('/api/users/permissions/', {
        name,
        object_types: objectTypes,
        actions: ['view'],
        users: [seeded.w.user1.id],
        constraints,
      });
    await grant('ports of panel-a', ['dcim.frontport', 'dcim.rearport'], { device: ids.panelA });
    await grant('cables', ['dcim.cable']);
    const viewer = api.as(await provisionToken(seeded.api, seeded.w.user1.username, PASSWORD));
    const frontA = (await api.get(`/api/dcim/front-ports/?device_id=${ids.panelA}&name=F17`)).body.results[0].id as number;
    const full = (await api.get(`/api/dcim/front-ports/${frontA}/trace/`)).body;
    const trace = await viewer.get(`/api/dcim/front-ports/${frontA}/trace/`);
    expect(trace.status).toBe(200);
    // Panel A's rear port and both cables are visible; panel B's and the server's ports are not.
    expect(trace.body).toEqual([
      [[full[0][0][0]], full[0][1], [null]],
      [[null], full[1][1], [null]],
    ]);
    const paths = await viewer.get(`/api/dcim/rear-ports/${full[0][0][0].id}/paths/`);
    expect(paths.status).toBe(200);
    expect(paths.body.flatMap((path: { path: unknown[][] }) => path.path.flat()).filter((node: unknown) => node !== null)).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ id: full[0][2][0].id, name: 'R2' })]),
    );
    expect(await viewer.get(`/api/dcim/front-ports/${full[1][0][0].id}/trace/`)).toMatchObject({ status: 404 });
  });

  it('filters cables by the devices and sites their ends are on', async () => {
    const onA = await api.get(`/api/dcim/cables/?device_id=${ids.panelA}`);
    const onServer = await api.get(`/api/dcim/cables/?device=server-1`);
    expect(onA.body.results.map((cable: { label: string }) => cable.label)).toEqual(['TRUNK-1']);
    expect(onServer.body.count).toBe(1);
    expect(onServer.body.results[0].label).not.toBe('TRUNK-1');
    expect((await api.get('/api/dcim/cables/?site=ams1')).body.count).toBe(2);
    expect((await api.get('/api/dcim/cables/?site_id=999999')).body.count).toBe(0);
    expect((await api.get('/api/dcim/cables/?device_id=abc')).status).toBe(400);
    expect(
      (await api.get(`/api/dcim/rear-ports/?device_id=${ids.panelA}&cabled=true`)).body.results.map((p: { name: string }) => p.name),
    ).toEqual(['R2']);
    expect((await api.get(`/api/dcim/rear-ports/?device_id=${ids.panelA}&cabled=false`)).body.count).toBe(3);
    expect((await api.get('/api/dcim/interfaces/?cabled=maybe')).status).toBe(400);
  });

  it('reads and writes NetBox 4.5 rear_ports on front ports, and nests a device type with its manufacturer', async () => {
    const front = (await api.get(`/api/dcim/front-ports/?device_id=${ids.panelA}&name=F14`)).body.results[0];
    const rear2 = (await api.get(`/api/dcim/rear-ports/?device_id=${ids.panelA}&name=R2`)).body.results[0].id;
    expect(front.rear_ports).toEqual([{ position: 1, rear_port: rear2, rear_port_position: 2 }]);
    const rear4 = (await api.get(`/api/dcim/rear-ports/?device_id=${ids.panelA}&name=R4`)).body.results[0].id;
    const moved = await api.patch(`/api/dcim/front-ports/${front.id}/`, {
      rear_ports: [{ position: 1, rear_port: rear4, rear_port_position: 12 }],
    });
    expect(moved.status).toBe(400); // R4 position 12 is F48's
    const free = await api.created('/api/dcim/rear-ports/', { device: ids.panelA, name: 'R5', type: 'mpo', positions: 2 });
    const remapped = await api.patch(`/api/dcim/front-ports/${front.id}/`, {
      rear_ports: [{ position: 1, rear_port: free.id, rear_port_position: 2 }],
    });
    expect(remapped.status).toBe(200);
    expect(remapped.body.rear_ports).toEqual([{ position: 1, rear_port: free.id, rear_port_position: 2 }]);
    const otherDevice = (await api.get(`/api/dcim/rear-ports/?device_id=${ids.panelB}&name=R1`)).body.results[0].id;
    const foreign = await api.patch(`/api/dcim/front-ports/${front.id}/`, { rear_ports: [{ rear_port: otherDevice }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.rear_ports[0]).toMatch(/belongs to another device/);

    const device = (await api.get(`/api/dcim/devices/${ids.panelA}/`)).body;
    expect(device.device_type.manufacturer).toMatchObject({ id: ids.manufacturer, display: 'Panduit', name: 'Panduit', slug: 'panduit' });
  });

  it('answers OPTIONS with the writable fields and their choices, and sends API-Version', async () => {
    const response = await api.request('OPTIONS', '/api/dcim/cables/');
    expect(response.status).toBe(200);
    expect(response.headers.get('api-version')).toBe('4.5');
    expect(response.body.actions.POST.status.choices).toContainEqual({ value: 'planned', display_name: 'Planned' });
    expect(response.body.actions.POST.type.choices).toContainEqual({ value: 'smf-os2', display_name: 'Single-mode Fiber (OS2)' });
    const anonymous = await api.as(undefined).get('/api/');
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers.get('api-version')).toBe('4.5');
  });

  it('refuses a cable end on a port that is already cabled, or on ports of two devices', async () => {
    const port = async (device: number, name: string) =>
      (await api.get(`/api/dcim/rear-ports/?device_id=${device}&name=${name}`)).body.results[0].id as number;
    const taken = await api.post('/api/dcim/cables/', {
      a_terminations: [{ object_type: 'dcim.rearport', object_id: await port(ids.panelA, 'R2') }],
      b_terminations: [{ object_type: 'dcim.rearport', object_id: await port(ids.panelB, 'R3') }],
    });
    expect(taken.status).toBe(400);
    expect(taken.body.a_terminations[0]).toMatch(/already connected to cable/);
    const split = await api.post('/api/dcim/cables/', {
      a_terminations: [
        { object_type: 'dcim.rearport', object_id: await port(ids.panelA, 'R3') },
        { object_type: 'dcim.rearport', object_id: await port(ids.panelB, 'R4') },
      ],
      b_terminations: [{ object_type: 'dcim.rearport', object_id: await port(ids.panelB, 'R1') }],
    });
    expect(split.status).toBe(400);
    expect(split.body.a_terminations).toEqual(['All terminations of one cable end must belong to the same device.']);
  });

  it('refuses a port mapping between ports of two devices', async () => {
    const front = (await api.created('/api/dcim/front-ports/', { device: ids.panelA, name: 'F99', type: 'lc' })).id;
    const rear = (await api.created('/api/dcim/rear-ports/', { device: ids.panelB, name: 'R9', type: 'mpo', positions: 2 })).id;
    const response = await api.post('/api/dcim/port-mappings/', {
      device: ids.panelA,
      front_port: front,
      front_port_position: 1,
      rear_port: rear,
      rear_port_position: 2,
    });
    expect(response.status).toBe(400);
    expect(response.body.rear_port).toEqual(['The rear port must belong to the same device as the front port.']);
  });

  it('deleting a cable frees its ports and records each change', async () => {
    const rearA = (await api.get(`/api/dcim/rear-ports/?device_id=${ids.panelA}&name=R2`)).body.results[0];
    const cableId = rearA.cable.id as number;
    expect((await api.delete(`/api/dcim/cables/${cableId}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/rear-ports/${rearA.id}/`)).body).toMatchObject({ cable: null, cable_end: null });
    const termination = await seeded.db.query('SELECT COUNT(*)::int AS n FROM dcim_cabletermination WHERE cable_id = $1', [cableId]);
    expect(termination.rows[0].n).toBe(0);
  });

  it('protects a device type that devices use (409 naming them)', async () => {
    const response = await api.delete(`/api/dcim/device-types/${ids.panelType}/`);
    expect(response.status).toBe(409);
    expect(response.body.detail).toMatch(/device panel-a/);
  });

  it('renders a config template with loops and filters against a device', async () => {
    const template = await api.created('/api/extras/config-templates/', {
      name: 'panel',
      template_code: [
        'hostname {{ device.name | upper }}',
        '{% for tag in device.tags %}tag {{ tag.slug }}{% if not loop.last %}, {% endif %}{% endfor %}',
        'site {{ device.site.name }} ({{ device.status.value }})',
      ].join('\n'),
    });
    const tag = await api.created('/api/extras/tags/', { name: 'Core', slug: 'core' });
    expect((await api.patch(`/api/dcim/devices/${ids.panelA}/`, { config_template: template.id, tags: [tag.id] })).status).toBe(200);
    const response = await api.post(`/api/dcim/devices/${ids.panelA}/render-config/`);
    expect(response.status).toBe(200);
    expect(response.body.content).toBe('hostname PANEL-A\ntag core\nsite AMS1 (active)');
    expect(response.body.configtemplate).toMatchObject({ id: template.id, name: 'panel' });
  });

  it('stops a template that loops too long or explodes in size with a clear 400', async () => {
    const endless = await api.created('/api/extras/config-templates/', {
      name: 'endless',
      template_code: '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}',
    });
    await api.patch(`/api/dcim/devices/${ids.panelB}/`, { config_template: endless.id });
    const slow = await api.post(`/api/dcim/devices/${ids.panelB}/render-config/`);
    expect(slow.status).toBe(400);
    expect(slow.body.detail).toMatch(/exceeded \d+ ms and was stopped/);

    const huge = await api.created('/api/extras/config-templates/', {
      name: 'huge',
      template_code:
        '{% for i in range(100000) %}{% for j in range(100) %}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{% endfor %}{% endfor %}',
    });
    await api.patch(`/api/dcim/devices/${ids.panelB}/`, { config_template: huge.id });
    const big = await api.post(`/api/dcim/devices/${ids.panelB}/render-config/`);
    expect(big.status).toBe(400);
    expect(big.body.detail).toMatch(/exceeds \d+ bytes/);
  });
});
