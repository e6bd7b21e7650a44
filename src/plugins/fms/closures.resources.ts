import {
  choice,
  computedProperties,
  decimal,
  defineResource,
  DeviceResource,
  integer,
  LocationResource,
  longText,
  ModuleResource,
  ModuleTypeResource,
  relation,
  SiteResource,
  text,
} from '../../platform/plugin-api';
import { FMS_API_PREFIX } from './cable-types.resources';
import { BufferTubeResource, FiberCableResource, swapInvertedMarks } from './fiber-cables.resources';
import { STORAGE_METHOD_CHOICES, TRAY_ROLE_CHOICES } from './fms.choices';
import { placeTubePorts, portsOnOtherModules, PORTS_GO_WITH, releaseTubePorts } from './tube-assignment-ports';

/** What a closure (a device) holds: the cables entering it, its tray profiles, tube-to-tray assignments, and slack loops along cables. */

export const ClosureCableEntryResource = defineResource({
  appLabel: 'fms',
  model: 'closurecableentry',
  path: 'closure-cable-entries',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'closure cable entry',
  graphqlName: 'closure_cable_entry',
  graphql: { deprecatedNames: ['fms_closure_cable_entry'] },
  table: 'fms_closurecableentry',
  fields: {
    closure: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true }),
    fiber_cable: relation(() => FiberCableResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    entrance_label: text({ maxLength: 100, search: true }),
    notes: longText({ search: true }),
  },
  display: (row) => `Cable ${String(row.fiber_cable_id)} in closure ${String(row.closure_id)}`,
  brief: ['closure', 'fiber_cable', 'entrance_label'],
  ordering: ['closure', 'fiber_cable'],
  uniqueTogether: [['closure', 'fiber_cable']],
  relatedObject: 'closure',
  // A cable that leaves the closure takes its tube assignments there with it, and its fibres leave the trays.
  afterDelete: async (context, entry) => {
    const assignments = (await context.manager.query(
      `SELECT a.id, a.closure_id, a.tray_id, a.buffer_tube_id FROM fms_tubeassignment a JOIN fms_buffertube t ON t.id = a.buffer_tube_id
        WHERE a.closure_id = $1 AND t.fiber_cable_id = $2`,
      [entry.closure_id, entry.fiber_cable_id],
    )) as Array<{ id: number; closure_id: number; tray_id: number; buffer_tube_id: number }>;
    if (assignments.length === 0) return;
    if (!PORTS_GO_WITH.includes(context.cascadeFrom ?? ''))
      for (const assignment of assignments) await releaseTubePorts(context, assignment);
    await context.manager.query('DELETE FROM fms_tubeassignment WHERE id = ANY($1)', [assignments.map((a) => a.id)]);
  },
});

export const TrayProfileResource = defineResource({
  appLabel: 'fms',
  model: 'trayprofile',
  path: 'tray-profiles',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'tray profile',
  graphqlName: 'tray_profile',
  graphql: { deprecatedNames: ['fms_tray_profile'] },
  table: 'fms_trayprofile',
  fields: {
    module_type: relation(() => ModuleTypeResource, { onDelete: 'CASCADE', required: true, unique: true, filterById: true }),
    tray_role: choice(TRAY_ROLE_CHOICES, { default: 'splice_tray' }),
    max_fibers: integer({ min: 1, max: 10000, default: 24 }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => `Tray profile ${String(row.module_type_id)}`,
  brief: ['module_type', 'tray_role', 'max_fibers'],
  ordering: ['module_type'],
});

export const TubeAssignmentResource = defineResource({
  appLabel: 'fms',
  model: 'tubeassignment',
  path: 'tube-assignments',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'tube assignment',
  graphqlName: 'tube_assignment',
  graphql: { deprecatedNames: ['fms_tube_assignment'] },
  table: 'fms_tubeassignment',
  fields: {
    closure: relation(() => DeviceResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    tray: relation(() => ModuleResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    buffer_tube: relation(() => BufferTubeResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    position: integer({ min: 1, max: 1000, nullable: true }),
    notes: longText({ search: true }),
  },
  display: (row) => `Tube ${String(row.buffer_tube_id)} on tray ${String(row.tray_id)}`,
  brief: ['closure', 'tray', 'buffer_tube'],
  ordering: ['closure', 'tray', 'position'],
  uniqueTogether: [['closure', 'buffer_tube']],
  relatedObject: 'closure',
  validateAsync: async (manager, values, body): Promise<Record<string, string[]>> => {
    const [tray] = (await manager.query(
      'SELECT m.device_id, p.tray_role FROM dcim_module m LEFT JOIN fms_trayprofile p ON p.module_type_id = m.module_type_id WHERE m.id = $1',
      [values.tray_id],
    )) as Array<{ device_id: number; tray_role: string | null }>;
    if (tray.device_id !== values.closure_id) return { tray: ['The tray must be a module of the closure.'] };
    if (tray.tray_role !== 'splice_tray') return { tray: ["The tray's module type needs a tray profile with role splice_tray."] };
    const [entry] = (await manager.query(
      'SELECT 1 FROM fms_closurecableentry e JOIN fms_buffertube t ON t.fiber_cable_id = e.fiber_cable_id WHERE t.id = $1 AND e.closure_id = $2',
      [values.buffer_tube_id, values.closure_id],
    )) as unknown[];
    if (!entry) return { buffer_tube: ["The tube's cable does not enter this closure: add a closure cable entry first."] };
    const confirm = body.confirm_reassign ?? false;
    if (typeof confirm !== 'boolean') return { confirm_reassign: ['Must be a valid boolean.'] };
    if (confirm) return {};
    const taken = await portsOnOtherModules(manager, values as Parameters<typeof portsOnOtherModules>[1]);
    return taken.length === 0
      ? {}
      : {
          confirm_reassign: [
            `The following front ports already belong to another module: ${taken
              .map((port) => port.name)
              .sort()
              .join(', ')}. Set confirm_reassign to move them.`,
          ],
        };
  },
  requestOnly: {
    confirm_reassign: {
      type: 'boolean',
      default: false,
      description: "Move the tube's front ports onto the tray even when they sit on another module (else 400 naming them)",
    },
  },
  // The tube's closure-side front ports follow the assignment onto its tray, and back to the device.
  afterCreate: (context, assignment) => placeTubePorts(context, assignment),
  beforeUpdate: async (context, stored, changes) => {
    const moved = ['closure_id', 'tray_id', 'buffer_tube_id'].some((column) => column in changes && changes[column] !== stored[column]);
    if (moved) await releaseTubePorts(context, stored);
  },
  afterUpdate: (context, _before, after) => placeTubePorts(context, after),
  afterDelete: async (context, assignment) => {
    if (!PORTS_GO_WITH.includes(context.cascadeFrom ?? '')) await releaseTubePorts(context, assignment);
  },
});

const slackMarks = () => ({
  start_mark: decimal({ precision: 10, scale: 2, min: 0, required: true }),
  end_mark: decimal({ precision: 10, scale: 2, min: 0, required: true }),
});

export const SlackLoopResource = defineResource({
  appLabel: 'fms',
  model: 'slackloop',
  path: 'slack-loops',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'slack loop',
  graphqlName: 'slack_loop',
  graphql: { deprecatedNames: ['fms_slack_loop'] },
  table: 'fms_slackloop',
  fields: {
    fiber_cable: relation(() => FiberCableResource, { onDelete: 'CASCADE', required: true }),
    site: relation(() => SiteResource, { onDelete: 'PROTECT', required: true }),
    location: relation(() => LocationResource, { onDelete: 'SET NULL' }),
    ...slackMarks(),
    storage_method: choice(STORAGE_METHOD_CHOICES, { blank: true }),
    notes: longText({ search: true }),
  },
  display: (row) => `Slack ${String(row.start_mark)}–${String(row.end_mark)} on cable ${String(row.fiber_cable_id)}`,
  brief: ['fiber_cable', 'site', 'start_mark', 'end_mark'],
  ordering: ['fiber_cable', 'start_mark'],
  uniqueTogether: [['fiber_cable', 'start_mark', 'end_mark']],
  relatedObject: 'fiber_cable',
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const [type] = (await manager.query(
      'SELECT t.mark_unit FROM fms_fibercable f JOIN fms_fibercabletype t ON t.id = f.fiber_cable_type_id WHERE f.id = $1',
      [values.fiber_cable_id],
    )) as Array<{ mark_unit: string }>;
    return type && !type.mark_unit
      ? { start_mark: ["Slack loops are measured in the cable type's mark unit: set mark_unit on the type."] }
      : {};
  },
  afterCreate: (context, row) => swapInvertedMarks(context.manager, 'fms_slackloop', row.id),
  afterUpdate: (context, _before, after) => swapInvertedMarks(context.manager, 'fms_slackloop', after.id),
  extensions: [
    computedProperties({ loop_length: { type: 'number' }, mark_unit: { type: 'string', nullable: true } }, async (manager, rows) => {
      const found = (await manager.query(
        `SELECT s.id, abs(s.end_mark - s.start_mark) AS loop_length, t.mark_unit
           FROM fms_slackloop s JOIN fms_fibercable f ON f.id = s.fiber_cable_id JOIN fms_fibercabletype t ON t.id = f.fiber_cable_type_id
          WHERE s.id = ANY($1)`,
        [rows.map((row) => row.id)],
      )) as Array<{ id: number; loop_length: string; mark_unit: string }>;
      return new Map(
        found.map(({ id, loop_length, mark_unit }) => [id, { loop_length: Number(loop_length), mark_unit: mark_unit || null }]),
      );
    }),
  ],
});
