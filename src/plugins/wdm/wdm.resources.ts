import type { EntityManager } from 'typeorm';
import {
  boolean,
  choice,
  decimal,
  defineResource,
  DeviceResource,
  DeviceTypeResource,
  exactlyOneOf,
  FrontPortResource,
  FrontPortTemplateResource,
  integer,
  longText,
  many,
  ModuleResource,
  ModuleTypeResource,
  RearPortResource,
  RearPortTemplateResource,
  relation,
  type ResourceExtension,
  type ResourceRow,
  ResourceValidationError,
  TenantResource,
  text,
} from '../../platform/plugin-api';
import {
  freeCircuitChannels,
  noteChannelPathsBeforeDelete,
  rebuildAfterChannelsDeleted,
  rebuildPaths,
  refreshPathActivity,
} from './wavelength-paths';
import { generateNodeComponents } from './node-generation';
import { refreshPortSync } from './port-sync';
import { refreshNode } from './automation';
import { APPLY_MAPPING_DOCUMENTATION, applyMapping, SYNC_PORTS_DOCUMENTATION, syncPorts } from './wdm-operations';
import { STITCH_DOCUMENTATION, stitchCircuit, TRACE_DOCUMENTATION, traceChannel } from './wavelength-paths';
import {
  CHANNEL_STATUS_CHOICES,
  CIRCUIT_STATUS_CHOICES,
  DIRECTION_CHOICES,
  FIBER_TYPE_CHOICES,
  GRID_CHOICES,
  gridChannel,
  NODE_TYPE_CHOICES,
  ROLE_CHOICES,
} from './wdm.choices';

export const WDM_API_PREFIX = '/api/plugins/wdm/';

type Problems = Record<string, string[]>;

/** A grid position must name a channel of the grid; label and wavelength then follow from it. */
function positionProblem(grid: string, position: unknown): Problems {
  return typeof position === 'number' && !gridChannel(grid, position)
    ? { grid_position: [`Grid position ${position} is not on the ${grid} grid.`] }
    : {};
}

/** The label and wavelength columns of a grid position: computed, never accepted from the client. */
function gridColumns(grid: string | null, position: unknown): Record<string, unknown> {
  const channel = typeof position === 'number' && grid ? gridChannel(grid, position) : undefined;
  return channel ? { label: channel.label, wavelength_nm: channel.wavelength_nm } : {};
}

/**
 * Work done when a row is created, before it is read back for the answer and the change log
 * (extensions apply between the insert and that read; `afterCreate` runs after it).
 */
function onCreate(apply: (manager: EntityManager, row: ResourceRow) => Promise<void>): ResourceExtension {
  return {
    keys: [],
    represent: () => Promise.resolve(new Map()),
    snapshot: () => Promise.resolve(new Map()),
    validate: () => Promise.resolve({}),
    apply: (manager, row, _body, creating) => (creating ? apply(manager, row) : Promise.resolve()),
  };
}

/** Stores a new row's label and wavelength; an update computes them in `beforeUpdate`. */
function gridValuesOnCreate(
  table: string,
  gridOf: (manager: EntityManager, row: ResourceRow) => Promise<string | null>,
): ResourceExtension {
  return onCreate(async (manager, row) => {
    const columns = gridColumns(await gridOf(manager, row), row.grid_position);
    if ('label' in columns) {
      await manager.query(`UPDATE ${table} SET label = $2, wavelength_nm = $3 WHERE id = $1`, [
        row.id,
        columns.label,
        columns.wavelength_nm,
      ]);
    }
  });
}

async function profileGrid(manager: EntityManager, profileId: unknown): Promise<string | null> {
  const [profile] = (await manager.query('SELECT grid FROM wdm_wdmprofile WHERE id = $1', [profileId])) as Array<{ grid: string }>;
  return profile?.grid ?? null;
}

async function nodeOf(manager: EntityManager, nodeId: unknown): Promise<{ grid: string; node_type: string; device_id: number } | null> {
  const [node] = (await manager.query('SELECT grid, node_type, device_id FROM wdm_wdmnode WHERE id = $1', [nodeId])) as Array<{
    grid: string;
    node_type: string;
    device_id: number;
  }>;
  return node ?? null;
}

/** A port template named by a plan must belong to the profile's device type or module type. */
async function templateProblems(
  manager: EntityManager,
  profileId: unknown,
  templates: ReadonlyArray<{ field: string; table: string; id: unknown }>,
): Promise<Problems> {
  const problems: Problems = {};
  const [profile] = (await manager.query('SELECT device_type_id, module_type_id FROM wdm_wdmprofile WHERE id = $1', [profileId])) as Array<{
    device_type_id: number | null;
    module_type_id: number | null;
  }>;
  if (!profile) return problems;
  for (const { field, table, id } of templates) {
    if (id === null || id === undefined) continue;
    const [template] = (await manager.query(`SELECT device_type_id, module_type_id FROM ${table} WHERE id = $1`, [id])) as Array<{
      device_type_id: number | null;
      module_type_id: number | null;
    }>;
    if (template && (template.device_type_id !== profile.device_type_id || template.module_type_id !== profile.module_type_id)) {
      problems[field] = ["The template must belong to the profile's device type or module type."];
    }
  }
  return problems;
}

/** What a device type or module type is as a WDM node: its type, grid and the channel and line-port plans its nodes are built from. */
export const WdmProfileResource = defineResource({
  appLabel: 'wdm',
  model: 'wdmprofile',
  path: 'wdm-profiles',
  apiPrefix: WDM_API_PREFIX,
  verboseName: 'WDM profile',
  graphqlName: 'wdm_profile',
  table: 'wdm_wdmprofile',
  fields: {
    device_type: relation(() => DeviceTypeResource, { onDelete: 'CASCADE', unique: true }),
    module_type: relation(() => ModuleTypeResource, { onDelete: 'CASCADE', unique: true }),
    node_type: choice(NODE_TYPE_CHOICES, { required: true }),
    grid: choice(GRID_CHOICES, { required: true }),
    fiber_type: choice(FIBER_TYPE_CHOICES, { default: 'duplex' }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) =>
    `WDM profile ${String(row.node_type)} ${String(row.grid)} (${row.device_type_id ? 'device type' : 'module type'} ${String(row.device_type_id ?? row.module_type_id)})`,
  brief: ['node_type', 'grid', 'description'],
  ordering: ['id'],
  validate: exactlyOneOf('device_type', 'module_type'),
  graphql: {
    intId: true,
    filters: ['id', 'node_type', 'grid'],
    lists: { channel_plans: { objectType: 'wdm.wdmchannelplan', field: 'profile' } },
  },
});

/** One channel of a profile: its grid position (label and wavelength computed) and the mux/demux front-port templates it uses. */
export const WdmChannelPlanResource = defineResource({
  appLabel: 'wdm',
  model: 'wdmchannelplan',
  path: 'wdm-channel-plans',
  apiPrefix: WDM_API_PREFIX,
  verboseName: 'WDM channel plan',
  graphqlName: 'wdm_channel_plan',
  table: 'wdm_wdmchannelplan',
  fields: {
    profile: relation(() => WdmProfileResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    grid_position: integer({ min: 1, max: 1000, required: true }),
    wavelength_nm: decimal({ precision: 8, scale: 2, nullable: true, readOnly: true }),
    label: text({ maxLength: 20, readOnly: true, search: true }),
    mux_front_port_template: relation(() => FrontPortTemplateResource, { onDelete: 'SET NULL' }),
    demux_front_port_template: relation(() => FrontPortTemplateResource, { onDelete: 'SET NULL' }),
  },
  display: (row) => String(row.label || `position ${String(row.grid_position)}`),
  brief: ['grid_position', 'label', 'wavelength_nm'],
  ordering: ['profile', 'grid_position'],
  uniqueTogether: [
    ['profile', 'grid_position'],
    ['profile', 'mux_front_port_template'],
    ['profile', 'demux_front_port_template'],
  ],
  relatedObject: 'profile',
  validateAsync: async (manager, values) => {
    const grid = await profileGrid(manager, values.profile_id);
    return {
      ...(grid ? positionProblem(grid, values.grid_position) : {}),
      ...(await templateProblems(manager, values.profile_id, [
        { field: 'mux_front_port_template', table: 'dcim_frontporttemplate', id: values.mux_front_port_template_id },
        { field: 'demux_front_port_template', table: 'dcim_frontporttemplate', id: values.demux_front_port_template_id },
      ])),
    };
  },
  extensions: [gridValuesOnCreate('wdm_wdmchannelplan', (manager, row) => profileGrid(manager, row.profile_id))],
  beforeUpdate: async ({ manager }, existing, changes) =>
    'grid_position' in changes
      ? gridColumns(await profileGrid(manager, changes.profile_id ?? existing.profile_id), changes.grid_position)
      : undefined,
  // The spec names no filter for channel plans: their list takes none.
  graphql: { intId: true, filters: [] },
});

/** One line port of a profile: the rear-port template and its direction and role. */
export const WdmLinePortPlanResource = defineResource({
  appLabel: 'wdm',
  model: 'wdmlineportplan',
  path: 'wdm-line-port-plans',
  apiPrefix: WDM_API_PREFIX,
  verboseName: 'WDM line port plan',
  graphqlName: 'wdm_line_port_plan',
  table: 'wdm_wdmlineportplan',
  fields: {
    profile: relation(() => WdmProfileResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    rear_port_template: relation(() => RearPortTemplateResource, { onDelete: 'CASCADE', required: true }),
    direction: choice(DIRECTION_CHOICES, { default: 'common' }),
    role: choice(ROLE_CHOICES, { default: 'bidi' }),
  },
  display: (row) => `${String(row.direction)} ${String(row.role)}`,
  brief: ['direction', 'role'],
  ordering: ['profile', 'id'],
  uniqueTogether: [['profile', 'rear_port_template']],
  relatedObject: 'profile',
  validateAsync: (manager, values) =>
    templateProblems(manager, values.profile_id, [
      { field: 'rear_port_template', table: 'dcim_rearporttemplate', id: values.rear_port_template_id },
    ]),
  graphql: { exposed: false },
});

/** A device as a WDM node; creating it builds its channels and line ports from its profiles. */
export const WdmNodeResource = defineResource({
  appLabel: 'wdm',
  model: 'wdmnode',
  path: 'wdm-nodes',
  apiPrefix: WDM_API_PREFIX,
  verboseName: 'WDM node',
  graphqlName: 'wdm_node',
  table: 'wdm_wdmnode',
  fields: {
    device: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true, unique: true, createOnly: true }),
    node_type: choice(NODE_TYPE_CHOICES, { required: true }),
    grid: choice(GRID_CHOICES, { required: true, createOnly: true }),
    description: text({ maxLength: 200, search: true }),
    expected_port_hash: text({ maxLength: 64, readOnly: true, noFilter: true }),
    port_sync_valid: boolean({ default: true, readOnly: true }),
  },
  display: (row) => `WDM node ${String(row.device_id)}`,
  brief: ['device', 'node_type', 'grid'],
  ordering: ['device'],
  searchRelated: [{ relation: 'device', column: 'name' }],
  extensions: [onCreate((manager, row) => generateNodeComponents(manager, row.id))],
  actions: [
    { name: 'apply-mapping', method: 'POST', permission: 'change', openapi: APPLY_MAPPING_DOCUMENTATION, handle: applyMapping },
    { name: 'sync-ports', method: 'POST', permission: 'change', openapi: SYNC_PORTS_DOCUMENTATION, handle: syncPorts },
  ],
  graphql: {
    intId: true,
    typeName: 'WdmNodeInstanceType',
    filters: ['id', 'node_type', 'grid', 'device_id'],
    lists: {
      line_ports: { objectType: 'wdm.wdmlineport', field: 'wdm_node' },
      channels: { objectType: 'wdm.wdmchannel', field: 'wdm_node' },
    },
  },
});

/** A line (rear) port of a node, with its direction and role. */
export const WdmLinePortResource = defineResource({
  appLabel: 'wdm',
  model: 'wdmlineport',
  path: 'wdm-line-ports',
  apiPrefix: WDM_API_PREFIX,
  verboseName: 'WDM line port',
  graphqlName: 'wdm_line_port',
  table: 'wdm_wdmlineport',
  fields: {
    wdm_node: relation(() => WdmNodeResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    module: relation(() => ModuleResource, { onDelete: 'CASCADE' }),
    rear_port: relation(() => RearPortResource, { onDelete: 'CASCADE', required: true }),
    direction: choice(DIRECTION_CHOICES, { default: 'common' }),
    role: choice(ROLE_CHOICES, { default: 'bidi' }),
  },
  display: (row) => `${String(row.direction)} ${String(row.role)} (rear port ${String(row.rear_port_id)})`,
  brief: ['direction', 'role'],
  ordering: ['wdm_node', 'id'],
  uniqueTogether: [['wdm_node', 'rear_port'], { fields: ['wdm_node', 'module', 'direction', 'role'], nullsEqual: true }],
  relatedObject: 'wdm_node',
  // A line port added, moved or removed changes where the node's channels lead and which mappings it calls for.
  afterCreate: ({ manager }, row) => refreshNode(manager, row.wdm_node_id as number),
  afterUpdate: ({ manager }, _before, row) => refreshNode(manager, row.wdm_node_id as number),
  afterDelete: ({ manager }, row) => refreshNode(manager, row.wdm_node_id as number),
  validateAsync: async (manager, values): Promise<Problems> => {
    const node = await nodeOf(manager, values.wdm_node_id);
    const [port] = (await manager.query('SELECT device_id, module_id FROM dcim_rearport WHERE id = $1', [values.rear_port_id])) as Array<{
      device_id: number;
      module_id: number | null;
    }>;
    if (!node || !port) return {};
    if (port.device_id !== node.device_id) return { rear_port: ["The rear port must be on the node's device."] };
    if (values.module_id != null && port.module_id !== values.module_id) return { rear_port: ['The rear port must be on the module.'] };
    return {};
  },
  // The spec names no filter for line ports: their list takes none.
  graphql: { intId: true, filters: [] },
});

/** A channel of a node: its grid position (label and wavelength computed), mux/demux front ports and status. */
export const WdmChannelResource = defineResource({
  appLabel: 'wdm',
  model: 'wdmchannel',
  path: 'wdm-channels',
  apiPrefix: WDM_API_PREFIX,
  verboseName: 'WDM channel',
  graphqlName: 'wdm_channel',
  table: 'wdm_wdmchannel',
  fields: {
    wdm_node: relation(() => WdmNodeResource, { onDelete: 'CASCADE', required: true, createOnly: true, filterById: true }),
    module: relation(() => ModuleResource, { onDelete: 'CASCADE' }),
    grid_position: integer({ min: 1, max: 1000, required: true }),
    label: text({ maxLength: 20, readOnly: true, search: true }),
    wavelength_nm: decimal({ precision: 8, scale: 2, nullable: true, readOnly: true }),
    mux_front_port: relation(() => FrontPortResource, { onDelete: 'SET NULL' }),
    demux_front_port: relation(() => FrontPortResource, { onDelete: 'SET NULL' }),
    status: choice(CHANNEL_STATUS_CHOICES, { default: 'available' }),
  },
  display: (row) => String(row.label || `position ${String(row.grid_position)}`),
  brief: ['grid_position', 'label', 'wavelength_nm', 'status'],
  ordering: ['wdm_node', 'grid_position'],
  uniqueTogether: [
    { fields: ['wdm_node', 'module', 'grid_position'], nullsEqual: true },
    ['wdm_node', 'mux_front_port'],
    ['wdm_node', 'demux_front_port'],
  ],
  relatedObject: 'wdm_node',
  validateAsync: async (manager, values) => {
    const node = await nodeOf(manager, values.wdm_node_id);
    if (!node) return {};
    const problems: Problems = positionProblem(node.grid, values.grid_position);
    for (const field of ['mux_front_port', 'demux_front_port']) {
      const id = values[`${field}_id`];
      if (id == null) continue;
      const [port] = (await manager.query('SELECT device_id, module_id FROM dcim_frontport WHERE id = $1', [id])) as Array<{
        device_id: number;
        module_id: number | null;
      }>;
      if (port && (port.device_id !== node.device_id || port.module_id !== (values.module_id ?? null))) {
        problems[field] = ["The front port must be on the node's device (and on the channel's module)."];
      }
    }
    return problems;
  },
  // A fixed (non-ROADM) node's channels are wired in the hardware: only their status may change.
  beforeUpdate: async ({ manager }, existing, changes) => {
    const node = await nodeOf(manager, existing.wdm_node_id);
    if (!node) return;
    if (node.node_type === 'roadm') return 'grid_position' in changes ? gridColumns(node.grid, changes.grid_position) : undefined;
    const changed = Object.keys(changes).filter(
      (column) => column !== 'status' && column !== 'last_updated' && !sameValue(changes[column], existing[column]),
    );
    if (changed.length > 0) {
      throw new ResourceValidationError({
        non_field_errors: [`The node is a fixed ${node.node_type} node: only the channel status may change (not ${changed.join(', ')}).`],
      });
    }
  },
  extensions: [gridValuesOnCreate('wdm_wdmchannel', async (manager, row) => (await nodeOf(manager, row.wdm_node_id))?.grid ?? null)],
  // Created through the API (a module's generation included): it may complete a chain at once.
  afterCreate: ({ manager }, row) => rebuildPaths(manager, [row.id]),
  // The through rows go with the channels: the paths they were on are read first, rebuilt after.
  beforeDeleteAll: ({ manager }, rows) =>
    noteChannelPathsBeforeDelete(
      manager,
      rows.map((row) => row.id),
    ),
  afterDelete: ({ manager }) => rebuildAfterChannelsDeleted(manager),
  afterUpdate: async ({ manager }, before, after) => {
    if (before.status !== after.status) await refreshPathActivity(manager, [after.id]);
    // Ports changed here, not through apply-mapping: the device's mappings no longer match until sync-ports.
    if (before.mux_front_port_id !== after.mux_front_port_id || before.demux_front_port_id !== after.demux_front_port_id) {
      await refreshPortSync(manager, after.wdm_node_id as number);
      await rebuildPaths(manager, [after.id]);
    }
  },
  actions: [
    {
      name: 'trace',
      method: 'GET',
      permission: 'view',
      openapi: TRACE_DOCUMENTATION,
      handle: ({ manager, row, scope }) => traceChannel(manager, row.id, scope.baseUrl),
    },
  ],
  graphql: { intId: true, filters: ['id', 'wdm_node_id', 'status', 'grid_position'] },
});

function sameValue(a: unknown, b: unknown): boolean {
  return String(a ?? '') === String(b ?? '');
}

/** A lit wavelength end to end: the channels of consecutive nodes joined by cables (derived, read-only). */
export const WdmWavelengthPathResource = defineResource({
  appLabel: 'wdm',
  model: 'wdmwavelengthpath',
  path: 'wdm-wavelength-paths',
  apiPrefix: WDM_API_PREFIX,
  verboseName: 'WDM wavelength path',
  graphqlName: 'wdm_wavelength_path',
  table: 'wdm_wdmwavelengthpath',
  readOnly: true,
  standard: { tags: false, customFields: false },
  fields: {
    grid_position: integer({ min: 1, max: 1000, required: true }),
    wavelength_nm: decimal({ precision: 8, scale: 2, nullable: true }),
    is_complete: boolean({ default: false }),
    is_active: boolean({ default: false }),
    is_valid: boolean({ default: true }),
  },
  display: (row) => `Wavelength path ${String(row.id)} (${String(row.wavelength_nm ?? row.grid_position)})`,
  brief: ['grid_position', 'wavelength_nm', 'is_complete', 'is_active'],
  ordering: ['id'],
  graphql: { exposed: false },
});

/** A wavelength service over one or more wavelength paths; decommissioning it frees its channels and clears its paths. */
export const WdmCircuitResource = defineResource({
  appLabel: 'wdm',
  model: 'wdmcircuit',
  path: 'wdm-circuits',
  apiPrefix: WDM_API_PREFIX,
  verboseName: 'WDM circuit',
  graphqlName: 'wdm_circuit',
  table: 'wdm_wdmcircuit',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    status: choice(CIRCUIT_STATUS_CHOICES, { default: 'planned' }),
    wavelength_paths: many(() => WdmWavelengthPathResource),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    description: text({ maxLength: 200, search: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'status', 'description'],
  ordering: ['name'],
  afterUpdate: async ({ manager }, before, after) => {
    if (before.status !== 'decommissioned' && after.status === 'decommissioned') await freeCircuitChannels(manager, after.id);
  },
  actions: [
    {
      name: 'stitch',
      method: 'GET',
      permission: 'view',
      openapi: STITCH_DOCUMENTATION,
      handle: ({ manager, row, scope }) => stitchCircuit(manager, row, scope.baseUrl),
    },
  ],
  graphql: { intId: true, filters: ['id', 'name', 'status'] },
});
