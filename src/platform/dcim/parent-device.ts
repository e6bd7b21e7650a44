import type { ResourceExtension } from '../framework/resource/resource-declaration';

/**
 * A child device's `parent_device` as NetBox shows it: the device whose bay holds it, with that bay
 * as `device_bay`; null for a device in no bay. Read-only: a device is installed through the bay's
 * `installed_device`. One query per page, plus the bays' brief form.
 */
export function parentDeviceExtension(): ResourceExtension {
  const nested = { id: { type: 'integer' }, url: { type: 'string', format: 'uri' }, display: { type: 'string' }, name: { type: 'string' } };
  return {
    keys: ['parent_device'],
    readSchema: {
      parent_device: {
        type: 'object',
        nullable: true,
        readOnly: true,
        description: 'The device whose bay (`device_bay`) holds this one',
        properties: { ...nested, device_bay: { type: 'object', properties: nested } },
      },
    },
    async represent(manager, rows, baseUrl, serializer) {
      const bays = (await manager.query('SELECT id, installed_device_id FROM dcim_devicebay WHERE installed_device_id = ANY($1)', [
        rows.map((row) => row.id),
      ])) as Array<{ id: number; installed_device_id: number }>;
      const shown = await serializer.briefByIds(
        manager,
        'dcim.devicebay',
        bays.map((bay) => bay.id),
        baseUrl,
      );
      const byChild = new Map(bays.map((bay) => [bay.installed_device_id, shown.get(bay.id)]));
      return new Map(
        rows.map((row) => {
          const bay = byChild.get(row.id);
          return [row.id, { parent_device: bay ? { ...(bay.device as Record<string, unknown>), device_bay: bay } : null }];
        }),
      );
    },
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}
