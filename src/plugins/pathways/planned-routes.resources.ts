import type { EntityManager } from 'typeorm';
import {
  CableResource,
  choice,
  defineResource,
  json,
  LocationResource,
  longText,
  relation,
  type ResourceDefinition,
  type ResourceRow,
  TenantResource,
  text,
} from '../../platform/plugin-api';
import { PLANNED_ROUTE_STATUS_CHOICES } from './pathways.choices';
import { ROUTE_FINDER_ACTION } from './route-planner';
import { PATHWAYS_API_PREFIX, StructureResource } from './structures.resources';
import { tenantGroupFilter } from './pathways.filters';

const isSet = (value: unknown) => value !== null && value !== undefined;

function pathwayIdsProblems(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((id) => Number.isInteger(id) && (id as number) > 0 && (id as number) <= 2147483647))
    return ['Expected a list of pathway ids (positive integers).'];
  return [];
}

/** A route without pathways or constraints holds an empty list and an empty object, as NetBox's plugin's defaults. */
async function fillEmpty(manager: EntityManager, row: ResourceRow): Promise<void> {
  if (row.pathway_ids !== null && row.constraints !== null) return;
  row.pathway_ids ??= [];
  row.constraints ??= {};
  await manager.query('UPDATE pathways_plannedroute SET pathway_ids = $2, constraints = $3 WHERE id = $1', [
    row.id,
    JSON.stringify(row.pathway_ids),
    JSON.stringify(row.constraints),
  ]);
}

function constraintsProblems(value: unknown): string[] {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? [] : ['Expected an object.'];
}

/** A route found by the route planner (`planned-routes/find/`), or drawn by hand: pathway ids in order between two ends. */
export const PlannedRouteResource: ResourceDefinition = defineResource({
  appLabel: 'pathways',
  model: 'plannedroute',
  path: 'planned-routes',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'planned route',
  graphqlName: 'planned_route',
  table: 'pathways_plannedroute',
  fields: {
    name: text({ maxLength: 200, required: true, search: true }),
    status: choice(PLANNED_ROUTE_STATUS_CHOICES, { default: 'draft' }),
    start_structure: relation(() => StructureResource, { onDelete: 'SET NULL', filterById: true }),
    end_structure: relation(() => StructureResource, { onDelete: 'SET NULL', filterById: true }),
    start_location: relation(() => LocationResource, { onDelete: 'SET NULL' }),
    end_location: relation(() => LocationResource, { onDelete: 'SET NULL' }),
    // Ids rather than links, as NetBox's plugin: a route outlives a pathway deleted after it was planned.
    // Empty when not given (the hooks write [] and {}).
    pathway_ids: json({ validate: pathwayIdsProblems }),
    constraints: json({ validate: constraintsProblems }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    cable: relation(() => CableResource, { onDelete: 'SET NULL', filterById: true }),
    parent: relation(() => PlannedRouteResource, { onDelete: 'SET NULL', filterById: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'status'],
  ordering: ['-created'],
  extraFilters: { tenant_group: tenantGroupFilter('slug'), tenant_group_id: tenantGroupFilter('id') },
  collectionActions: [ROUTE_FINDER_ACTION],
  afterCreate: async ({ manager }, row) => fillEmpty(manager, row),
  afterUpdate: async ({ manager }, _before, row) => fillEmpty(manager, row),
  validate: (values): Record<string, string[]> => {
    const problems: Record<string, string[]> = {};
    for (const side of ['start', 'end']) {
      const structure = isSet(values[`${side}_structure_id`]);
      const location = isSet(values[`${side}_location_id`]);
      if (structure && location) problems[`${side}_location`] = [`Set either ${side}_structure or ${side}_location, not both.`];
      if (!structure && !location) problems[`${side}_structure`] = [`A ${side} endpoint (structure or location) is required.`];
    }
    return problems;
  },
});
