import { describeResourceApi, unique, usePlatformApp } from '../../../../test/support/resource-api-kit';
import { fmsFactories } from './fms-factories';

const F = '/api/plugins/fms';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of what a closure holds
 * (cable entries, tube assignments, splice plans and their entries) and of fiber circuit paths;
 * the plans' lifecycle, applying them and what live circuits protect are in fms.e2e-spec.ts.
 */
describe('platform fms plugin: the REST and GraphQL contract of closures, splice plans and circuit paths', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${F}/closure-cable-entries/`,
    objectType: 'fms.closurecableentry',
    graphqlName: 'closure_cable_entry',
    fixtures: async ({ api }) => {
      const f = fmsFactories(api);
      return {
        closures: [await f.device(), await f.device()],
        cables: [await f.fms.fiberCable(), await f.fms.fiberCable()],
      };
    },
    create: (fx) => [
      { closure: fx.closures[0].id, fiber_cable: fx.cables[0].id },
      { closure: fx.closures[0].id, fiber_cable: fx.cables[1].id, entrance_label: 'Port A' },
      { closure: fx.closures[1].id, fiber_cable: fx.cables[0].id, notes: 'through the dome' },
    ],
    update: { entrance_label: 'Port B', notes: 'resealed' },
    bulkUpdate: { notes: 'inspected' },
    brief: ['id', 'url', 'display', 'closure', 'fiber_cable', 'entrance_label'],
    filters: (fx) => ({
      [`closure_id=${fx.closures[1].id}`]: [2],
      [`fiber_cable_id=${fx.cables[1].id}`]: [1],
      'entrance_label=Port A': [1],
    }),
    invalid: [
      { body: (fx) => ({ closure: fx.closures[1].id }), field: 'fiber_cable' },
      { body: (fx) => ({ closure: fx.closures[1].id, fiber_cable: 2147483000 }), field: 'fiber_cable' },
    ],
  });

  describeResourceApi({
    app,
    path: `${F}/tube-assignments/`,
    objectType: 'fms.tubeassignment',
    graphqlName: 'tube_assignment',
    fixtures: async ({ api }) => {
      const { fms } = fmsFactories(api);
      const closure = await fms.closure(2, 0);
      const other = await fms.closure(1, 0);
      const cable = await fms.fiberCable();
      await fms.closureCableEntry(closure.device.id, cable.id);
      const tubes = [];
      for (let position = 1; position <= 3; position++) tubes.push(await fms.bufferTube({ fiber_cable: cable.id, position }));
      return { closure, other, tubes, outside: await fms.bufferTube() };
    },
    create: (fx) => [
      { closure: fx.closure.device.id, tray: fx.closure.trays[0].id, buffer_tube: fx.tubes[0].id, position: 1 },
      { closure: fx.closure.device.id, tray: fx.closure.trays[0].id, buffer_tube: fx.tubes[1].id, position: 2 },
      { closure: fx.closure.device.id, tray: fx.closure.trays[1].id, buffer_tube: fx.tubes[2].id, notes: 'express' },
    ],
    update: (fx) => ({ tray: fx.closure.trays[1].id, position: 3 }),
    bulkUpdate: { notes: 'dressed' },
    brief: ['id', 'url', 'display', 'closure', 'tray', 'buffer_tube'],
    filters: (fx) => ({
      [`tray_id=${fx.closure.trays[1].id}`]: [2],
      [`buffer_tube_id=${fx.tubes[0].id}`]: [0],
      [`closure_id=${fx.closure.device.id}`]: [0, 1, 2],
      'position__gte=2': [1],
    }),
    invalid: [
      { body: (fx) => ({ closure: fx.closure.device.id, tray: fx.closure.trays[0].id, buffer_tube: fx.outside.id }), field: 'buffer_tube' },
      { body: (fx) => ({ closure: fx.closure.device.id, tray: fx.other.trays[0].id, buffer_tube: fx.tubes[0].id }), field: 'tray' },
    ],
  });

  describeResourceApi({
    app,
    path: `${F}/splice-plans/`,
    objectType: 'fms.spliceplan',
    graphqlName: 'splice_plan',
    fixtures: async ({ api }) => {
      const { fms } = fmsFactories(api);
      const project = (name: string) => api.created(`${F}/splice-projects/`, { name: unique(name) });
      return {
        closures: [await fms.closure(1, 0), await fms.closure(1, 0)],
        projects: [await project('ring'), await project('ring')],
      };
    },
    create: (fx) => [
      { closure: fx.closures[0].device.id, name: 'Plan A' },
      { closure: fx.closures[0].device.id, name: 'Plan B', project: fx.projects[0].id, description: 'phase 1' },
      { closure: fx.closures[1].device.id, name: 'Plan C' },
    ],
    update: (fx) => ({ name: 'Plan A2', project: fx.projects[1].id, description: 'renumbered' }),
    bulkUpdate: { description: 'reviewed' },
    brief: ['id', 'url', 'display', 'name', 'status'],
    filters: (fx) => ({
      [`closure_id=${fx.closures[1].device.id}`]: [2],
      [`project_id=${fx.projects[0].id}`]: [1],
      'status=draft': [0, 1, 2],
      'q=Plan B': [1],
    }),
    actions: [
      { name: 'diff', check: (body) => expect(body).toEqual({}) },
      {
        name: 'import-from-device',
        method: 'POST',
        permission: 'change',
        check: (body) => expect(body).toEqual({ imported: 0, skipped_existing: 0, skipped_claimed: 0, skipped_no_tray: 0 }),
      },
    ],
    invalid: [
      { body: (fx) => ({ closure: fx.closures[0].device.id, name: 'Approved at birth', status: 'approved' }), field: 'status' },
      { body: { name: 'Nowhere' }, field: 'closure' },
    ],
  });

  describeResourceApi({
    app,
    path: `${F}/splice-plan-entries/`,
    objectType: 'fms.spliceplanentry',
    graphqlName: 'splice_plan_entry',
    fixtures: async ({ api }) => {
      const { fms } = fmsFactories(api);
      const closure = await fms.closure(2, 4);
      const other = await fms.closure(1, 2);
      return { closure, other, plan: await fms.splicePlan(closure.device.id) };
    },
    create: (fx) => {
      const [tray, second] = fx.closure.trays;
      const [ports, more] = fx.closure.ports;
      return [
        { plan: fx.plan.id, tray: tray.id, fiber_a: ports[0].id, fiber_b: ports[1].id },
        { plan: fx.plan.id, tray: tray.id, fiber_a: ports[2].id, fiber_b: ports[3].id, is_express: true },
        { plan: fx.plan.id, tray: second.id, fiber_a: more[0].id, fiber_b: more[1].id, notes: 'ring closure' },
      ];
    },
    update: { notes: 'resplice', change_note: 'loss too high' },
    bulkUpdate: { change_note: 'cut-over' },
    brief: ['id', 'url', 'display', 'fiber_a', 'fiber_b', 'tray'],
    filters: (fx) => ({
      [`tray_id=${fx.closure.trays[1].id}`]: [2],
      [`fiber_a_id=${fx.closure.ports[0][2].id}`]: [1],
      'is_express=true': [1],
      [`plan_id=${fx.plan.id}`]: [0, 1, 2],
    }),
    invalid: [
      {
        body: (fx) => ({
          plan: fx.plan.id,
          tray: fx.closure.trays[1].id,
          fiber_a: fx.closure.ports[1][2].id,
          fiber_b: fx.closure.ports[1][2].id,
        }),
        field: 'fiber_b',
      },
      {
        body: (fx) => ({
          plan: fx.plan.id,
          tray: fx.closure.trays[0].id,
          fiber_a: fx.closure.ports[1][2].id,
          fiber_b: fx.closure.ports[1][3].id,
        }),
        field: 'tray',
      },
      {
        body: (fx) => ({
          plan: fx.plan.id,
          tray: fx.other.trays[0].id,
          fiber_a: fx.other.ports[0][0].id,
          fiber_b: fx.closure.ports[1][3].id,
        }),
        field: 'fiber_a',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${F}/fiber-circuit-paths/`,
    objectType: 'fms.fibercircuitpath',
    graphqlName: 'fiber_circuit_path',
    fixtures: async ({ api }) => {
      const f = fmsFactories(api);
      const device = await f.device();
      const ports = [];
      for (let n = 0; n < 5; n++) ports.push(await f.frontPort({ device: device.id, type: 'splice' }));
      return {
        ports,
        circuits: [await f.fms.fiberCircuit({ strand_count: 2 }), await f.fms.fiberCircuit({ strand_count: 1 })],
        cable: await f.fms.platformCable(),
      };
    },
    create: (fx) => [
      { circuit: fx.circuits[0].id, position: 1, origin: fx.ports[0].id },
      { circuit: fx.circuits[0].id, position: 2, origin: fx.ports[1].id, destination: fx.ports[2].id, is_complete: true },
      { circuit: fx.circuits[1].id, position: 1, origin: fx.ports[3].id, actual_loss_db: 1.25, wavelength_nm: 1550 },
    ],
    update: (fx) => ({ path: [{ type: 'cable', id: fx.cable.id }], destination: fx.ports[4].id, is_complete: true }),
    bulkUpdate: { wavelength_nm: 1310 },
    brief: ['id', 'url', 'display', 'circuit', 'position', 'is_complete'],
    filters: (fx) => ({ [`circuit_id=${fx.circuits[1].id}`]: [2], 'is_complete=true': [1], 'wavelength_nm=1550': [2] }),
    actions: [
      {
        name: 'trace',
        check: (body, object) =>
          expect(body).toMatchObject({
            circuit_id: object.circuit.id,
            path_position: 1,
            hops: [expect.objectContaining({ type: 'device' })],
          }),
      },
    ],
    invalid: [
      { body: (fx) => ({ circuit: fx.circuits[0].id, position: 3, origin: fx.ports[4].id, actual_loss_db: 2 }), field: 'wavelength_nm' },
      {
        body: (fx) => ({ circuit: fx.circuits[0].id, position: 3, origin: fx.ports[4].id, path: [{ type: 'cable', id: 2147483000 }] }),
        field: 'path',
      },
    ],
  });
});
