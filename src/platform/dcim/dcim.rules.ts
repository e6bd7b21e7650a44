import { EntityManager } from 'typeorm';
import type { ExtraFilter } from '../framework/resource/resource-definition';

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
    const [front] = (await manager.query(`SELECT * FROM ${frontTable} WHERE id = $1`, [values.front_port_id])) as Array<Record<string, unknown>>;
    const [rear] = (await manager.query(`SELECT * FROM ${rearTable} WHERE id = $1`, [values.rear_port_id])) as Array<Record<string, unknown>>;
    if (!front || !rear) return problems;
    for (const column of parentColumns) {
      if (values[column] !== undefined && front[column] !== values[column]) {
        (problems.front_port ??= []).push(`The front port belongs to another ${column.replace(/_id$/, '').replace('_', ' ')}.`);
      }
      if (front[column] !== rear[column]) {
        (problems.rear_port ??= []).push(`The rear port must belong to the same ${column.replace(/_id$/, '').replace('_', ' ')} as the front port.`);
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
  const [bay] = (await manager.query('SELECT device_id FROM dcim_modulebay WHERE id = $1', [values.module_bay_id])) as Array<{ device_id: number }>;
  return bay && bay.device_id !== values.device_id ? { module_bay: ['The module bay belongs to another device.'] } : {};
}

/**
 * Tree models (regions, site groups, locations, tenant and contact groups): an object may not become
 * its own ancestor (that would also make deleting it recurse forever).
 */
export function noParentCycle(table: string) {
  return async (manager: EntityManager, values: Record<string, unknown>): Promise<Problems> => {
    if (values.parent_id == null || values.id === undefined) return {};
    const [found] = (await manager.query(
      `WITH RECURSIVE ancestors(id, parent_id) AS (
         SELECT id, parent_id FROM ${table} WHERE id = $1
         UNION SELECT t.id, t.parent_id FROM ${table} t JOIN ancestors a ON t.id = a.parent_id)
       SELECT 1 FROM ancestors WHERE id = $2 LIMIT 1`,
      [values.parent_id, values.id],
    )) as unknown[];
    return found ? { parent: ['An object cannot be its own ancestor.'] } : {};
  };
}

/** A location's parent location is on the same site. */
export function locationRules() {
  const noCycle = noParentCycle('dcim_location');
  return async (manager: EntityManager, values: Record<string, unknown>): Promise<Problems> => {
    if (values.parent_id != null) {
      const [parent] = (await manager.query('SELECT site_id FROM dcim_location WHERE id = $1', [values.parent_id])) as Array<{ site_id: number }>;
      if (parent && parent.site_id !== values.site_id) return { parent: ['The parent location must belong to the same site.'] };
    }
    return noCycle(manager, values);
  };
}

/**
 * A filter on a tree relation that also matches the descendants of the named nodes, as NetBox's
 * TreeNodeMultipleChoiceFilter (`region=europe` selects sites in every region below Europe).
 */
export function treeFilter(column: string, table: string, key: 'id' | 'slug'): ExtraFilter {
  return (values, alias, prefix) => {
    // `region_id=null` selects the objects without one, as NetBox's null choice does.
    const wantsNull = values.includes('null');
    const named = values.filter((value) => value !== 'null');
    if (key === 'id' && named.some((value) => !/^[1-9]\d{0,9}$/.test(value))) return { problem: 'Enter a whole number.' };
    const terms = wantsNull ? [`${alias}."${column}" IS NULL`] : [];
    if (named.length > 0) {
      terms.push(`${alias}."${column}" IN (WITH RECURSIVE tree(id) AS (
                   SELECT id FROM ${table} WHERE ${key} IN (:...${prefix})
                   UNION SELECT t.id FROM ${table} t JOIN tree ON t.parent_id = tree.id)
                 SELECT id FROM tree)`);
    }
    return { where: `(${terms.join(' OR ')})`, params: named.length > 0 ? { [prefix]: key === 'id' ? named.map(Number) : named } : {} };
  };
}
