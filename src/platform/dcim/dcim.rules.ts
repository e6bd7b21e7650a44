import { EntityManager } from 'typeorm';
import { noParentCycle } from '../framework/resource/organizational';

type Problems = Record<string, string[]>;

/** Templates belong to exactly one parent: a device type or a module type. */
export function exactlyOneOf(first: string, second: string): (values: Record<string, unknown>) => Problems {
  return (values): Problems => {
    const hasFirst = values[`${first}_id`] != null;
    const hasSecond = values[`${second}_id`] != null;
    if (hasFirst === hasSecond) {
      return { non_field_errors: [`Exactly one of ${first} and ${second} must be set.`] };
    }
    return {};
  };
}

/**
 * A front↔rear mapping joins two ports of one parent (device, or device/module type for templates)
 * at positions each port has.
 */
export function portMappingRules(frontTable: string, rearTable: string, parentColumns: readonly string[]) {
  return async (manager: EntityManager, values: Record<string, unknown>): Promise<Problems> => {
    const problems: Problems = {};
    const [front] = (await manager.query(`SELECT * FROM ${frontTable} WHERE id = $1`, [values.front_port_id])) as Array<
      Record<string, unknown>
    >;
    const [rear] = (await manager.query(`SELECT * FROM ${rearTable} WHERE id = $1`, [values.rear_port_id])) as Array<
      Record<string, unknown>
    >;
    if (!front || !rear) return problems;
    for (const column of parentColumns) {
      if (values[column] !== undefined && front[column] !== values[column]) {
        (problems.front_port ??= []).push(`The front port belongs to another ${column.replace(/_id$/, '').replace('_', ' ')}.`);
      }
      if (front[column] !== rear[column]) {
        (problems.rear_port ??= []).push(
          `The rear port must belong to the same ${column.replace(/_id$/, '').replace('_', ' ')} as the front port.`,
        );
      }
    }
    if (Number(values.front_port_position ?? 1) > Number(front.positions)) {
      problems.front_port_position = [`The front port has ${String(front.positions)} position(s).`];
    }
    if (Number(values.rear_port_position ?? 1) > Number(rear.positions)) {
      problems.rear_port_position = [`The rear port has ${String(rear.positions)} position(s).`];
    }
    return problems;
  };
}

/** A module sits in a bay of its own device. */
export async function moduleBayOnDevice(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  const [bay] = (await manager.query('SELECT device_id FROM dcim_modulebay WHERE id = $1', [values.module_bay_id])) as Array<{
    device_id: number;
  }>;
  return bay && bay.device_id !== values.device_id ? { module_bay: ['The module bay belongs to another device.'] } : {};
}

/** A component's module is installed in its own device. */
export async function moduleOnDevice(manager: EntityManager, values: Record<string, unknown>): Promise<Problems> {
  if (values.module_id == null) return {};
  const [module] = (await manager.query('SELECT device_id FROM dcim_module WHERE id = $1', [values.module_id])) as Array<{
    device_id: number;
  }>;
  return module && module.device_id !== values.device_id ? { module: ['The module is installed in another device.'] } : {};
}

/** A location's parent location is on the same site. */
export function locationRules() {
  const noCycle = noParentCycle('dcim_location');
  return async (manager: EntityManager, values: Record<string, unknown>): Promise<Problems> => {
    if (values.parent_id != null) {
      const [parent] = (await manager.query('SELECT site_id FROM dcim_location WHERE id = $1', [values.parent_id])) as Array<{
        site_id: number;
      }>;
      if (parent && parent.site_id !== values.site_id) return { parent: ['The parent location must belong to the same site.'] };
    }
    return noCycle(manager, values);
  };
}
