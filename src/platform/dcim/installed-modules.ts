import type { ResourceExtension } from '../framework/resource/resource-declaration';

/**
 * A module bay's `installed_module` as NetBox shows it (the reverse of a module's `module_bay`):
 * the module in the bay as `{id, url, display, serial, description}`, or null. Read-only: a module
 * is installed by creating it in the bay. One query per page, plus the modules' brief form.
 */
export function installedModuleExtension(): ResourceExtension {
  return {
    keys: ['installed_module'],
    readSchema: {
      installed_module: {
        type: 'object',
        nullable: true,
        readOnly: true,
        description: 'The module in the bay',
        required: ['id', 'url', 'display', 'serial', 'description'],
        properties: {
          id: { type: 'integer' },
          url: { type: 'string', format: 'uri' },
          display: { type: 'string' },
          serial: { type: 'string' },
          description: { type: 'string' },
        },
      },
    },
    async represent(manager, rows, baseUrl, serializer) {
      const modules = (await manager.query('SELECT id, module_bay_id, serial, description FROM dcim_module WHERE module_bay_id = ANY($1)', [
        rows.map((row) => row.id),
      ])) as Array<{ id: number; module_bay_id: number; serial: string; description: string }>;
      const shown = await serializer.briefByIds(
        manager,
        'dcim.module',
        modules.map((module) => module.id),
        baseUrl,
      );
      return new Map(
        rows.map((row) => {
          const module = modules.find((candidate) => candidate.module_bay_id === row.id);
          const brief = module && shown.get(module.id);
          return [
            row.id,
            {
              installed_module:
                module && brief
                  ? { id: module.id, url: brief.url, display: brief.display, serial: module.serial, description: module.description }
                  : null,
            },
          ];
        }),
      );
    },
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}
