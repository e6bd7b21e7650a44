import type { EntityManager } from 'typeorm';
import {
  canonicalObjectType,
  type ExtraFilter,
  integer,
  relation,
  type ResourceExtension,
  type ResourceRow,
} from '../../platform/plugin-api';
import { EVENT_OBJECT_TYPES } from './notices.choices';

/**
 * How impacts and received notifications name things: an object type (written as its integer id or
 * `"app.model"`, read as `"app.model"`) and an object id, as upstream's `event_content_type` +
 * `event_object_id`. Plain columns rather than the platform's generic relation, whose keys would
 * be `event_type`/`event_id`: clients (the mail worker, pynetbox scripts) send these names.
 */
export function objectPointer(prefix: 'event' | 'target') {
  return {
    [`${prefix}_content_type`]: relation('core.objecttype', { onDelete: 'CASCADE', required: true }),
    [`${prefix}_object_id`]: integer({ min: 1, max: 2_147_483_647, required: true }),
  };
}

export async function objectTypeLabels(manager: EntityManager, ids: readonly number[]): Promise<Map<number, string>> {
  const rows = (await manager.query(`SELECT id, app_label || '.' || model AS label FROM core_objecttype WHERE id = ANY($1)`, [
    [...new Set(ids)],
  ])) as Array<{ id: number; label: string }>;
  return new Map(rows.map(({ id, label }) => [Number(id), label]));
}

/** The event an impact or notification belongs to: its object type, table and current status (null when it is gone). */
export async function eventOf(
  manager: EntityManager,
  typeId: unknown,
  id: unknown,
): Promise<{ objectType: string; status: string | null; exists: boolean } | null> {
  const label = (await objectTypeLabels(manager, [Number(typeId)])).get(Number(typeId));
  if (!label || !(EVENT_OBJECT_TYPES as readonly string[]).includes(label)) return null;
  const table = label === 'notices.outage' ? 'notices_outage' : 'notices_maintenance';
  const [row] = (await manager.query(`SELECT status FROM ${table} WHERE id = $1`, [Number(id)])) as Array<{ status: string }>;
  return { objectType: label, status: row?.status ?? null, exists: row !== undefined };
}

/** The event must be a maintenance or an outage that exists. Values are by column. */
export async function eventProblems(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  const event = await eventOf(manager, values.event_content_type_id, values.event_object_id);
  if (!event) return { event_content_type: ['The event must be a notices maintenance or outage.'] };
  if (!event.exists) return { event_object_id: [`No ${event.objectType.split('.')[1]} with ID ${String(values.event_object_id)} exists.`] };
  return {};
}

/** Read-only nested `event` (and `target`) objects, as the platform nests related objects (brief form). */
export function nestedPointers(prefixes: ReadonlyArray<'event' | 'target'>): ResourceExtension {
  return {
    keys: prefixes,
    represent: async (manager, rows, baseUrl, serializer) => {
      const typeIds = rows.flatMap((row) => prefixes.map((prefix) => Number(row[`${prefix}_content_type_id`])));
      const labels = await objectTypeLabels(manager, typeIds);
      const nested = new Map<string, Map<number, Record<string, unknown>>>();
      for (const label of new Set(labels.values())) {
        const ids = rows.flatMap((row) =>
          prefixes
            .filter((prefix) => labels.get(Number(row[`${prefix}_content_type_id`])) === label)
            .map((prefix) => Number(row[`${prefix}_object_id`])),
        );
        nested.set(label, await serializer.briefByIds(manager, label, ids, baseUrl).catch(() => new Map()));
      }
      return new Map(
        rows.map((row: ResourceRow) => [
          row.id,
          Object.fromEntries(
            prefixes.map((prefix) => {
              const label = labels.get(Number(row[`${prefix}_content_type_id`]));
              const found = label ? nested.get(label)?.get(Number(row[`${prefix}_object_id`])) : undefined;
              return [prefix, found ? { ...found, object_type: label } : null];
            }),
          ),
        ]),
      );
    },
    snapshot: async () => new Map(),
    validate: async () => ({}),
    apply: async () => undefined,
  };
}

/** `event_content_type=notices.outage` (and `target_content_type=`): the object type by its `app.model` label, any of the values. */
export function objectTypeLabelFilter(prefix: 'event' | 'target'): ExtraFilter {
  return (values, alias, parameter) => {
    // An upstream plugin's label (`netbox_fms.fibercircuit`) names our model.
    const labels = values.map((value) => canonicalObjectType(value.toLowerCase()));
    if (labels.some((label) => !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(label))) return { problem: 'Give object types as app_label.model.' };
    return {
      where: `${alias}."${prefix}_content_type_id" IN (SELECT ot.id FROM core_objecttype ot WHERE ot.app_label || '.' || ot.model IN (:...${parameter}))`,
      params: { [parameter]: labels },
    };
  };
}
