import {
  boolean,
  choice,
  color,
  countsOf,
  decimal,
  defineResource,
  integer,
  longText,
  ManufacturerResource,
  relation,
  type ResourceRow,
  text,
} from '../../platform/plugin-api';
import {
  ARMOR_TYPE_CHOICES,
  COLOR_SCHEME_CHOICES,
  CONSTRUCTION_CHOICES,
  DEPLOYMENT_CHOICES,
  ELEMENT_TYPE_CHOICES,
  FIRE_RATING_CHOICES,
  MARK_UNIT_CHOICES,
  MARKER_TYPE_CHOICES,
  SHEATH_MATERIAL_CHOICES,
} from './fms.choices';

/** Blueprints of fiber cables (reference §1.2): the type, its tube, ribbon and element templates, and attenuation per wavelength. */

export const FMS_API_PREFIX = '/api/plugins/fms/';

/** Marker fields shared by tube and ribbon templates and the components built from them. */
export const markerFields = () => ({
  marker_count: integer({ min: 0, max: 64, default: 0 }),
  marker_color: color(),
  marker_type: choice(MARKER_TYPE_CHOICES, { blank: true }),
});

/** Marks on a strand every `strand_marker_interval` fibres (0 = none), as the type or a template declares them. */
const strandMarkerFields = () => ({
  strand_marker_interval: integer({ min: 0, max: 1000, default: 0 }),
  strand_marker_color: color(),
  strand_marker_type: choice(MARKER_TYPE_CHOICES, { blank: true }),
});

export const FiberCableTypeResource = defineResource({
  appLabel: 'fms',
  model: 'fibercabletype',
  path: 'cable-types',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'fiber cable type',
  graphqlName: 'fiber_cable_type',
  graphql: {
    deprecatedNames: ['fms_fiber_cable_type'],
    lists: {
      buffer_tube_templates: { objectType: 'fms.buffertubetemplate', field: 'fiber_cable_type' },
      ribbon_templates: { objectType: 'fms.ribbontemplate', field: 'fiber_cable_type' },
      cable_element_templates: { objectType: 'fms.cableelementtemplate', field: 'fiber_cable_type' },
      attenuation_specs: { objectType: 'fms.fiberattenuationspec', field: 'fiber_cable_type' },
      instances: { objectType: 'fms.fibercable', field: 'fiber_cable_type' },
    },
  },
  table: 'fms_fibercabletype',
  fields: {
    manufacturer: relation(() => ManufacturerResource, { onDelete: 'PROTECT', required: true }),
    model: text({ maxLength: 100, required: true, search: true }),
    part_number: text({ maxLength: 100, search: true }),
    construction: choice(CONSTRUCTION_CHOICES, { required: true }),
    strand_count: integer({ min: 1, max: 10000, required: true }),
    color_scheme: choice(COLOR_SCHEME_CHOICES, { default: 'eia_598' }),
    sheath_material: choice(SHEATH_MATERIAL_CHOICES, { blank: true }),
    jacket_color: color(),
    is_armored: boolean({ default: false }),
    armor_type: choice(ARMOR_TYPE_CHOICES, { blank: true }),
    deployment: choice(DEPLOYMENT_CHOICES, { blank: true }),
    fire_rating: choice(FIRE_RATING_CHOICES, { blank: true }),
    mark_unit: choice(MARK_UNIT_CHOICES, { blank: true }),
    ...strandMarkerFields(),
    outer_diameter: decimal({ precision: 6, scale: 2, min: 0, nullable: true }),
    twist_factor_ratio: decimal({ precision: 6, scale: 4, min: 0, nullable: true }),
    notes: longText({ search: true }),
  },
  // As the platform's device types: the model (unique per manufacturer); the nested manufacturer names the maker.
  display: (row) => String(row.model),
  brief: ['manufacturer', 'model', 'construction', 'strand_count'],
  ordering: ['manufacturer', 'model'],
  uniqueTogether: [['manufacturer', 'model']],
  naturalKey: 'model',
  validate: (values): Record<string, string[]> => {
    if (values.is_armored && !values.armor_type) return { armor_type: ['An armored cable type needs an armor type.'] };
    if (!values.is_armored && values.armor_type) return { armor_type: ['Only an armored cable type has an armor type.'] };
    return {};
  },
  extensions: [
    countsOf({
      buffer_tube_template_count: { table: 'fms_buffertubetemplate', column: 'fiber_cable_type_id' },
      ribbon_template_count: { table: 'fms_ribbontemplate', column: 'fiber_cable_type_id' },
      cable_element_template_count: { table: 'fms_cableelementtemplate', column: 'fiber_cable_type_id' },
      instance_count: { table: 'fms_fibercable', column: 'fiber_cable_type_id' },
    }),
  ],
});

const typeField = () => relation(() => FiberCableTypeResource, { onDelete: 'CASCADE', required: true });
const byName = (row: ResourceRow) => String(row.name);

export const FiberAttenuationSpecResource = defineResource({
  appLabel: 'fms',
  model: 'fiberattenuationspec',
  path: 'attenuation-specs',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'fiber attenuation spec',
  graphqlName: 'fiber_attenuation_spec',
  graphql: { deprecatedNames: ['fms_fiber_attenuation_spec'] },
  table: 'fms_fiberattenuationspec',
  fields: {
    fiber_cable_type: typeField(),
    wavelength_nm: integer({ min: 600, max: 1700, required: true }),
    max_loss_db_per_km: decimal({ precision: 6, scale: 4, min: 0, required: true }),
  },
  display: (row) => `${String(row.wavelength_nm)} nm: ${String(row.max_loss_db_per_km)} dB/km`,
  brief: ['wavelength_nm', 'max_loss_db_per_km'],
  ordering: ['fiber_cable_type', 'wavelength_nm'],
  uniqueTogether: [['fiber_cable_type', 'wavelength_nm']],
  relatedObject: 'fiber_cable_type',
});

export const BufferTubeTemplateResource = defineResource({
  appLabel: 'fms',
  model: 'buffertubetemplate',
  path: 'buffer-tube-templates',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'buffer tube template',
  graphqlName: 'buffer_tube_template',
  graphql: {
    deprecatedNames: ['fms_buffer_tube_template'],
    lists: { ribbon_templates: { objectType: 'fms.ribbontemplate', field: 'buffer_tube_template' } },
  },
  table: 'fms_buffertubetemplate',
  fields: {
    fiber_cable_type: typeField(),
    name: text({ maxLength: 64, required: true, search: true }),
    position: integer({ min: 1, max: 1000, required: true }),
    color: color(),
    ...markerFields(),
    ...strandMarkerFields(),
    fiber_count: integer({ min: 1, max: 1000, nullable: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: byName,
  brief: ['name', 'position', 'fiber_count'],
  ordering: ['fiber_cable_type', 'position'],
  uniqueTogether: [['fiber_cable_type', 'name']],
  relatedObject: 'fiber_cable_type',
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    if (values.fiber_count === null || values.fiber_count === undefined || values.id === undefined) return {};
    const [ribbons] = (await manager.query('SELECT count(*)::int AS n FROM fms_ribbontemplate WHERE buffer_tube_template_id = $1', [
      values.id,
    ])) as Array<{ n: number }>;
    return ribbons.n > 0 ? { fiber_count: ['This tube holds ribbon templates: a tube holds either loose fibers or ribbons.'] } : {};
  },
});

export const RibbonTemplateResource = defineResource({
  appLabel: 'fms',
  model: 'ribbontemplate',
  path: 'ribbon-templates',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'ribbon template',
  graphqlName: 'ribbon_template',
  graphql: { deprecatedNames: ['fms_ribbon_template'] },
  table: 'fms_ribbontemplate',
  fields: {
    fiber_cable_type: typeField(),
    buffer_tube_template: relation(() => BufferTubeTemplateResource, { onDelete: 'CASCADE' }),
    name: text({ maxLength: 64, required: true, search: true }),
    position: integer({ min: 1, max: 1000, required: true }),
    color: color(),
    ...markerFields(),
    ...strandMarkerFields(),
    fiber_count: integer({ min: 1, max: 1000, required: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: byName,
  brief: ['name', 'position', 'fiber_count'],
  ordering: ['fiber_cable_type', 'buffer_tube_template', 'position'],
  // A central ribbon (no tube) is unique by name in its type: NULL tubes compare equal.
  uniqueTogether: [{ fields: ['fiber_cable_type', 'buffer_tube_template', 'name'], nullsEqual: true }],
  relatedObject: 'fiber_cable_type',
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    if (!values.buffer_tube_template_id) return {};
    const [tube] = (await manager.query('SELECT fiber_cable_type_id, fiber_count FROM fms_buffertubetemplate WHERE id = $1', [
      values.buffer_tube_template_id,
    ])) as Array<{
      fiber_cable_type_id: number;
      fiber_count: number | null;
    }>;
    if (tube.fiber_cable_type_id !== values.fiber_cable_type_id)
      return { buffer_tube_template: ['The buffer tube template belongs to another cable type.'] };
    if (tube.fiber_count !== null)
      return {
        buffer_tube_template: ['This tube template holds loose fibers (fiber_count is set): a tube holds either loose fibers or ribbons.'],
      };
    return {};
  },
});

export const CableElementTemplateResource = defineResource({
  appLabel: 'fms',
  model: 'cableelementtemplate',
  path: 'cable-element-templates',
  apiPrefix: FMS_API_PREFIX,
  verboseName: 'cable element template',
  graphqlName: 'cable_element_template',
  graphql: { deprecatedNames: ['fms_cable_element_template'] },
  table: 'fms_cableelementtemplate',
  fields: {
    fiber_cable_type: typeField(),
    name: text({ maxLength: 64, required: true, search: true }),
    element_type: choice(ELEMENT_TYPE_CHOICES, { required: true }),
    description: text({ maxLength: 200, search: true }),
  },
  display: byName,
  brief: ['name', 'element_type'],
  ordering: ['fiber_cable_type', 'name'],
  uniqueTogether: [['fiber_cable_type', 'name']],
  relatedObject: 'fiber_cable_type',
});
