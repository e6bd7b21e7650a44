import {
  CABLE_FILTERS,
  CableResource,
  choice,
  color,
  columnIsSetFilter,
  computedProperties,
  date,
  decimal,
  defineResource,
  FrontPortResource,
  idFilterProblem,
  integer,
  longText,
  relation,
  type ResourceHookContext,
  type ResourceRow,
  TenantResource,
  text,
} from '../../platform/plugin-api';
import { FiberCableTypeResource, FMS_API_PREFIX, markerFields } from './cable-types.resources';
import { ELEMENT_TYPE_CHOICES, FIBRE_CABLE_TYPES } from './fms.choices';
import { generateComponents } from './component-generation';

/** A fiber cable (one per platform cable of a fibre type) and the components built from its type: tubes, ribbons, strands, elements. */

const byName = (row: ResourceRow) => String(row.name);

const marks = () => ({
  start_mark: decimal({ precision: 10, scale: 2, min: 0, nullable: true }),
  end_mark: decimal({ precision: 10, scale: 2, min: 0, nullable: true }),
});

/** Marks entered end-first are stored start-first (reference §1.4): fiber cables and slack loops. */
export async function swapInvertedMarks(
  manager: ResourceHookContext['manager'],
  table: 'fms_fibercable' | 'fms_slackloop',
  id: number,
): Promise<void> {
  await manager.query(
    `UPDATE ${table} SET start_mark = end_mark, end_mark = start_mark WHERE id = $1 AND start_mark IS NOT NULL AND end_mark IS NOT NULL AND start_mark > end_mark`,
    [id],
  );
}

/** Cable marks are read in the type's mark unit, so they need one. */
async function markUnitProblems(
  manager: ResourceHookContext['manager'],
  typeId: unknown,
  values: Record<string, unknown>,
): Promise<Record<string, string[]>> {
  if ((values.start_mark ?? null) === null && (values.end_mark ?? null) === null) return {};
  const [type] = (await manager.query('SELECT mark_unit FROM fms_fibercabletype WHERE id = $1', [typeId])) as Array<{ mark_unit: string }>;
  if (type && !type.mark_unit) {
    const field = (values.start_mark ?? null) !== null ? 'start_mark' : 'end_mark';
    return { [field]: ['Sequential marks need the cable type to declare its mark unit (mark_unit).'] };
  }
  return {};
}

export const FiberCableResource = defineResource({
  appLabel: 'fms',
  model: 'fibercable',
  path: 'fiber-cables',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'fiber cable',
  graphqlName: 'fiber_cable',
  graphql: {
    typeName: 'FiberCableInstanceType',
    deprecatedNames: ['fms_fiber_cable'],
    lists: {
      buffer_tubes: { objectType: 'fms.buffertube', field: 'fiber_cable' },
      ribbons: { objectType: 'fms.ribbon', field: 'fiber_cable' },
      fiber_strands: { objectType: 'fms.fiberstrand', field: 'fiber_cable' },
      cable_elements: { objectType: 'fms.cableelement', field: 'fiber_cable' },
    },
  },
  table: 'fms_fibercable',
  fields: {
    cable: relation(() => CableResource, { onDelete: 'CASCADE', required: true, unique: true }),
    fiber_cable_type: relation(() => FiberCableTypeResource, { onDelete: 'PROTECT', required: true, createOnly: true }),
    serial_number: text({ maxLength: 100, search: true }),
    install_date: date({ nullable: true }),
    installed_by: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    ...marks(),
    notes: longText({ search: true }),
  },
  display: (row) => `Fiber cable ${String(row.cable_id)}`,
  brief: ['cable', 'fiber_cable_type'],
  ordering: ['cable'],
  // On a map plugin's map (pathways: `geo/external/fiber-cables/`), drawn along the pathways its cable is routed through.
  mapLayer: {
    name: 'fiber-cables',
    geometry: { field: 'cable', via: 'cable' },
    featureFields: ['cable', 'fiber_cable_type', 'serial_number', 'install_date'],
    colorField: 'fiber_cable_type',
  },
  extraFilters: {
    // The platform cable's device filter, applied to this fiber cable's cable.
    terminated_device_id: (values, alias, prefix) => {
      const onCable = CABLE_FILTERS.device_id(values, 'terminated_cable', prefix);
      if ('problem' in onCable) return onCable;
      return {
        where: `${alias}.cable_id IN (SELECT terminated_cable.id FROM dcim_cable terminated_cable WHERE ${onCable.where})`,
        params: onCable.params,
      };
    },
  },
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const [cable] = (await manager.query('SELECT type FROM dcim_cable WHERE id = $1', [values.cable_id])) as Array<{ type: string }>;
    if (cable && cable.type !== '' && !FIBRE_CABLE_TYPES.has(cable.type)) {
      return {
        cable: [
          `Cable type "${cable.type}" is not a fibre type; a fiber cable needs a cable of a fibre type (${[...FIBRE_CABLE_TYPES].join(', ')}) or none.`,
        ],
      };
    }
    return markUnitProblems(manager, values.fiber_cable_type_id, values);
  },
  afterCreate: async (context, row) => {
    await swapInvertedMarks(context.manager, 'fms_fibercable', row.id);
    await generateComponents(context.manager, row);
  },
  afterUpdate: (context, _before, after) => swapInvertedMarks(context.manager, 'fms_fibercable', after.id),
  extensions: [
    computedProperties(
      { glass_length: { type: 'number', nullable: true, description: "Cable length times (1 + the type's twist factor)" } },
      async (manager, rows) => {
        const found = (await manager.query(
          `SELECT f.id, c.length * (1 + t.twist_factor_ratio) AS glass_length
           FROM fms_fibercable f JOIN dcim_cable c ON c.id = f.cable_id JOIN fms_fibercabletype t ON t.id = f.fiber_cable_type_id
          WHERE f.id = ANY($1)`,
          [rows.map((row) => row.id)],
        )) as Array<{ id: number; glass_length: string | null }>;
        return new Map(
          found.map(({ id, glass_length }) => [
            id,
            { glass_length: glass_length === null ? null : Number(Number(glass_length).toFixed(2)) },
          ]),
        );
      },
    ),
  ],
});

const cableField = () => relation(() => FiberCableResource, { onDelete: 'CASCADE', required: true });

/** What a tube and a ribbon copy from their template. */
const containerFields = () => ({
  name: text({ maxLength: 64, required: true, search: true }),
  position: integer({ min: 1, max: 1000, required: true }),
  color: color(),
  ...markerFields(),
});

export const BufferTubeResource = defineResource({
  appLabel: 'fms',
  model: 'buffertube',
  path: 'buffer-tubes',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'buffer tube',
  graphqlName: 'buffer_tube',
  graphql: {
    deprecatedNames: ['fms_buffer_tube'],
    lists: {
      ribbons: { objectType: 'fms.ribbon', field: 'buffer_tube' },
      fiber_strands: { objectType: 'fms.fiberstrand', field: 'buffer_tube' },
    },
  },
  table: 'fms_buffertube',
  fields: {
    fiber_cable: cableField(),
    ...containerFields(),
  },
  display: byName,
  brief: ['name', 'position', 'color'],
  ordering: ['fiber_cable', 'position'],
  uniqueTogether: [['fiber_cable', 'name']],
  relatedObject: 'fiber_cable',
  generatedWith: 'fiber_cable',
  extraFilters: {
    // Tubes of the cables that enter a closure (its closure cable entries).
    closure_id: (values, alias, prefix) => {
      const problem = idFilterProblem(values);
      if (problem) return { problem };
      const ids = values.map(Number);
      return {
        where: `${alias}.fiber_cable_id IN (SELECT fiber_cable_id FROM fms_closurecableentry WHERE closure_id IN (:...${prefix}ids))`,
        params: { [`${prefix}ids`]: ids },
      };
    },
  },
});

export const RibbonResource = defineResource({
  appLabel: 'fms',
  model: 'ribbon',
  path: 'ribbons',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'ribbon',
  graphqlName: 'ribbon',
  graphql: {
    deprecatedNames: ['fms_ribbon'],
    lists: { fiber_strands: { objectType: 'fms.fiberstrand', field: 'ribbon' } },
  },
  table: 'fms_ribbon',
  fields: {
    fiber_cable: cableField(),
    buffer_tube: relation(() => BufferTubeResource, { onDelete: 'CASCADE' }),
    ...containerFields(),
  },
  display: byName,
  brief: ['name', 'position', 'color'],
  ordering: ['fiber_cable', 'position'],
  uniqueTogether: [['fiber_cable', 'name']],
  relatedObject: 'fiber_cable',
  generatedWith: 'fiber_cable',
});

export const FiberStrandResource = defineResource({
  appLabel: 'fms',
  model: 'fiberstrand',
  path: 'fiber-strands',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'fiber strand',
  graphqlName: 'fiber_strand',
  graphql: { deprecatedNames: ['fms_fiber_strand'] },
  table: 'fms_fiberstrand',
  fields: {
    fiber_cable: cableField(),
    buffer_tube: relation(() => BufferTubeResource, { onDelete: 'CASCADE' }),
    ribbon: relation(() => RibbonResource, { onDelete: 'CASCADE' }),
    name: text({ maxLength: 64, required: true, search: true }),
    position: integer({ min: 1, max: 10000, required: true }),
    color: color({ required: true }),
    ...markerFields(),
    front_port_a: relation(() => FrontPortResource, { onDelete: 'SET NULL' }),
    front_port_b: relation(() => FrontPortResource, { onDelete: 'SET NULL' }),
  },
  display: byName,
  brief: ['name', 'position', 'color'],
  ordering: ['fiber_cable', 'position'],
  uniqueTogether: [['fiber_cable', 'position']],
  relatedObject: 'fiber_cable',
  generatedWith: 'fiber_cable',
  extraFilters: { has_front_port_a: columnIsSetFilter('front_port_a_id'), has_front_port_b: columnIsSetFilter('front_port_b_id') },
});

export const CableElementResource = defineResource({
  appLabel: 'fms',
  model: 'cableelement',
  path: 'cable-elements',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'cable element',
  graphqlName: 'cable_element',
  graphql: { deprecatedNames: ['fms_cable_element'] },
  table: 'fms_cableelement',
  fields: {
    fiber_cable: cableField(),
    name: text({ maxLength: 64, required: true, search: true }),
    element_type: choice(ELEMENT_TYPE_CHOICES, { required: true }),
  },
  display: byName,
  brief: ['name', 'element_type'],
  ordering: ['fiber_cable', 'name'],
  uniqueTogether: [['fiber_cable', 'name']],
  relatedObject: 'fiber_cable',
  generatedWith: 'fiber_cable',
});
