import type { PlatformClient } from '../platform-client';
import { slugOf, unique } from './names';

/** A request body's fields; relations by id. */
export type Fields = Record<string, unknown>;
/** A created object as the API answers it (the 201 body). */
export type Created = Record<string, any> & { id: number; url: string; display: string };
/** One cable end's object: `['dcim.interface', 12]`. */
export type CableEnd = readonly [objectType: string, objectId: number];

const D = '/api/dcim';

/**
 * The DCIM objects tests need, each made through the API with unique names; a related object a
 * call does not name is made too (a device without `site` gets a new site, a new device type with
 * a new manufacturer, a new role). Fields given override the defaults, so a test names only what
 * it is about: `await f.device({ site: site.id })`, `await f.interface({ device: device.id })`.
 */
export function dcimFactories(api: PlatformClient) {
  const named = (prefix: string) => {
    const name = unique(prefix);
    return { name, slug: slugOf(name) };
  };
  const make = (path: string, body: Fields): Promise<Created> => api.created(`${D}/${path}/`, body);
  /** The id of `fields[key]` when given, else of a new object from `factory`. */
  const idOr = async (fields: Fields, key: string, factory: () => Promise<Created>): Promise<unknown> =>
    fields[key] !== undefined ? fields[key] : (await factory()).id;

  /** A template's fields with its parent: the `device_type` or `module_type` given, else a new device type. */
  const templateParent = async (fields: Fields): Promise<Fields> =>
    fields.module_type !== undefined ? fields : { ...fields, device_type: await idOr(fields, 'device_type', () => factories.deviceType()) };

  const factories = {
    region: (fields: Fields = {}) => make('regions', { ...named('region'), ...fields }),
    siteGroup: (fields: Fields = {}) => make('site-groups', { ...named('site-group'), ...fields }),
    site: (fields: Fields = {}) => make('sites', { ...named('site'), ...fields }),
    location: async (fields: Fields = {}) =>
      make('locations', { ...named('location'), ...fields, site: await idOr(fields, 'site', () => factories.site()) }),
    manufacturer: (fields: Fields = {}) => make('manufacturers', { ...named('manufacturer'), ...fields }),
    deviceRole: (fields: Fields = {}) => make('device-roles', { ...named('role'), ...fields }),
    platform: (fields: Fields = {}) => make('platforms', { ...named('platform'), ...fields }),
    deviceType: async (fields: Fields = {}) => {
      const { name, slug } = named('model');
      return make('device-types', {
        model: name,
        slug,
        ...fields,
        manufacturer: await idOr(fields, 'manufacturer', () => factories.manufacturer()),
      });
    },
    moduleType: async (fields: Fields = {}) =>
      make('module-types', {
        model: unique('module-model'),
        ...fields,
        manufacturer: await idOr(fields, 'manufacturer', () => factories.manufacturer()),
      }),
    /** A device, with a new site, device type (and manufacturer) and role unless given. */
    device: async (fields: Fields = {}) =>
      make('devices', {
        name: unique('device'),
        ...fields,
        device_type: await idOr(fields, 'device_type', () => factories.deviceType()),
        role: await idOr(fields, 'role', () => factories.deviceRole()),
        site: await idOr(fields, 'site', () => factories.site()),
      }),
    /** A port template (`rearPortTemplate`, `frontPortTemplate`): on a new device type unless `device_type` or `module_type` is given. */
    rearPortTemplate: async (fields: Fields = {}) =>
      make('rear-port-templates', { name: unique('rear'), type: 'mpo', ...(await templateParent(fields)) }),
    frontPortTemplate: async (fields: Fields = {}) =>
      make('front-port-templates', { name: unique('front'), type: 'lc', ...(await templateParent(fields)) }),
    /** A module bay template: on a new device type unless `device_type` or `module_type` is given. */
    moduleBayTemplate: async (fields: Fields = {}) =>
      make('module-bay-templates', { name: unique('bay'), ...(await templateParent(fields)) }),
    /** A device bay template on a new parent device type unless `device_type` is given. */
    deviceBayTemplate: async (fields: Fields = {}) =>
      make('device-bay-templates', {
        name: unique('device-bay'),
        ...fields,
        device_type: await idOr(fields, 'device_type', () => factories.deviceType({ subdevice_role: 'parent' })),
      }),
    /** A device bay in a new parent device unless `device` is given. */
    deviceBay: async (fields: Fields = {}) =>
      make('device-bays', {
        name: unique('device-bay'),
        ...fields,
        device: await idOr(fields, 'device', async () =>
          factories.device({ device_type: (await factories.deviceType({ subdevice_role: 'parent' })).id }),
        ),
      }),
    /** A device of a new 0U child device type unless `device_type` is given: one a device bay can hold. */
    childDevice: async (fields: Fields = {}) =>
      factories.device({
        ...fields,
        device_type: await idOr(fields, 'device_type', () => factories.deviceType({ subdevice_role: 'child', u_height: 0 })),
      }),
    moduleBay: async (fields: Fields = {}) =>
      make('module-bays', { name: unique('bay'), ...fields, device: await idOr(fields, 'device', () => factories.device()) }),
    /** A module of a new module type in a new bay of `device` (or of a new device). */
    module: async (fields: Fields = {}) => {
      const device = await idOr(fields, 'device', () => factories.device());
      return make('modules', {
        ...fields,
        device,
        module_bay: await idOr(fields, 'module_bay', () => factories.moduleBay({ device })),
        module_type: await idOr(fields, 'module_type', () => factories.moduleType()),
      });
    },
    interface: async (fields: Fields = {}) =>
      make('interfaces', {
        name: unique('eth'),
        type: '10gbase-x-sfpp',
        ...fields,
        device: await idOr(fields, 'device', () => factories.device()),
      }),
    frontPort: async (fields: Fields = {}) =>
      make('front-ports', { name: unique('front'), type: 'lc', ...fields, device: await idOr(fields, 'device', () => factories.device()) }),
    rearPort: async (fields: Fields = {}) =>
      make('rear-ports', { name: unique('rear'), type: 'mpo', ...fields, device: await idOr(fields, 'device', () => factories.device()) }),
    rackRole: (fields: Fields = {}) => make('rack-roles', { ...named('rack-role'), ...fields }),
    rackType: async (fields: Fields = {}) => {
      const { name, slug } = named('rack-model');
      return make('rack-types', {
        model: name,
        slug,
        form_factor: '4-post-cabinet',
        ...fields,
        manufacturer: await idOr(fields, 'manufacturer', () => factories.manufacturer()),
      });
    },
    /** A rack (42U unless `u_height` says otherwise), on a new site unless given. */
    rack: async (fields: Fields = {}) =>
      make('racks', { name: unique('rack'), ...fields, site: await idOr(fields, 'site', () => factories.site()) }),
    powerPanel: async (fields: Fields = {}) =>
      make('power-panels', { name: unique('panel'), ...fields, site: await idOr(fields, 'site', () => factories.site()) }),
    powerFeed: async (fields: Fields = {}) =>
      make('power-feeds', {
        name: unique('feed'),
        ...fields,
        power_panel: await idOr(fields, 'power_panel', () => factories.powerPanel()),
      }),
    consolePort: async (fields: Fields = {}) =>
      make('console-ports', { name: unique('console'), ...fields, device: await idOr(fields, 'device', () => factories.device()) }),
    consoleServerPort: async (fields: Fields = {}) =>
      make('console-server-ports', { name: unique('cs-port'), ...fields, device: await idOr(fields, 'device', () => factories.device()) }),
    powerPort: async (fields: Fields = {}) =>
      make('power-ports', { name: unique('psu'), ...fields, device: await idOr(fields, 'device', () => factories.device()) }),
    powerOutlet: async (fields: Fields = {}) =>
      make('power-outlets', { name: unique('outlet'), ...fields, device: await idOr(fields, 'device', () => factories.device()) }),
    virtualChassis: (fields: Fields = {}) => make('virtual-chassis', { name: unique('vc'), ...fields }),
    inventoryItemRole: (fields: Fields = {}) => make('inventory-item-roles', { ...named('inventory-role'), ...fields }),
    /** A cable between two ends, each a list of `[object_type, object_id]`. */
    cable: (a: readonly CableEnd[], b: readonly CableEnd[], fields: Fields = {}) =>
      make('cables', {
        ...fields,
        a_terminations: a.map(([objectType, objectId]) => ({ object_type: objectType, object_id: objectId })),
        b_terminations: b.map(([objectType, objectId]) => ({ object_type: objectType, object_id: objectId })),
      }),
  };
  return factories;
}
