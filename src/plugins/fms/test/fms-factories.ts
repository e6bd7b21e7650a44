import { type Created, factories, type Fields, unique } from '../../../../test/support/factories';
import type { PlatformClient } from '../../../../test/support/platform-client';

const F = '/api/plugins/fms';

/** A closure (a device) with splice trays: each tray a module whose type has a splice-tray profile, with its front ports. */
export interface Closure {
  device: Created;
  trays: Created[];
  /** The front ports of each tray, `ports[tray][n]`. */
  ports: Created[][];
}

/**
 * The fms objects tests need, made through the API with unique names on the core factories
 * (test/support/factories): `await fms.fiberCable()` makes a fibre cable type and a platform
 * cable of a fibre type between two new rear ports unless named. Fields given override the defaults.
 */
export function fmsFactories(api: PlatformClient) {
  const core = factories(api);
  const make = (path: string, body: Fields): Promise<Created> => api.created(`${F}/${path}/`, body);
  const idOr = async (fields: Fields, key: string, factory: () => Promise<Created>): Promise<unknown> =>
    fields[key] !== undefined ? fields[key] : (await factory()).id;

  const fms = {
    /** A loose-tube type of 12 strands without templates (its cables get no generated components). */
    cableType: async (fields: Fields = {}) =>
      make('cable-types', {
        model: unique('fibre-model'),
        construction: 'loose_tube',
        strand_count: 12,
        ...fields,
        manufacturer: await idOr(fields, 'manufacturer', () => core.manufacturer()),
      }),
    /** A platform cable of a fibre type between rear ports of two new devices (or the `a`/`b` devices given). */
    platformCable: async (fields: Fields = {}, ends: { a?: number; b?: number } = {}) => {
      const a = await core.rearPort({ type: 'splice', ...(ends.a ? { device: ends.a } : {}) });
      const b = await core.rearPort({ type: 'splice', ...(ends.b ? { device: ends.b } : {}) });
      return core.cable([['dcim.rearport', a.id]], [['dcim.rearport', b.id]], { type: 'smf', ...fields });
    },
    /** A fiber cable on a new platform cable, of a new type unless `fiber_cable_type` is given. */
    fiberCable: async (fields: Fields = {}) =>
      make('fiber-cables', {
        ...fields,
        cable: await idOr(fields, 'cable', () => fms.platformCable()),
        fiber_cable_type: await idOr(fields, 'fiber_cable_type', () => fms.cableType()),
      }),
    bufferTube: async (fields: Fields = {}) =>
      make('buffer-tubes', {
        name: unique('tube'),
        position: 1,
        ...fields,
        fiber_cable: await idOr(fields, 'fiber_cable', () => fms.fiberCable()),
      }),
    /** A closure cable entry: the fiber cable enters the closure. */
    closureCableEntry: (closure: number, fiberCable: number, fields: Fields = {}) =>
      make('closure-cable-entries', { ...fields, closure, fiber_cable: fiberCable }),
    /** A closure device with `trays` splice trays of `portsPerTray` splice front ports each. */
    closure: async (trays = 1, portsPerTray = 4): Promise<Closure> => {
      const device = await core.device();
      const trayType = await core.moduleType();
      await make('tray-profiles', { module_type: trayType.id, tray_role: 'splice_tray', max_fibers: 24 });
      const closure: Closure = { device, trays: [], ports: [] };
      for (let tray = 0; tray < trays; tray++) {
        const bay = await core.moduleBay({ device: device.id });
        const module = await api.created('/api/dcim/modules/', { device: device.id, module_bay: bay.id, module_type: trayType.id });
        closure.trays.push(module);
        const ports: Created[] = [];
        for (let n = 0; n < portsPerTray; n++) ports.push(await core.frontPort({ device: device.id, module: module.id, type: 'splice' }));
        closure.ports.push(ports);
      }
      return closure;
    },
    splicePlan: (closure: number, fields: Fields = {}) => make('splice-plans', { name: unique('plan'), ...fields, closure }),
    fiberCircuit: (fields: Fields = {}) => make('fiber-circuits', { name: unique('circuit'), strand_count: 4, ...fields }),
  };
  return { ...core, fms };
}
