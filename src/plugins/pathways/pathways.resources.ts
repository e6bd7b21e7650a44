import type { EntityManager } from 'typeorm';
import {
  boolean,
  choice,
  computedProperties,
  date,
  decimal,
  defineResource,
  type FieldSpec,
  integer,
  json,
  LocationResource,
  longText,
  relation,
  type ResourceDeclaration,
  type ResourceHookContext,
  type ResourceRow,
  ResourceValidationError,
  TenantResource,
  text,
} from '../../platform/plugin-api';
import {
  assertPathSize,
  distanceMetres,
  type LineStringGeometry,
  lineStringProblems,
  type PointGeometry,
  storePathDerivatives,
} from './geometry';
import {
  AERIAL_TYPE_CHOICES,
  ARMOR_TYPE_CHOICES,
  BANK_CONFIGURATION_CHOICES,
  CONDUIT_MATERIAL_CHOICES,
  ENCASEMENT_TYPE_CHOICES,
  LIFECYCLE_STATUS_CHOICES,
} from './pathways.choices';
import { bboxFilter, boundingBoxField, PATHWAYS_API_PREFIX, StructureResource } from './structures.resources';

/**
 * Pathways: one model per kind (conduit bank, conduit, aerial span, direct-buried, innerduct), each
 * with its own table holding the fields every pathway has (this file's `pathwayFields`) and its own.
 * NetBox's plugin uses multi-table inheritance from one Pathway model; here the kinds are separate
 * tables and "all pathways" (the `pathways/` layer, a cable segment's pathway) spans them.
 */

const isSet = (value: unknown) => value !== null && value !== undefined;
const metres = () => decimal({ precision: 8, scale: 2, nullable: true });
const millimetres = () => decimal({ precision: 8, scale: 2, min: 0, nullable: true });

function pathwayFields(): Record<string, FieldSpec> {
  return {
    label: text({ maxLength: 100, search: true }),
    status: choice(LIFECYCLE_STATUS_CHOICES, { default: 'active' }),
    path: json({ nullable: true, validate: lineStringProblems }),
    bbox: boundingBoxField(),
    // Stored beside the path (written by the hooks, as the box) so a layer of thousands of pathways reads it.
    geo_length: decimal({ precision: 12, scale: 2, nullable: true, readOnly: true }),
    start_structure: relation(() => StructureResource, { onDelete: 'PROTECT' }),
    end_structure: relation(() => StructureResource, { onDelete: 'PROTECT' }),
    start_location: relation(() => LocationResource, { onDelete: 'PROTECT' }),
    end_location: relation(() => LocationResource, { onDelete: 'PROTECT' }),
    tenant: relation(() => TenantResource, { onDelete: 'SET NULL' }),
    installed_by: relation(() => TenantResource, { onDelete: 'PROTECT' }),
    length: decimal({ precision: 10, scale: 2, min: 0, nullable: true }),
    installation_date: date({ nullable: true }),
    commissioned_date: date({ nullable: true }),
    comments: longText({ search: true }),
  };
}

/** The settings the snapping reads (`PLUGIN_PATHWAYS_SNAP_TOLERANCE_CM`). */
export function snapToleranceMetres(settings: Readonly<Record<string, unknown>>): number {
  return Number(settings.snap_tolerance_cm ?? 100) / 100;
}

/**
 * The path with each end replaced by its structure's point, when that end lies within the
 * tolerance of it; an end farther away, or a path longer than `max_path_positions`, is a 400 on `path`.
 */
async function snappedPath(
  manager: EntityManager,
  values: Record<string, unknown>,
  settings: Readonly<Record<string, unknown>>,
): Promise<LineStringGeometry | null> {
  const path = values.path as LineStringGeometry | null;
  if (!path) return null;
  assertPathSize(path, settings);
  const tolerance = snapToleranceMetres(settings);
  const coordinates = path.coordinates.map((position) => [...position]) as LineStringGeometry['coordinates'];
  const ends = [
    { key: 'start_structure_id', index: 0, name: 'start' },
    { key: 'end_structure_id', index: coordinates.length - 1, name: 'end' },
  ];
  for (const end of ends) {
    const id = values[end.key];
    if (id === null || id === undefined) continue;
    const [structure] = (await manager.query('SELECT name, geometry FROM pathways_structure WHERE id = $1', [id])) as Array<{
      name: string;
      geometry: PointGeometry | null;
    }>;
    if (!structure?.geometry) continue;
    const gap = distanceMetres(coordinates[end.index], structure.geometry.coordinates);
    if (gap > tolerance)
      throw new ResourceValidationError({
        path: [
          `The path's ${end.name} is ${gap.toFixed(2)} m from ${end.name} structure ${structure.name}; it must lie within ${tolerance} m of it.`,
        ],
      });
    coordinates[end.index] = structure.geometry.coordinates;
  }
  return { type: 'LineString', coordinates };
}

async function snapCreated(context: ResourceHookContext, row: ResourceRow, table: string): Promise<void> {
  const path = await snappedPath(context.manager, row, context.settings);
  if (path) {
    await context.manager.query(`UPDATE "${table}" SET path = $2 WHERE id = $1`, [row.id, JSON.stringify(path)]);
    row.path = path;
  }
  await storePathDerivatives(context.manager, table, row);
}

const SNAPPED_KEYS = ['path', 'start_structure_id', 'end_structure_id'];

interface PathwayKind {
  model: string;
  path: string;
  verboseName: string;
  /** The value of `pathway_type` (reference §3.1). */
  pathwayType: string;
  fields: Record<string, FieldSpec>;
  /** When a pathway of this kind may go without a path (besides one between two locations). */
  pathOptional?: (values: Record<string, unknown>) => boolean;
  uniqueTogether?: ResourceDeclaration['uniqueTogether'];
  brief?: readonly string[];
}

export const PATHWAY_TYPE_CHOICES = [
  ['conduit_bank', 'Conduit bank'],
  ['conduit', 'Conduit'],
  ['aerial', 'Aerial span'],
  ['direct_buried', 'Direct buried'],
  ['innerduct', 'Innerduct'],
] as const;

function definePathwayKind(kind: PathwayKind) {
  const table = `pathways_${kind.model}`;
  return defineResource({
    appLabel: 'pathways',
    model: kind.model,
    path: kind.path,
    apiPrefix: PATHWAYS_API_PREFIX,
    verboseName: kind.verboseName,
    graphqlName: kind.path.replace(/-/g, '_').replace(/s$/, ''),
    graphql: { deprecatedNames: [`pathways_${kind.path.replace(/-/g, '_').replace(/s$/, '')}`] },
    table,
    fields: { ...pathwayFields(), ...kind.fields },
    display: (row) => (row.label ? String(row.label) : `${kind.verboseName} #${row.id}`),
    brief: kind.brief ?? ['label', 'status'],
    ordering: ['label'],
    uniqueTogether: kind.uniqueTogether,
    indexes: [{ name: `${table}_bbox_gist`, columns: ['bbox'], method: 'gist' }],
    extraFilters: { bbox: bboxFilter },
    extensions: [
      computedProperties(
        { pathway_type: { type: 'string' } },
        async (_manager, rows) => new Map(rows.map((row) => [row.id, { pathway_type: kind.pathwayType }])),
      ),
    ],
    validate: (values): Record<string, string[]> => {
      if (values.path) return {};
      const betweenLocations = isSet(values.start_location_id) && isSet(values.end_location_id);
      if (betweenLocations || kind.pathOptional?.(values)) return {};
      return {
        path: [
          'This field is required: a GeoJSON LineString (only pathways between two locations, conduits in a bank and innerducts go without).',
        ],
      };
    },
    afterCreate: (context, row) => snapCreated(context, row, table),
    beforeUpdate: async (context, existing, changes) => {
      if (!SNAPPED_KEYS.some((key) => Object.hasOwn(changes, key))) return;
      const path = await snappedPath(context.manager, { ...existing, ...changes }, context.settings);
      return path ? { path } : undefined;
    },
    afterUpdate: async ({ manager }, _before, row) => storePathDerivatives(manager, table, row),
  });
}

export const ConduitBankResource = definePathwayKind({
  model: 'conduitbank',
  path: 'conduit-banks',
  verboseName: 'conduit bank',
  pathwayType: 'conduit_bank',
  fields: {
    faces: text({ maxLength: 50 }),
    configuration: choice(BANK_CONFIGURATION_CHOICES, { blank: true }),
    total_conduits: integer({ min: 0, max: 1000, nullable: true }),
    height: millimetres(),
    width: millimetres(),
    encasement_type: choice(ENCASEMENT_TYPE_CHOICES, { blank: true }),
  },
});

export const ConduitResource = definePathwayKind({
  model: 'conduit',
  path: 'conduits',
  verboseName: 'conduit',
  pathwayType: 'conduit',
  fields: {
    faces: text({ maxLength: 50 }),
    material: choice(CONDUIT_MATERIAL_CHOICES, { blank: true }),
    inner_diameter: millimetres(),
    outer_diameter: millimetres(),
    depth: metres(),
    conduit_bank: relation(() => ConduitBankResource, { onDelete: 'PROTECT' }),
    bank_position: text({ maxLength: 20 }),
  },
  pathOptional: (values) => isSet(values.conduit_bank_id),
  uniqueTogether: [['conduit_bank', 'bank_position']],
  brief: ['label', 'status', 'material'],
});

export const AerialSpanResource = definePathwayKind({
  model: 'aerialspan',
  path: 'aerial-spans',
  verboseName: 'aerial span',
  pathwayType: 'aerial',
  fields: {
    aerial_type: choice(AERIAL_TYPE_CHOICES, { blank: true }),
    attachment_height_start: metres(),
    attachment_height_end: metres(),
    sag: metres(),
    messenger_size: text({ maxLength: 50 }),
    wind_loading: text({ maxLength: 50 }),
    ice_loading: text({ maxLength: 50 }),
  },
});

export const DirectBuriedResource = definePathwayKind({
  model: 'directburied',
  path: 'direct-buried',
  verboseName: 'direct-buried pathway',
  pathwayType: 'direct_buried',
  fields: {
    burial_depth: metres(),
    warning_tape: boolean({ default: false }),
    tracer_wire: boolean({ default: false }),
    armor_type: choice(ARMOR_TYPE_CHOICES, { blank: true }),
  },
});

export const InnerductResource = definePathwayKind({
  model: 'innerduct',
  path: 'innerducts',
  verboseName: 'innerduct',
  pathwayType: 'innerduct',
  fields: {
    parent_conduit: relation(() => ConduitResource, { onDelete: 'CASCADE', required: true }),
    size: text({ maxLength: 50 }),
    color: text({ maxLength: 50 }),
    position: integer({ min: 1, max: 1000, nullable: true }),
  },
  pathOptional: () => true,
});

/** Every pathway kind, in the order of the `pathways/` layer and of `info/` counts. */
export const PATHWAY_KINDS = [ConduitBankResource, ConduitResource, AerialSpanResource, DirectBuriedResource, InnerductResource];
