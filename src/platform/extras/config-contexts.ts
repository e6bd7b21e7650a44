import type { EntityManager } from 'typeorm';
import { computedProperties } from '../framework/resource/computed-properties';
import type { ResourceExtension, ResourceRow } from '../framework/resource/resource-definition';

/**
 * Where a device or virtual machine stands for config context matching: SQL expressions over its
 * row `o` (its site `s` and cluster `cl` joined) for each dimension a context may be limited to;
 * `NULL` where the model has no such attribute (a VM has no device type).
 */
interface ContextSubject {
  table: string;
  objectType: { app: string; model: string };
  location: string;
  deviceType: string;
  cluster: string;
}

const SUBJECTS: Record<'device' | 'virtualmachine', ContextSubject> = {
  device: {
    table: 'dcim_device',
    objectType: { app: 'dcim', model: 'device' },
    location: 'o.location_id',
    deviceType: 'o.device_type_id',
    cluster: 'o.cluster_id',
  },
  virtualmachine: {
    table: 'virtualization_virtualmachine',
    objectType: { app: 'virtualization', model: 'virtualmachine' },
    location: 'NULL::int',
    deviceType: 'NULL::int',
    cluster: 'o.cluster_id',
  },
};

/** The node and its ancestors in a tree table, as a subquery. */
const ancestors = (table: string, node: string) =>
  `(WITH RECURSIVE up(id, parent_id) AS (SELECT id, parent_id FROM ${table} WHERE id = ${node}
      UNION SELECT t.id, t.parent_id FROM ${table} t JOIN up ON t.id = up.parent_id) SELECT id FROM up)`;

/**
 * One statement for a page of devices or VMs: for each, the data of every active config context
 * that applies to it, by weight then name. A context applies when, for each kind of object it is
 * limited to (regions, sites, …, tags), the object's own is among them; a context not limited in a
 * kind matches any object there (NetBox's `ConfigContextQuerySet.get_for_object`).
 */
function applicableContextsStatement(subject: ContextSubject): string {
  const dimension = (joinTable: string, column: string, candidates: string) =>
    `(NOT EXISTS (SELECT 1 FROM ${joinTable} j WHERE j.configcontext_id = c.id)
      OR EXISTS (SELECT 1 FROM ${joinTable} j WHERE j.configcontext_id = c.id AND j.${column} IN ${candidates}))`;
  const scalar = (expression: string) => `(SELECT ${expression})`;
  return `SELECT o.id AS object_id, jsonb_agg(c.data ORDER BY c.weight, c.name, c.id) AS contexts
      FROM ${subject.table} o
      LEFT JOIN dcim_site s ON s.id = o.site_id
      LEFT JOIN virtualization_cluster cl ON cl.id = ${subject.cluster}
      LEFT JOIN tenancy_tenant tn ON tn.id = o.tenant_id
      JOIN extras_configcontext c ON c.is_active
     WHERE o.id = ANY($1)
       AND ${dimension('extras_configcontext_regions', 'region_id', ancestors('dcim_region', 's.region_id'))}
       AND ${dimension('extras_configcontext_site_groups', 'sitegroup_id', ancestors('dcim_sitegroup', 's.group_id'))}
       AND ${dimension('extras_configcontext_sites', 'site_id', scalar('o.site_id'))}
       AND ${dimension('extras_configcontext_locations', 'location_id', ancestors('dcim_location', subject.location))}
       AND ${dimension('extras_configcontext_device_types', 'devicetype_id', scalar(subject.deviceType))}
       AND ${dimension('extras_configcontext_roles', 'devicerole_id', scalar('o.role_id'))}
       AND ${dimension('extras_configcontext_platforms', 'platform_id', scalar('o.platform_id'))}
       AND ${dimension('extras_configcontext_cluster_types', 'clustertype_id', scalar('cl.type_id'))}
       AND ${dimension('extras_configcontext_cluster_groups', 'clustergroup_id', scalar('cl.group_id'))}
       AND ${dimension('extras_configcontext_clusters', 'cluster_id', scalar('cl.id'))}
       AND ${dimension('extras_configcontext_tenant_groups', 'tenantgroup_id', ancestors('tenancy_tenantgroup', 'tn.group_id'))}
       AND ${dimension('extras_configcontext_tenants', 'tenant_id', scalar('o.tenant_id'))}
       AND (cardinality(c.tags) = 0 OR EXISTS (
             SELECT 1 FROM extras_taggeditem ti JOIN extras_tag tg ON tg.id = ti.tag_id JOIN core_objecttype ot ON ot.id = ti.object_type_id
              WHERE ti.object_id = o.id AND ot.app_label = '${subject.objectType.app}' AND ot.model = '${subject.objectType.model}'
                AND tg.slug = ANY(c.tags)))
     GROUP BY o.id`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** NetBox's `deepmerge`: objects merge key by key, recursively; any other value of `later` replaces the earlier one. */
export function deepMerge(earlier: Record<string, unknown>, later: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...earlier };
  for (const [key, value] of Object.entries(later)) {
    merged[key] = isPlainObject(value) && isPlainObject(merged[key]) ? deepMerge(merged[key], value) : value;
  }
  return merged;
}

/** The rendered config context of each row: the applicable contexts merged by weight, then the row's own `local_context_data`. */
export async function renderedConfigContexts(
  manager: EntityManager,
  kind: 'device' | 'virtualmachine',
  rows: readonly ResourceRow[],
): Promise<Map<number, Record<string, unknown>>> {
  const found = (await manager.query(applicableContextsStatement(SUBJECTS[kind]), [rows.map((row) => row.id)])) as Array<{
    object_id: number;
    contexts: Array<Record<string, unknown>>;
  }>;
  const applicable = new Map(found.map(({ object_id, contexts }) => [object_id, contexts]));
  return new Map(
    rows.map((row) => {
      let data: Record<string, unknown> = {};
      for (const context of applicable.get(row.id) ?? []) if (isPlainObject(context)) data = deepMerge(data, context);
      if (isPlainObject(row.local_context_data)) data = deepMerge(data, row.local_context_data);
      return [row.id, data];
    }),
  );
}

/** The read-only `config_context` of devices and virtual machines, computed for a page in one statement. */
export function configContextProperty(kind: 'device' | 'virtualmachine'): ResourceExtension {
  return computedProperties({ config_context: { type: 'object' } }, async (manager, rows) => {
    const rendered = await renderedConfigContexts(manager, kind, rows);
    return new Map([...rendered].map(([id, data]) => [id, { config_context: data }]));
  });
}

/** Context data and local context data are JSON objects (NetBox's rule). */
export function contextDataProblems(value: unknown): string[] {
  return value === null || isPlainObject(value) ? [] : ['JSON data must be in object form. Example: {"foo": 123}'];
}
