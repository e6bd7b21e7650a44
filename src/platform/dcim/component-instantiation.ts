import type { ResourceHookContext, ResourceRow } from '../framework/resource/resource-declaration';

type Row = Record<string, unknown> & { id: number };

/**
 * NetBox's component instantiation: a new device (or module) gets a component for each component
 * template of its type (console, console server, power ports and outlets, interfaces, front and rear ports), a module bay for each module-bay template (a module's bays sit in the module), a device bay for each device-bay template (devices only), and a port mapping for each template mapping, in the
 * creating transaction and each recorded in the change log. On a module, `{module}` in a template
 * name, label or bay position becomes the bay's position (or name), as in NetBox.
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
    label: ((template.label as string | null) ?? '').replaceAll('{module}', moduleLabel),
    type: template.type,
    color: template.color,
    positions: template.positions,
    description: template.description,
  });

  const component = (template: Row, extra: Record<string, unknown>) => ({
    ...owner,
    name: named(template),
    label: ((template.label as string | null) ?? '').replaceAll('{module}', moduleLabel),
    description: template.description,
    ...extra,
  });
  await context.createChildren(
    'dcim.consoleport',
    (await templates('dcim_consoleporttemplate')).map((template) => component(template, { type: template.type })),
  );
  await context.createChildren(
    'dcim.consoleserverport',
    (await templates('dcim_consoleserverporttemplate')).map((template) => component(template, { type: template.type })),
  );
  const powerPortTemplates = await templates('dcim_powerporttemplate');
  const powerPorts = await context.createChildren(
    'dcim.powerport',
    powerPortTemplates.map((template) =>
      component(template, { type: template.type, maximum_draw: template.maximum_draw, allocated_draw: template.allocated_draw }),
    ),
  );
  const powerPortByTemplate = byTemplate(powerPortTemplates, powerPorts);
  await context.createChildren(
    'dcim.poweroutlet',
    (await templates('dcim_poweroutlettemplate')).map((template) =>
      component(template, {
        type: template.type,
        color: template.color,
        feed_leg: template.feed_leg,
        power_port: template.power_port_id == null ? null : (powerPortByTemplate.get(template.power_port_id as number) ?? null),
      }),
    ),
  );
  await context.createChildren(
    'dcim.interface',
    (await templates('dcim_interfacetemplate')).map((template) =>
      component(template, { type: template.type, enabled: template.enabled, mgmt_only: template.mgmt_only }),
    ),
  );

  const rearTemplates = await templates('dcim_rearporttemplate');
  const rearPorts = await context.createChildren('dcim.rearport', rearTemplates.map(port));
  const frontTemplates = await templates('dcim_frontporttemplate');
  const frontPorts = await context.createChildren('dcim.frontport', frontTemplates.map(port));
  await context.createChildren(
    'dcim.modulebay',
    (await templates('dcim_modulebaytemplate')).map((bay) =>
      component(bay, { position: ((bay.position as string | null) ?? '').replaceAll('{module}', moduleLabel) }),
    ),
  );
  if (type.column === 'device_type_id') {
    await context.createChildren(
      'dcim.devicebay',
      (await templates('dcim_devicebaytemplate')).map((bay) => ({ device: parent.device, name: bay.name, label: bay.label })),
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
