import {
  CableResource,
  CircuitResource,
  choice,
  computedProperties,
  decimal,
  defineResource,
  FrontPortResource,
  integer,
  json,
  longText,
  many,
  RearPortResource,
  relation,
  TenantResource,
  text,
} from '../../platform/plugin-api';
import { FMS_API_PREFIX } from './cable-types.resources';
import { FiberStrandResource } from './fiber-cables.resources';
import { FIBER_CIRCUIT_STATUS_CHOICES } from './fms.choices';
import {
  calculatedLosses,
  PATH_ELEMENT_TYPES,
  pathElementProblems,
  rebuildCircuitNodes,
  rebuildPathNodes,
  tracePath,
  TRACE_DOCUMENTATION,
} from './circuit-paths';
import { PROTECTING_GET_DOCUMENTATION, PROTECTING_POST_DOCUMENTATION, protectingByQuery, protectingByReference } from './protecting';
import { SplicePlanEntryResource } from './splice-plans.resources';
import { withErrorBody } from './endpoint-errors';

/** Fiber circuits, their paths through cables, ports and splices, and the nodes that make a live circuit protect what it uses. */

export const FiberCircuitResource = defineResource({
  appLabel: 'fms',
  model: 'fibercircuit',
  path: 'fiber-circuits',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'fiber circuit',
  graphqlName: 'fiber_circuit',
  graphql: {
    deprecatedNames: ['fms_fiber_circuit'],
    lists: { paths: { objectType: 'fms.fibercircuitpath', field: 'circuit' } },
  },
  table: 'fms_fibercircuit',
  fields: {
    name: text({ maxLength: 200, required: true, search: true }),
    cid: text({ maxLength: 100, search: true }),
    status: choice(FIBER_CIRCUIT_STATUS_CHOICES, { default: 'planned' }),
    description: text({ maxLength: 200, search: true }),
    strand_count: integer({ min: 1, max: 10000, required: true }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL', filterById: true }),
    // The provider (leased) circuits the fibre circuit rides on, as newer upstream.
    provider_circuits: many(() => CircuitResource),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'cid', 'status', 'strand_count'],
  ordering: ['name'],
  // Decommissioning releases what the circuit holds; leaving decommissioned takes it again.
  afterUpdate: async (context, before, after) => {
    if ((before.status === 'decommissioned') !== (after.status === 'decommissioned')) await rebuildCircuitNodes(context.manager, after.id);
  },
  actions: [
    {
      name: 'retrace',
      method: 'POST',
      permission: 'change',
      openapi: {
        summary: "Rebuild the nodes of the circuit's paths from their path lists; answers the circuit",
        response: { type: 'object' },
      },
      handle: withErrorBody(async ({ manager, row, serializer, scope }) => {
        await rebuildCircuitNodes(manager, row.id);
        const [circuit] = await serializer.serialize(manager, FiberCircuitResource, [row], 'full', scope.baseUrl);
        return circuit;
      }),
    },
  ],
  collectionActions: [
    {
      name: 'protecting',
      method: 'POST',
      permission: 'view',
      safePost: true,
      openapi: PROTECTING_POST_DOCUMENTATION,
      handle: withErrorBody(protectingByReference),
    },
    {
      name: 'protecting',
      method: 'GET',
      permission: 'view',
      openapi: PROTECTING_GET_DOCUMENTATION,
      handle: withErrorBody(protectingByQuery),
    },
  ],
});

export const FiberCircuitPathResource = defineResource({
  appLabel: 'fms',
  model: 'fibercircuitpath',
  path: 'fiber-circuit-paths',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'fiber circuit path',
  graphqlName: 'fiber_circuit_path',
  graphql: { deprecatedNames: ['fms_fiber_circuit_path'] },
  table: 'fms_fibercircuitpath',
  fields: {
    circuit: relation(() => FiberCircuitResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    position: integer({ min: 1, max: 10000, required: true }),
    origin: relation(() => FrontPortResource, { onDelete: 'PROTECT', required: true }),
    destination: relation(() => FrontPortResource, { onDelete: 'SET NULL' }),
    path: json({
      noFilter: true,
      default: () => [],
      validate: (value) =>
        Array.isArray(value) &&
        value.every(
          (hop) =>
            hop &&
            typeof hop === 'object' &&
            PATH_ELEMENT_TYPES.includes((hop as { type: string }).type) &&
            Number.isSafeInteger((hop as { id: unknown }).id),
        )
          ? []
          : [`Expected a list of {type, id} with type one of ${PATH_ELEMENT_TYPES.join(', ')} and an integer id.`],
    }),
    is_complete: { kind: 'boolean', default: false },
    actual_loss_db: decimal({ precision: 6, scale: 3, min: 0, nullable: true }),
    wavelength_nm: integer({ min: 600, max: 1700, nullable: true }),
  },
  display: (row) => `Fiber circuit ${String(row.circuit_id)} path ${String(row.position)}`,
  brief: ['circuit', 'position', 'is_complete'],
  ordering: ['circuit', 'position'],
  uniqueTogether: [['circuit', 'position']],
  relatedObject: 'circuit',
  validate: (values): Record<string, string[]> =>
    values.actual_loss_db !== null &&
    values.actual_loss_db !== undefined &&
    (values.wavelength_nm === null || values.wavelength_nm === undefined)
      ? { wavelength_nm: ['A measured loss needs the wavelength it was measured at.'] }
      : {},
  validateAsync: pathElementProblems,
  afterCreate: (context, row) => rebuildPathNodes(context.manager, row.id),
  afterUpdate: (context, _before, after) => rebuildPathNodes(context.manager, after.id),
  extensions: [
    computedProperties(
      {
        calculated_loss_db: {
          type: 'array',
          items: { type: 'array', items: {} },
          description: '`[wavelength_nm, loss_db]` pairs: the loss of the path at each wavelength its cables specify',
        },
      },
      calculatedLosses,
    ),
  ],
  actions: [
    {
      name: 'trace',
      method: 'GET',
      permission: 'view',
      openapi: TRACE_DOCUMENTATION,
      handle: withErrorBody(({ manager, row, scope }) => tracePath(manager, row, scope.baseUrl)),
    },
  ],
});

/** What a live circuit holds, one node per object on its paths; maintained from the paths, never written through the API. */
export const FiberCircuitNodeResource = defineResource({
  appLabel: 'fms',
  model: 'fibercircuitnode',
  path: 'fiber-circuit-nodes',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'fiber circuit node',
  graphqlName: 'fiber_circuit_node',
  graphql: { deprecatedNames: ['fms_fiber_circuit_node'] },
  table: 'fms_fibercircuitnode',
  readOnly: true,
  standard: { tags: false, customFields: false, created: false, lastUpdated: false, changeLogged: false },
  fields: {
    path: relation(() => FiberCircuitPathResource, { onDelete: 'CASCADE', required: true }),
    position: integer({ min: 1, max: 100000, required: true }),
    cable: relation(() => CableResource, { onDelete: 'CASCADE' }),
    front_port: relation(() => FrontPortResource, { onDelete: 'CASCADE' }),
    rear_port: relation(() => RearPortResource, { onDelete: 'CASCADE' }),
    fiber_strand: relation(() => FiberStrandResource, { onDelete: 'CASCADE' }),
    splice_entry: relation(() => SplicePlanEntryResource, { onDelete: 'CASCADE' }),
  },
  display: (row) => `Node ${String(row.position)} of path ${String(row.path_id)}`,
  brief: ['path', 'position'],
  ordering: ['path', 'position'],
  uniqueTogether: [['path', 'position']],
  checks: [
    {
      name: 'fms_fibercircuitnode_one_object_check',
      expression: 'num_nonnulls("cable_id", "front_port_id", "rear_port_id", "fiber_strand_id", "splice_entry_id") = 1',
    },
  ],
});
