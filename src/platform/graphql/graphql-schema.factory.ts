import {
  defaultFieldResolver,
  GraphQLBoolean,
  GraphQLError,
  GraphQLFieldConfig,
  GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLOutputType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
} from 'graphql';
import { supportedLookups } from '../framework/query/filter-fields';
import type { QueryParameters } from '../framework/query/filter-parser';
import { MAX_OBJECT_ID } from '../framework/resource/field-input';
import { FieldSpec } from '../framework/resource/fields';
import type { GraphqlUnionList, PropertySchema } from '../framework/resource/resource-declaration';
import { genericColumns, ResourceDefinition, ResourceRow } from '../framework/resource/resource-definition';
import { filterSetOf } from '../framework/resource/resource-filters';
import { OBJECT_TYPE_OBJECT } from '../framework/resource/resource-serializer';
import type { ConcurrencyLimit } from './concurrency-limit';
import { FilterTerm, FilterValueScalar } from './graphql-filter-value';
import type { GraphqlLoaders } from './graphql-loaders';

export interface GraphqlContext {
  loaders: GraphqlLoaders;
  /** Bounds how many of the request's root fields resolve at once (each may hold a database connection). */
  rootFields: ConcurrencyLimit;
}

/** What a query extension may use: the generated object types and the served models, by object type. */
export interface GraphqlSchemaTools {
  /** The GraphQL type of a served model (`RoutingBgpPeerType` for `'routing.bgppeer'`). */
  typeOf: (objectType: string) => GraphQLObjectType;
  /** The served model, for the loaders (`context.loaders.list(definition, filters, page)`). */
  definition: (objectType: string) => ResourceDefinition;
}

/** Root query fields added to the generated ones (a plugin's `graphqlQueries`). */
export type GraphqlQueryExtension = (tools: GraphqlSchemaTools) => GraphQLFieldConfigMap<unknown, GraphqlContext>;

/** Any JSON value (custom fields, JSON model fields), passed through as is. */
const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/**
 * The read-only GraphQL schema, generated from the same resource declarations as REST: per resource
 * a type with snake_case fields, `<name>(id: ID!)` and `<name>_list(filters, pagination)`, and the
 * same pair under each deprecated former name. Filters are the REST filter parameters, each taking a
 * value, a list (as a repeated query parameter) or a NetBox 4 lookup object, so both APIs select the
 * same rows; related objects, reverse lists and computed properties are resolved through
 * per-request batch loaders, one statement per level.
 * `extensions` add root fields of their own (plugins' custom queries). Every root field resolves
 * through the request's `rootFields` limit, so one request's aliases cannot take every connection.
 */
export function buildGraphqlSchema(
  definitions: readonly ResourceDefinition[],
  extensions: readonly GraphqlQueryExtension[] = [],
): GraphQLSchema {
  const exposed = definitions.filter((definition) => definition.objectType !== OBJECT_TYPE_OBJECT && definition.graphql?.exposed !== false);
  const types = new Map<ResourceDefinition, GraphQLObjectType>();
  const typeOf = (definition: ResourceDefinition): GraphQLObjectType => {
    let type = types.get(definition);
    if (!type) {
      type = new GraphQLObjectType<ResourceRow, GraphqlContext>({
        name: definition.graphql?.typeName ?? `${pascal(definition.graphqlQueryName)}Type`,
        fields: () => objectFields(definition, typeOf, tagType, served, unionOf),
      });
      types.set(definition, type);
    }
    return type;
  };
  const unions = new Map<string, { type: GraphQLUnionType; objectTypes: string }>();
  const unionOf = (list: GraphqlUnionList): GraphQLUnionType => {
    const objectTypes = list.objectTypes.join(',');
    const known = unions.get(list.union);
    if (known) {
      if (known.objectTypes !== objectTypes) throw new Error(`GraphQL union ${list.union} is declared with different models`);
      return known.type;
    }
    const type = new GraphQLUnionType({
      name: list.union,
      types: () => list.objectTypes.map((objectType) => typeOf(served(objectType))),
      resolveType: (row: ResourceRow, context: GraphqlContext) => {
        const member = context.loaders.unionMemberDefinition(row);
        return member && typeOf(member).name;
      },
    });
    unions.set(list.union, { type, objectTypes });
    return type;
  };
  const tagDefinition = definitions.find((definition) => definition.objectType === 'extras.tag');
  const tagType = () => (tagDefinition ? typeOf(tagDefinition) : undefined);

  const pagination = new GraphQLInputObjectType({
    name: 'OffsetPaginationInput',
    fields: { offset: { type: GraphQLInt }, limit: { type: GraphQLInt } },
  });

  const queryFields: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  const define = (name: string, objectType: string, field: GraphQLFieldConfig<unknown, GraphqlContext>) => {
    // A repeated name would silently replace another model's query (`prefix_list` of ipam.prefix vs routing's prefix list).
    if (Object.hasOwn(queryFields, name)) throw new Error(`GraphQL query ${name} of ${objectType} is already defined`);
    queryFields[name] = field;
  };
  for (const definition of exposed) {
    const type = typeOf(definition);
    const single: GraphQLFieldConfig<unknown, GraphqlContext> = {
      type,
      // NetBox's `id: ID!`: a query declared `query($id: ID!)` works, and so does an Int literal.
      args: { id: { type: new GraphQLNonNull(definition.graphql?.intId ? GraphQLInt : GraphQLID) } },
      resolve: (_source, args: { id: string | number }, context) => context.loaders.row(definition, objectId(String(args.id))),
    };
    const list: GraphQLFieldConfig<unknown, GraphqlContext> = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))),
      // An empty `graphql.filters` means a list without a filter input (a spec that names none).
      args: {
        ...(definition.graphql?.filters?.length === 0 ? {} : { filters: { type: filterInput(definition) } }),
        pagination: { type: pagination },
      },
      resolve: (_source, args: { filters?: Record<string, FilterTerm[]>; pagination?: { offset?: number; limit?: number } }, context) =>
        context.loaders.list(definition, queryParameters(args.filters ?? {}), {
          offset: Math.max(args.pagination?.offset ?? 0, 0),
          limit: Math.min(Math.max(args.pagination?.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT),
        }),
    };
    const name = definition.graphqlQueryName;
    define(name, definition.objectType, single);
    define(`${name}_list`, definition.objectType, list);
    for (const former of definition.graphql?.deprecatedNames ?? []) {
      define(former, definition.objectType, { ...single, deprecationReason: `Use ${name}.` });
      define(`${former}_list`, definition.objectType, { ...list, deprecationReason: `Use ${name}_list.` });
    }
  }
  function served(objectType: string): ResourceDefinition {
    const definition = exposed.find((candidate) => candidate.objectType === objectType);
    if (!definition) throw new Error(`GraphQL: ${objectType} is not a served model`);
    return definition;
  }
  const tools: GraphqlSchemaTools = { typeOf: (objectType) => typeOf(served(objectType)), definition: served };
  for (const extension of extensions) {
    for (const [name, field] of Object.entries(extension(tools))) {
      if (Object.hasOwn(queryFields, name)) throw new Error(`GraphQL query ${name} is already defined`);
      queryFields[name] = field;
    }
  }
  const limitedFields = Object.fromEntries(Object.entries(queryFields).map(([name, field]) => [name, withinRootFieldLimit(field)]));
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: limitedFields }) });
}

function withinRootFieldLimit(field: GraphQLFieldConfig<unknown, GraphqlContext>): GraphQLFieldConfig<unknown, GraphqlContext> {
  const resolve = field.resolve ?? defaultFieldResolver;
  return { ...field, resolve: (source, args, context, info) => context.rootFields.run(() => resolve(source, args, context, info)) };
}

function objectFields(
  definition: ResourceDefinition,
  typeOf: (definition: ResourceDefinition) => GraphQLObjectType,
  tagType: () => GraphQLObjectType | undefined,
  served: (objectType: string) => ResourceDefinition,
  unionOf: (list: GraphqlUnionList) => GraphQLUnionType,
): GraphQLFieldConfigMap<ResourceRow, GraphqlContext> {
  const fields: GraphQLFieldConfigMap<ResourceRow, GraphqlContext> = {
    id: { type: new GraphQLNonNull(GraphQLID) },
    display: { type: GraphQLString, resolve: (row) => definition.display(row) },
  };
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.writeOnly) continue;
    // A relation to a model left out of GraphQL is left out with it.
    if ((field.kind === 'relation' || field.kind === 'many') && field.target().graphql?.exposed === false) continue;
    Object.assign(fields, fieldConfigs(definition, name, field, typeOf));
  }
  for (const [name, list] of Object.entries(definition.graphql?.lists ?? {})) {
    const target = served(list.objectType);
    const relationField = target.fields[list.field];
    const column = (relationField?.kind === 'relation' && relationField.column) || `${list.field}_id`;
    fields[name] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(typeOf(target)))),
      resolve: (row, _args, context) => context.loaders.children(target, list.field, column, row.id),
    };
  }
  for (const [name, list] of Object.entries(definition.graphql?.unionLists ?? {})) {
    fields[name] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(unionOf(list)))),
      resolve: (row, _args, context) => context.loaders.unionList(list, name, row.id),
    };
  }
  for (const extension of definition.extensions ?? []) {
    if (!extension.computed) continue;
    for (const [name, schema] of Object.entries(extension.readSchema ?? {})) {
      if (Object.hasOwn(fields, name)) continue;
      fields[name] = {
        type: computedType(schema.type),
        resolve: async (row, _args, context) => (await context.loaders.computed(definition, extension, row))[name] ?? null,
      };
    }
  }
  const standard = definition.standardAttributes;
  const tags = tagType();
  if (standard.tags && tags) {
    fields.tags = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(tags))),
      resolve: (row, _args, context) => context.loaders.tags(definition, row.id),
    };
  }
  if (standard.customFields) fields.custom_fields = { type: JsonScalar, resolve: (row) => row.custom_field_data ?? {} };
  if (standard.created) fields.created = { type: GraphQLString, resolve: (row) => iso(row[standard.created as string]) };
  if (standard.lastUpdated) fields.last_updated = { type: GraphQLString, resolve: (row) => iso(row[standard.lastUpdated as string]) };
  return fields;
}

function fieldConfigs(
  definition: ResourceDefinition,
  name: string,
  field: FieldSpec,
  typeOf: (definition: ResourceDefinition) => GraphQLObjectType,
): Record<string, GraphQLFieldConfig<ResourceRow, GraphqlContext>> {
  switch (field.kind) {
    case 'relation': {
      const column = field.column ?? `${name}_id`;
      const target = field.target();
      if (target.objectType === OBJECT_TYPE_OBJECT) {
        return { [name]: { type: GraphQLString, resolve: (row, _args, context) => context.loaders.objectTypeLabel(row[column]) } };
      }
      return {
        [name]: {
          type: typeOf(target),
          resolve: (row, _args, context) => (row[column] === null ? null : context.loaders.row(target, row[column] as number)),
        },
      };
    }
    case 'many': {
      const target = field.target();
      if (target.objectType === OBJECT_TYPE_OBJECT) {
        return {
          [name]: {
            type: new GraphQLList(GraphQLString),
            resolve: async (row, _args, context) => {
              const ids = await context.loaders.manyIds(definition, name, row.id);
              return ids.map((id) => context.loaders.objectTypeLabel(id));
            },
          },
        };
      }
      return {
        [name]: {
          type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(typeOf(target)))),
          resolve: async (row, _args, context) => {
            const ids = await context.loaders.manyIds(definition, name, row.id);
            const rows = await Promise.all(ids.map((id) => context.loaders.row(target, id)));
            return rows.filter((related) => related !== null);
          },
        },
      };
    }
    case 'generic': {
      const columns = genericColumns(name);
      return {
        [`${name}_type`]: { type: GraphQLString, resolve: (row, _args, context) => context.loaders.objectTypeLabel(row[columns.type]) },
        [`${name}_id`]: { type: GraphQLInt, resolve: (row) => row[columns.id] },
      };
    }
    default:
      return { [name]: { type: scalarType(field), resolve: (row) => scalarValue(field, row[field.column ?? name]) } };
  }
}

function scalarType(field: FieldSpec): GraphQLOutputType {
  switch (field.kind) {
    case 'integer':
      return field.big ? GraphQLFloat : GraphQLInt;
    case 'decimal':
      return GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    case 'json':
      return JsonScalar;
    case 'string-list':
      return new GraphQLList(GraphQLString);
    default:
      return GraphQLString;
  }
}

function computedType(type: PropertySchema['type']): GraphQLOutputType {
  switch (type) {
    case 'integer':
      return GraphQLInt;
    case 'number':
      return GraphQLFloat;
    case 'string':
      return GraphQLString;
    case 'boolean':
      return GraphQLBoolean;
    default:
      return JsonScalar;
  }
}

function scalarValue(field: FieldSpec, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (field.kind === 'choice' && value === '') return null;
  return value ?? null;
}

/**
 * One input field per REST filter parameter and lookup (`name`, `name__ic`, `tenant_id`, …), plus `q`
 * and `tag`; a bare parameter also takes NetBox 4's lookup objects (`name: {i_contains: "x"}`).
 */
function filterInput(definition: ResourceDefinition): GraphQLInputObjectType {
  return new GraphQLInputObjectType({
    name: `${pascal(definition.graphqlQueryName)}Filter`,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      const input = { type: FilterValueScalar };
      const only = definition.graphql?.filters;
      if (only) return Object.fromEntries(only.map((param) => [param, input]));
      for (const [param, filter] of Object.entries(filterSetOf(definition))) {
        for (const lookup of supportedLookups(filter.type)) fields[lookup === 'exact' ? param : `${param}__${lookup}`] = input;
      }
      for (const param of Object.keys(definition.extraFilters ?? {})) fields[param] = input;
      fields.q = input;
      if (definition.standardAttributes.tags) {
        fields.tag = input;
        fields.tag__n = input;
      }
      return fields;
    },
  });
}

/** The REST parameters of a filter input: `{name: {i_contains: "x"}}` is `name__ic=x`, as the REST list reads it. */
function queryParameters(filters: Record<string, FilterTerm[]>): QueryParameters {
  const parameters: Record<string, string[]> = {};
  for (const [param, terms] of Object.entries(filters)) {
    for (const { lookup, values, from } of terms) {
      if (from !== undefined && param.includes('__'))
        throw new GraphQLError(`filters.${param}: a lookup object applies to a bare field name (${param.split('__')[0]})`);
      const name = lookup === '' ? param : `${param}__${lookup}`;
      parameters[name] = [...(parameters[name] ?? []), ...values];
    }
  }
  return parameters;
}

/** A GraphQL `ID` as a row id: an id no row can have is refused by name rather than answered null. */
function objectId(id: string): number {
  if (!/^[1-9]\d*$/.test(id) || Number(id) > MAX_OBJECT_ID) throw new GraphQLError(`id: "${id}" is not a valid object id`);
  return Number(id);
}

function pascal(snake: string): string {
  return snake.replace(/(^|_)([a-z0-9])/g, (_match, _separator, letter: string) => letter.toUpperCase());
}

function iso(value: unknown): string | null {
  return value instanceof Date ? value.toISOString() : ((value as string | null | undefined) ?? null);
}
