import type { ResourceHookContext, ResourceRow } from '../framework/resource/resource-declaration';

type Row = Record<string, unknown> & { id: number };

/**
 * NetBox's component instantiation: a new device (or module) gets a port for each port template of
 * its type, a module bay for each bay template, and a port mapping for each template mapping, in the
 * creating transaction and each recorded in the change log. On a module, `{module}` in a template
 * name becomes the bay's position (or name), as in NetBox.
 */
export async function instantiateComponents(
  context: ResourceHookContext,
  parent: { device: unknown; module?: number },
  type: { column: 'device_type_id' | 'module_type_id'; id: number },
): Promise<void> {
  const { manager } = context;
  const templates = async (table: string) =>
    (await manager.query(`SELECT * FROM ${table} WHERE ${type.column} = $1 ORDER BY id`, [type.id])) as Row[];
  let moduleLabel = '';
  if (parent.module !== undefined) {
    const [bay] = (await manager.query(
      'SELECT b.name, b.position FROM dcim_module m JOIN dcim_modulebay b ON b.id = m.module_bay_id WHERE m.id = $1',
      [parent.module],
    )) as Array<{ name: string; position: string }>;
    moduleLabel = bay?.position || bay?.name || '';
  }
  const named = (template: Row) => String(template.name).replaceAll('{module}', moduleLabel);
  const owner = { device: parent.device, ...(parent.module !== undefined ? { module: parent.module } : {}) };
  const port = (template: Row) => ({
    ...owner,
    name: named(template),
    label: String(template.label ?? '').replaceAll('{module}', moduleLabel),
    type: template.type,
    color: template.color,
    positions: template.positions,
    description: template.description,
  });

  const rearTemplates = await templates('dcim_rearporttemplate');
  const rearPorts = await context.createChildren('dcim.rearport', rearTemplates.map(port));
  const frontTemplates = await templates('dcim_frontporttemplate');
  const frontPorts = await context.createChildren('dcim.frontport', frontTemplates.map(port));
  if (type.column === 'device_type_id') {
    const bays = await templates('dcim_modulebaytemplate');
    await context.createChildren(
      'dcim.modulebay',
      bays.map((bay) => ({
        device: parent.device,
        name: bay.name,
        label: bay.label,
        position: bay.position,
        description: bay.description,
      })),
    );
  }
  const rearByTemplate = byTemplate(rearTemplates, rearPorts);
  const frontByTemplate = byTemplate(frontTemplates, frontPorts);
  const mappings = await templates('dcim_porttemplatemapping');
  await context.createChildren(
    'dcim.portmapping',
    mappings.map((mapping) => ({
      device: parent.device,
      front_port: frontByTemplate.get(mapping.front_port_id as number),
      front_port_position: mapping.front_port_position,
      rear_port: rearByTemplate.get(mapping.rear_port_id as number),
      rear_port_position: mapping.rear_port_position,
    })),
  );
}

/** Template id → id of the component made from it (created in template order). */
function byTemplate(templates: readonly Row[], created: readonly ResourceRow[]): Map<number, number> {
  return new Map(templates.map((template, index) => [template.id, created[index].id]));
}
