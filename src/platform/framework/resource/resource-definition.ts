import type {
  FieldSpec,
  ManyField,
  MapLayer,
  RelationField,
  ResourceDeclaration,
  ResourceDefinition,
  StandardAttributes,
  UniqueGroup,
} from './resource-declaration';

export type {
  ActionDocumentation,
  CollectionActionContext,
  ExtraFilter,
  MapLayer,
  MapLayerGeometrySource,
  ObjectSerializer,
  RequestScope,
  ResourceAction,
  ResourceActionContext,
  ResourceCollectionAction,
  ResourceDeclaration,
  ResourceDefinition,
  ResourceExtension,
  ResourceHookContext,
  ResourceHooks,
  ResourceRow,
  StandardAttributes,
  UniqueGroup,
} from './resource-declaration';

const DEFAULT_STANDARD: StandardAttributes = {
  tags: true,
  customFields: true,
  created: 'created',
  lastUpdated: 'last_updated',
  changeLogged: true,
};

const ACTION_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Every declared model by object type, so relations may name their target by its object type. */
const declaredResources = new Map<string, ResourceDefinition>();

/** The declared model of an object type (`'dcim.device'`); a name no declaration has is a programming error. */
export function resourceOf(objectType: string): ResourceDefinition {
  const definition = declaredResources.get(objectType);
  if (!definition) throw new Error(`no model declares object type ${objectType}`);
  return definition;
}

/** The model whose declaration holds the map layer of that name, if any. */
export function mapLayerSource(name: string): ResourceDefinition | undefined {
  for (const definition of declaredResources.values()) if (definition.mapLayer?.name === name) return definition;
  return undefined;
}

const MAP_LAYER_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** What is wrong with a model's map layer, or null. */
function mapLayerProblem(layer: MapLayer, objectType: string, fields: Readonly<Record<string, FieldSpec>>): string | null {
  if (!MAP_LAYER_NAME.test(layer.name)) return 'the name must be lowercase words joined by hyphens';
  if (mapLayerSource(layer.name)) return 'another model declares a layer of that name';
  const sources = [layer.geometry].flat();
  if (sources.length === 0) return 'needs a geometry source';
  for (const source of sources) {
    if (fields[source.field]?.kind !== 'relation') return `geometry field ${source.field} is not a relation of ${objectType}`;
  }
  for (const name of layer.featureFields ?? []) {
    if (!(name in fields)) return `feature field ${name} is not a field of ${objectType}`;
  }
  if (layer.colorField && layer.featureFields && !layer.featureFields.includes(layer.colorField))
    return `color field ${layer.colorField} is not one of the feature fields`;
  if (layer.colorField && !(layer.colorField in fields)) return `color field ${layer.colorField} is not a field`;
  return null;
}

/** Declares a platform model; everything else (entity, routes, serializer, filters, GraphQL) derives from this. */
export function defineResource(declaration: ResourceDeclaration): ResourceDefinition {
  for (const [name, field] of Object.entries(declaration.fields)) {
    // An optional NOT NULL number with no default would fail its insert with a database error.
    if (
      (field.kind === 'integer' || field.kind === 'decimal') &&
      !field.required &&
      !field.nullable &&
      field.default === undefined &&
      !field.readOnly
    ) {
      throw new Error(`${declaration.appLabel}.${declaration.model}.${name}: an optional number needs a default or nullable`);
    }
  }
  if (declaration.generatedWith !== undefined) {
    const field = declaration.fields[declaration.generatedWith];
    if (field?.kind !== 'relation' || field.onDelete !== 'CASCADE')
      throw new Error(`${declaration.appLabel}.${declaration.model}: generatedWith must name a CASCADE relation`);
  }
  const actions = new Set<string>();
  for (const [kind, list] of [
    ['object', declaration.actions],
    ['collection', declaration.collectionActions],
  ] as const) {
    for (const action of list ?? []) {
      if (!ACTION_NAME.test(action.name))
        throw new Error(
          `${declaration.appLabel}.${declaration.model}: action name ${action.name} must be lowercase words joined by hyphens`,
        );
      // Operation ids end in the method's verb, not the kind: one POST name per model.
      const key = action.method === 'POST' ? `POST ${action.name}` : `${kind} GET ${action.name}`;
      if (actions.has(key)) throw new Error(`${declaration.appLabel}.${declaration.model}: two actions ${key}`);
      actions.add(key);
    }
  }
  const apiPrefix = declaration.apiPrefix ?? `/api/${declaration.appLabel}/`;
  const objectType = `${declaration.appLabel}.${declaration.model}`;
  if (declaredResources.has(objectType)) throw new Error(`object type ${objectType} is declared twice`);
  if (declaration.mapLayer) {
    const problem = mapLayerProblem(declaration.mapLayer, objectType, declaration.fields);
    if (problem) throw new Error(`map layer ${JSON.stringify(declaration.mapLayer.name)}: ${problem}`);
  }
  const definition: ResourceDefinition = {
    ...declaration,
    objectType,
    standardAttributes: { ...DEFAULT_STANDARD, ...declaration.standard },
    graphqlQueryName: declaration.graphqlName ?? declaration.verboseName.replace(/[- ]/g, '_'),
    listPath: `${apiPrefix}${declaration.path}/`,
  };
  declaredResources.set(objectType, definition);
  return definition;
}

export function uniqueGroups(definition: ResourceDeclaration): UniqueGroup[] {
  return (definition.uniqueTogether ?? []).map((group) => ('fields' in group ? group : { fields: group as readonly string[] }));
}

/** The database column of a field that has one (relations: `<name>_id`; many and generic have none of their own). */
export function columnOf(name: string, field: FieldSpec): string | undefined {
  if (field.kind === 'many' || field.kind === 'generic') return undefined;
  if (field.column) return field.column;
  return field.kind === 'relation' ? `${name}_id` : name;
}

/** Fields backed by a column of the resource's own table, with that column. */
export function columnFields(definition: ResourceDefinition): ReadonlyArray<{ name: string; field: FieldSpec; column: string }> {
  // Asked for every row read; a declaration's fields do not change once declared.
  let entries = columnFieldsByFields.get(definition.fields);
  if (!entries) {
    entries = Object.entries(definition.fields).flatMap(([name, field]) => {
      const column = columnOf(name, field);
      return column ? [{ name, field, column }] : [];
    });
    columnFieldsByFields.set(definition.fields, entries);
  }
  return entries;
}
const columnFieldsByFields = new WeakMap<object, ReadonlyArray<{ name: string; field: FieldSpec; column: string }>>();

export function relationFields(definition: ResourceDefinition): Array<{ name: string; field: RelationField; column: string }> {
  return columnFields(definition).filter(
    (entry): entry is { name: string; field: RelationField; column: string } => entry.field.kind === 'relation',
  );
}

export function manyFields(definition: ResourceDefinition): Array<{ name: string; field: ManyField }> {
  return Object.entries(definition.fields).flatMap(([name, field]) => (field.kind === 'many' ? [{ name, field }] : []));
}

/** Join table of a many-to-many field and its two columns. */
export function joinTableOf(definition: ResourceDefinition, name: string): { table: string; source: string; target: string } {
  const field = definition.fields[name] as ManyField;
  const target = field.target();
  const source = `${definition.model}_id`;
  const targetColumn = `${target.model}_id`;
  return { table: `${definition.table}_${name}`, source, target: targetColumn === source ? `to_${targetColumn}` : targetColumn };
}

/** Generic relation columns `<name>_type_id` and `<name>_id`. */
export function genericColumns(name: string): { type: string; id: string } {
  return { type: `${name}_type_id`, id: `${name}_id` };
}

/** A double-quoted SQL identifier; names come from declarations, never from requests. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A single-quoted SQL string literal, for text from declarations and definitions (request values are parameters). */
export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
