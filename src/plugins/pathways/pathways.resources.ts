import type { EntityManager } from 'typeorm';
import {
  boolean,
  choice,
  color,
  computedProperties,
  countsOf,
  date,
  decimal,
  defineResource,
  type ExtraFilter,
  type FieldSpec,
  integer,
  LocationResource,
  longText,
  relation,
  type ResourceDeclaration,
  type ResourceDefinition,
  type ResourceExtension,
  type ResourceHookContext,
  type ResourceRow,
  ResourceValidationError,
  TenantResource,
  text,
} from '../../platform/plugin-api';
import {
  anchorNear,
  assertPathSize,
  distanceToStructure,
  type LineStringGeometry,
  pathField,
  type PointGeometry,
  type PolygonGeometry,
  storePathDerivatives,
} from './geometry';
import {
  AERIAL_TYPE_CHOICES,
  BANK_CONFIGURATION_CHOICES,
  BANK_FACE_CHOICES,
  CONDUIT_MATERIAL_CHOICES,
  ENCASEMENT_TYPE_CHOICES,
  LIFECYCLE_STATUS_CHOICES,
  PATHWAY_TYPE_CHOICES,
} from './pathways.choices';
import { occupiedPathwayFilter, tenantGroupFilter } from './pathways.filters';
import { bboxFilter, boundingBoxField, PATHWAYS_API_PREFIX, StructureResource } from './structures.resources';

/**
 * Pathways: one `Pathway` base (`pathways/`, table `pathways_pathway`) whose ids are the one id space of
 * every pathway, as NetBox's plugin's multi-table inheritance. The kinds with fields of their own
 * (conduit bank, conduit, aerial span, direct buried, innerduct) are models of their own whose rows
 * share their base row's id: a database trigger gives each new kind row a new base row and its id
 * (`migrations/…-PathwaysPathwayBase.ts`), and the hooks here keep the base's columns equal to the
 * kind's after every write through either. Kinds without fields of their own (microduct, tray,
 * raceway, submarine) are base rows only. The base rows are what cable segments, waypoints and
 * planned routes point at.
 */

const isSet = (value: unknown) => value !== null && value !== undefined;
const metres = () => decimal({ precision: 8, scale: 2, nullable: true });
const millimetres = () => decimal({ precision: 8, scale: 2, min: 0, nullable: true });
const face = () => choice(BANK_FACE_CHOICES, { blank: true });

function pathwayFields(): Record<string, FieldSpec> {
  return {
    label: text({ maxLength: 100, search: true }),
    status: choice(LIFECYCLE_STATUS_CHOICES, { default: 'active' }),
    path: pathField(),
    bbox: boundingBoxField(),
    // Stored beside the path (written by the hooks, as the box) so a layer of thousands of pathways reads it.
    geo_length: decimal({ precision: 12, scale: 2, nullable: true, readOnly: true }),
    start_structure: relation(() => StructureResource, { onDelete: 'PROTECT', filterById: true }),
    end_structure: relation(() => StructureResource, { onDelete: 'PROTECT', filterById: true }),
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

/** The columns every pathway has, kept equal between a kind's row and its base row. */
const SHARED_COLUMNS = [
  'label',
  'status',
  'path',
  'bbox',
  'geo_length',
  'start_structure_id',
  'end_structure_id',
  'start_location_id',
  'end_location_id',
  'tenant_id',
  'installed_by_id',
  'length',
  'installation_date',
  'commissioned_date',
  'comments',
  'last_updated',
];
const sharedList = SHARED_COLUMNS.map((column) => `"${column}"`).join(', ');

/** Copies the shared columns of row `id` from one pathway table to another. */
async function copyShared(manager: EntityManager, from: string, to: string, id: number): Promise<void> {
  await manager.query(`UPDATE "${to}" SET (${sharedList}) = (SELECT ${sharedList} FROM "${from}" WHERE id = $1) WHERE id = $1`, [id]);
}

/** The settings the snapping reads (`PLUGIN_PATHWAYS_SNAP_TOLERANCE_CM`). */
export function snapToleranceMetres(settings: Readonly<Record<string, unknown>>): number {
  return Number(settings.snap_tolerance_cm ?? 100) / 100;
}

/**
 * The path with each end moved onto its structure (the point, or the nearest point of a footprint's
 * outline) when that end lies within the tolerance of it or inside the footprint; an end farther away, or a path longer than
 * `max_path_positions`, is a 400 on `path`.
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
      geometry: PointGeometry | PolygonGeometry | null;
    }>;
    if (!structure?.geometry) continue;
    const gap = distanceToStructure(structure.geometry, coordinates[end.index]);
    if (gap > tolerance)
      throw new ResourceValidationError({
        path: [
          `The path's ${end.name} is ${gap.toFixed(2)} m from ${end.name} structure ${structure.name}; it must lie within ${tolerance} m of it.`,
        ],
      });
    coordinates[end.index] = anchorNear(structure.geometry, coordinates[end.index]);
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

/** The base's table, and each kind's table by its `pathway_type`. */
const PATHWAY_TABLE = 'pathways_pathway';
const KIND_TABLES: Readonly<Record<string, string>> = {
  conduit_bank: 'pathways_conduitbank',
  conduit: 'pathways_conduit',
  aerial: 'pathways_aerialspan',
  direct_buried: 'pathways_directburied',
  innerduct: 'pathways_innerduct',
};

/** Deletes the tags of one object (its table's row is gone by other means than the framework's delete). */
async function deleteTagsOf(manager: EntityManager, model: string, id: number): Promise<void> {
  await manager.query(
    `DELETE FROM extras_taggeditem WHERE object_id = $1 AND object_type_id = (SELECT id FROM core_objecttype WHERE app_label = 'pathways' AND model = $2)`,
    [id, model],
  );
}

/** `cables_routed`: how many cable segments run through the pathway itself (same id for a kind and its base). */
const CABLES_ROUTED = countsOf({ cables_routed: { table: 'pathways_cablesegment', column: 'pathway_id' } });

/** Filters every pathway list has besides the field lookups. */
const PATHWAY_FILTERS: Record<string, ExtraFilter> = {
  bbox: bboxFilter,
  occupied: occupiedPathwayFilter,
  tenant_group: tenantGroupFilter('slug'),
  tenant_group_id: tenantGroupFilter('id'),
};

interface PathwayKind {
  model: string;
  path: string;
  verboseName: string;
  /** The value of `pathway_type`. */
  pathwayType: string;
  fields: Record<string, FieldSpec>;
  /** When a pathway of this kind may go without a path (besides one between two locations). */
  pathOptional?: (values: Record<string, unknown>) => boolean;
  uniqueTogether?: ResourceDeclaration['uniqueTogether'];
  brief?: readonly string[];
  extensions?: readonly ResourceExtension[];
  /** GraphQL lists of the rows pointing at a pathway of this kind. */
  lists?: NonNullable<ResourceDeclaration['graphql']>['lists'];
  /** The container whose ends a pathway of this kind takes for an end left blank: relation column and table. */
  container?: { column: string; table: string; endKinds: readonly string[] };
  validate?: (values: Record<string, unknown>) => Record<string, string[]>;
}

/**
 * As NetBox's plugin: a conduit in a bank, or an innerduct, takes its container's structure and
 * location for an end where it names none (nor a junction, for a conduit).
 */
async function inheritEnds(
  manager: EntityManager,
  table: string,
  container: NonNullable<PathwayKind['container']>,
  row: ResourceRow,
): Promise<void> {
  if (row[container.column] === null || row[container.column] === undefined) return;
  for (const side of ['start', 'end']) {
    const blank = container.endKinds.map((end) => `k.${side}_${end}_id IS NULL`).join(' AND ');
    await manager.query(
      `UPDATE "${table}" k SET ${side}_structure_id = c.${side}_structure_id, ${side}_location_id = c.${side}_location_id
         FROM "${container.table}" c WHERE k.id = $1 AND c.id = k."${container.column}" AND ${blank}`,
      [row.id],
    );
  }
  const [ends] = (await manager.query(
    `SELECT start_structure_id, end_structure_id, start_location_id, end_location_id FROM "${table}" WHERE id = $1`,
    [row.id],
  )) as Array<Record<string, number | null>>;
  Object.assign(row, ends);
}

const PATH_REQUIRED = [
  'This field is required: a GeoJSON LineString or WKT (only pathways between two locations, conduits in a bank and innerducts go without).',
];

function definePathwayKind(kind: PathwayKind) {
  const table = `pathways_${kind.model}`;
  return defineResource({
    appLabel: 'pathways',
    model: kind.model,
    path: kind.path,
    apiPrefix: PATHWAYS_API_PREFIX,
    verboseName: kind.verboseName,
    graphqlName: kind.path.replace(/-/g, '_').replace(/s$/, ''),
    graphql: { deprecatedNames: [`pathways_${kind.path.replace(/-/g, '_').replace(/s$/, '')}`], lists: kind.lists },
    table,
    fields: { ...pathwayFields(), ...kind.fields },
    display: (row) => (row.label ? String(row.label) : `#${row.id}`),
    brief: kind.brief ?? ['label'],
    ordering: ['label'],
    uniqueTogether: kind.uniqueTogether,
    indexes: [{ name: `${table}_bbox_gist`, columns: ['bbox'], method: 'gist' }],
    extraFilters: PATHWAY_FILTERS,
    extensions: [
      computedProperties(
        { pathway_type: { type: 'string' } },
        async (_manager, rows) => new Map(rows.map((row) => [row.id, { pathway_type: kind.pathwayType }])),
      ),
      CABLES_ROUTED,
      ...(kind.extensions ?? []),
    ],
    validate: (values): Record<string, string[]> => {
      const own = kind.validate?.(values) ?? {};
      if (values.path) return own;
      const betweenLocations = isSet(values.start_location_id) && isSet(values.end_location_id);
      if (betweenLocations || kind.pathOptional?.(values)) return own;
      return { path: PATH_REQUIRED, ...own };
    },
    afterCreate: async (context, row) => {
      if (kind.container) await inheritEnds(context.manager, table, kind.container, row);
      await snapCreated(context, row, table);
      await copyShared(context.manager, table, PATHWAY_TABLE, row.id);
    },
    beforeUpdate: async (context, existing, changes) => {
      if (!SNAPPED_KEYS.some((key) => Object.hasOwn(changes, key))) return;
      const path = await snappedPath(context.manager, { ...existing, ...changes }, context.settings);
      return path ? { path } : undefined;
    },
    afterUpdate: async ({ manager }, _before, row) => {
      if (kind.container) await inheritEnds(manager, table, kind.container, row);
      await storePathDerivatives(manager, table, row);
      await copyShared(manager, table, PATHWAY_TABLE, row.id);
    },
    // The base row goes with its kind's row; what points at the base follows the database's ON DELETE.
    afterDelete: async ({ manager }, row) => {
      await manager.query(`DELETE FROM ${PATHWAY_TABLE} WHERE id = $1`, [row.id]);
      await deleteTagsOf(manager, 'pathway', row.id);
    },
  });
}

/** Every pathway, of every kind: the one id space that cable segments, waypoints and planned routes use. */
export const PathwayResource = defineResource({
  appLabel: 'pathways',
  model: 'pathway',
  path: 'pathways',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'pathway',
  graphqlName: 'pathway',
  graphql: {
    lists: {
      waypoints: { objectType: 'pathways.pathwaylocation', field: 'pathway' },
      cable_segments: { objectType: 'pathways.cablesegment', field: 'pathway' },
    },
  },
  table: PATHWAY_TABLE,
  fields: {
    ...pathwayFields(),
    // Set once: a kind's own rows are written through its own endpoint, which sets it.
    pathway_type: choice(PATHWAY_TYPE_CHOICES, { blank: true, createOnly: true }),
  },
  display: (row) => (row.label ? String(row.label) : `#${row.id}`),
  brief: ['label', 'pathway_type'],
  ordering: ['id'],
  indexes: [{ name: 'pathways_pathway_bbox_gist', columns: ['bbox'], method: 'gist' }],
  extraFilters: {
    ...PATHWAY_FILTERS,
    connected_to: connectedToFilter(),
    structure_id: structureEitherEndFilter(),
  },
  extensions: [CABLES_ROUTED],
  validate: (values): Record<string, string[]> => {
    if (values.path) return {};
    const betweenLocations = isSet(values.start_location_id) && isSet(values.end_location_id);
    // Conduits in a bank and innerducts follow their container's path.
    if (betweenLocations || values.pathway_type === 'conduit' || values.pathway_type === 'innerduct') return {};
    return { path: PATH_REQUIRED };
  },
  afterCreate: (context, row) => snapCreated(context, row, PATHWAY_TABLE),
  beforeUpdate: async (context, existing, changes) => {
    if (!SNAPPED_KEYS.some((key) => Object.hasOwn(changes, key))) return;
    const path = await snappedPath(context.manager, { ...existing, ...changes }, context.settings);
    return path ? { path } : undefined;
  },
  afterUpdate: async ({ manager }, _before, row) => {
    await storePathDerivatives(manager, PATHWAY_TABLE, row);
    const kindTable = KIND_TABLES[row.pathway_type as string];
    if (kindTable) await copyShared(manager, PATHWAY_TABLE, kindTable, row.id);
  },
  // A kind's row goes with its base row; what points at the kind's row follows the database's ON DELETE.
  beforeDelete: async ({ manager }, row) => {
    const kindTable = KIND_TABLES[row.pathway_type as string];
    if (!kindTable) return;
    await manager.query(`DELETE FROM "${kindTable}" WHERE id = $1`, [row.id]);
    await deleteTagsOf(manager, kindTable.replace('pathways_', ''), row.id);
  },
});

/** `connected_to=structure:5` (also `location:<id>`, `junction:<id>`): pathways touching any of those nodes. */
function connectedToFilter(): ExtraFilter {
  return (values, alias, prefix) => {
    const terms: string[] = [];
    const params: Record<string, number> = {};
    for (const [index, value] of values.entries()) {
      if (value === '' || value === 'null') continue;
      const match = /^(structure|location|junction):([1-9]\d{0,9})$/.exec(value);
      if (!match || Number(match[2]) > 2147483647)
        return { problem: "Enter a node reference as '<kind>:<pk>', where kind is one of structure, location, junction." };
      const name = `${prefix}_${index}`;
      params[name] = Number(match[2]);
      if (match[1] === 'junction')
        terms.push(
          `EXISTS (SELECT 1 FROM pathways_conduit c WHERE c.id = ${alias}.id AND (c.start_junction_id = :${name} OR c.end_junction_id = :${name}))`,
        );
      else terms.push(`${alias}.start_${match[1]}_id = :${name} OR ${alias}.end_${match[1]}_id = :${name}`);
    }
    return { where: terms.length > 0 ? `(${terms.join(' OR ')})` : 'TRUE', params };
  };
}

/** `structure_id=<id>`: pathways starting or ending at a structure, as the map shows them (no innerducts, no conduits in a bank). */
function structureEitherEndFilter(): ExtraFilter {
  return (values, alias, prefix) => {
    if (values.some((value) => !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2147483647)) return { problem: 'Enter a whole number.' };
    return {
      where: `((${alias}.start_structure_id IN (:...${prefix}) OR ${alias}.end_structure_id IN (:...${prefix}))
        AND ${alias}.pathway_type <> 'innerduct'
        AND NOT EXISTS (SELECT 1 FROM pathways_conduit c WHERE c.id = ${alias}.id AND c.conduit_bank_id IS NOT NULL))`,
      params: { [prefix]: values.map(Number) },
    };
  };
}

export const ConduitBankResource = definePathwayKind({
  model: 'conduitbank',
  path: 'conduit-banks',
  verboseName: 'conduit bank',
  pathwayType: 'conduit_bank',
  lists: { conduits: { objectType: 'pathways.conduit', field: 'conduit_bank' } },
  fields: {
    start_face: face(),
    end_face: face(),
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
  lists: {
    innerducts: { objectType: 'pathways.innerduct', field: 'parent_conduit' },
    junctions_on_trunk: { objectType: 'pathways.conduitjunction', field: 'trunk_conduit' },
    junction_as_branch: { objectType: 'pathways.conduitjunction', field: 'branch_conduit' },
  },
  fields: {
    start_face: face(),
    end_face: face(),
    material: choice(CONDUIT_MATERIAL_CHOICES, { blank: true }),
    inner_diameter: millimetres(),
    outer_diameter: millimetres(),
    depth: metres(),
    conduit_bank: relation(() => ConduitBankResource, { onDelete: 'SET NULL', filterById: true }),
    bank_position: text({ maxLength: 20 }),
    start_junction: relation(() => ConduitJunctionResource, { onDelete: 'SET NULL', filterById: true }),
    end_junction: relation(() => ConduitJunctionResource, { onDelete: 'SET NULL', filterById: true }),
  },
  pathOptional: (values) => isSet(values.conduit_bank_id),
  container: { column: 'conduit_bank_id', table: 'pathways_conduitbank', endKinds: ['structure', 'location', 'junction'] },
  uniqueTogether: [['conduit_bank', 'bank_position']],
  brief: ['label', 'material'],
  validate: (values) => {
    for (const side of ['start', 'end']) {
      const set = ['structure', 'location', 'junction'].filter((end) => isSet(values[`${side}_${end}_id`]));
      if (set.length > 1) return { [`${side}_junction`]: [`The ${side} is exactly one of a structure, a location or a junction.`] };
    }
    return {};
  },
});

/** An aerial span's `attachment_height`: the mean of its two ends' heights, or the one given. */
const ATTACHMENT_HEIGHT = computedProperties({ attachment_height: { type: 'number', nullable: true } }, async (_manager, rows) => {
  const heights = (row: ResourceRow) =>
    [row.start_attachment_height, row.end_attachment_height].filter(isSet).map((value) => Number(value as string | number));
  return new Map(
    rows.map((row) => {
      const given = heights(row);
      return [row.id, { attachment_height: given.length === 0 ? null : given.reduce((a, b) => a + b, 0) / given.length }];
    }),
  );
});

export const AerialSpanResource = definePathwayKind({
  model: 'aerialspan',
  path: 'aerial-spans',
  verboseName: 'aerial span',
  pathwayType: 'aerial',
  fields: {
    aerial_type: choice(AERIAL_TYPE_CHOICES, { blank: true }),
    start_attachment_height: metres(),
    end_attachment_height: metres(),
    sag: metres(),
    messenger_size: text({ maxLength: 50 }),
    wind_loading: text({ maxLength: 50 }),
    ice_loading: text({ maxLength: 50 }),
  },
  brief: ['label', 'aerial_type'],
  extensions: [ATTACHMENT_HEIGHT],
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
    armor_type: text({ maxLength: 100 }),
  },
});

export const InnerductResource = definePathwayKind({
  model: 'innerduct',
  path: 'innerducts',
  verboseName: 'innerduct',
  pathwayType: 'innerduct',
  fields: {
    parent_conduit: relation(() => ConduitResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    size: text({ maxLength: 50, required: true }),
    color: color(),
    position: text({ maxLength: 50 }),
  },
  brief: ['label', 'size'],
  pathOptional: () => true,
  container: { column: 'parent_conduit_id', table: 'pathways_conduit', endKinds: ['structure', 'location'] },
});

/** Where a branch conduit leaves a trunk conduit: a point along the trunk, facing one of its end structures. */
export const ConduitJunctionResource: ResourceDefinition = defineResource({
  appLabel: 'pathways',
  model: 'conduitjunction',
  path: 'junctions',
  apiPrefix: PATHWAYS_API_PREFIX,
  verboseName: 'conduit junction',
  graphqlName: 'conduit_junction',
  table: 'pathways_conduitjunction',
  fields: {
    label: text({ maxLength: 100, search: true }),
    trunk_conduit: relation(() => ConduitResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    branch_conduit: relation(() => ConduitResource, { onDelete: 'CASCADE', required: true, filterById: true }),
    towards_structure: relation(() => StructureResource, { onDelete: 'PROTECT', required: true, filterById: true }),
    position_on_trunk: decimal({ precision: 7, scale: 6, min: 0, max: 1, required: true }),
    comments: longText({ search: true }),
  },
  display: (row) => (row.label ? String(row.label) : `#${row.id}`),
  brief: ['label'],
  ordering: ['id'],
  uniqueTogether: [['trunk_conduit', 'position_on_trunk']],
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const [trunk] = (await manager.query('SELECT start_structure_id, end_structure_id FROM pathways_conduit WHERE id = $1', [
      values.trunk_conduit_id,
    ])) as Array<{ start_structure_id: number | null; end_structure_id: number | null }>;
    if (!trunk) return {};
    const ends = [trunk.start_structure_id, trunk.end_structure_id].filter(isSet);
    if (ends.length === 0)
      return { towards_structure: ['The trunk conduit has no structure at either end (it uses locations or junctions only).'] };
    return ends.includes(values.towards_structure_id as number)
      ? {}
      : { towards_structure: ["Must be one of the trunk conduit's end structures."] };
  },
});

/** Every pathway model with fields of its own, in the order of `info/` counts. */
export const PATHWAY_KINDS = [ConduitBankResource, ConduitResource, AerialSpanResource, DirectBuriedResource, InnerductResource];
