import {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  getArgumentValues,
  getIntrospectionQuery,
  getNamedType,
  getNullableType,
  GraphQLCompositeType,
  GraphQLError,
  GraphQLField,
  GraphQLSchema,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isListType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
  parse,
  SchemaMetaFieldDef,
  SelectionSetNode,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  ValidationRule,
} from 'graphql';

/*
 * Bounds on what one GraphQL operation may ask for. The validation rules (depth, root fields) need
 * no variables and are invalid-document tolerant: other rules report unknown fragments, unknown
 * fields and fragment cycles, so here those count as nothing rather than throwing or looping. The
 * cost needs the request's variables, so it is computed after validation (query-limits.plugin.ts).
 */

function isIntrospectionField(field: FieldNode): boolean {
  return field.name.value.startsWith('__');
}

/**
 * Rejects an operation whose deepest path has more than `maxDepth` fields, counting through
 * fragment spreads and inline fragments. Top-level introspection fields (`__schema`,
 * `__type`, `__typename`) and everything under them are not counted.
 */
export function maxDepthRule(maxDepth: number): ValidationRule {
  return (context) => {
    // Keyed by root-ness and name: the top-level exemption applies inside a fragment spread at the root too.
    const fragmentDepths = new Map<string, number>();
    const fragmentsInProgress = new Set<string>();

    const fragmentDepth = (name: string, atRoot: boolean): number => {
      const key = `${atRoot}:${name}`;
      const known = fragmentDepths.get(key);
      if (known !== undefined) return known;
      const fragment = context.getFragment(name);
      if (!fragment || fragmentsInProgress.has(key)) return 0;
      fragmentsInProgress.add(key);
      const depth = selectionSetDepth(fragment.selectionSet, atRoot);
      fragmentsInProgress.delete(key);
      fragmentDepths.set(key, depth);
      return depth;
    };

    const selectionSetDepth = (selectionSet: SelectionSetNode, atRoot: boolean): number => {
      let deepest = 0;
      for (const selection of selectionSet.selections) {
        let depth: number;
        if (selection.kind === Kind.FIELD) {
          if (atRoot && isIntrospectionField(selection)) continue;
          depth = 1 + (selection.selectionSet ? selectionSetDepth(selection.selectionSet, false) : 0);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          depth = selectionSetDepth(selection.selectionSet, atRoot);
        } else {
          depth = fragmentDepth(selection.name.value, atRoot);
        }
        deepest = Math.max(deepest, depth);
      }
      return deepest;
    };

    return {
      OperationDefinition(operation) {
        const depth = selectionSetDepth(operation.selectionSet, true);
        if (depth > maxDepth) {
          context.reportError(new GraphQLError(`Query depth ${depth} exceeds the maximum of ${maxDepth}`, { nodes: operation }));
        }
      },
    };
  };
}

/**
 * Rejects an operation that selects more than `maxRootFields` root fields, counting every alias
 * (and introspection field) as one, through fragments: each root field is a resolver run, however
 * cheap the cost estimate finds it. A response key selected twice is run once, so counts once.
 */
export function maxRootFieldsRule(maxRootFields: number): ValidationRule {
  return (context) => {
    const collectKeys = (selectionSet: SelectionSetNode, keys: Set<string>, fragmentsSeen: Set<string>): void => {
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) keys.add((selection.alias ?? selection.name).value);
        else if (selection.kind === Kind.INLINE_FRAGMENT) collectKeys(selection.selectionSet, keys, fragmentsSeen);
        else if (!fragmentsSeen.has(selection.name.value)) {
          fragmentsSeen.add(selection.name.value);
          const fragment = context.getFragment(selection.name.value);
          if (fragment) collectKeys(fragment.selectionSet, keys, fragmentsSeen);
        }
      }
    };
    return {
      OperationDefinition(operation) {
        const keys = new Set<string>();
        collectKeys(operation.selectionSet, keys, new Set());
        if (keys.size > maxRootFields) {
          context.reportError(
            new GraphQLError(`The operation selects ${keys.size} root fields (aliases included); the limit is ${maxRootFields}`, {
              nodes: operation,
            }),
          );
        }
      },
    };
  };
}

/** How the item count of a list field is estimated. */
export interface QueryCostOptions {
  /** Items assumed for a list field without a pagination argument (nested relations, tags). */
  listMultiplier: number;
  /** Items of a paginated list field (one with a `pagination: { limit }` or `limit` argument) given no positive limit. */
  defaultPageSize: number;
  /** The most items a paginated list field returns, whatever limit it is given. */
  maxPageSize: number;
}

/** An operation's estimated cost: its data fields, and its `__schema` and `__type` subtrees. */
export interface QueryCost {
  data: number;
  introspection: number;
}

/**
 * Estimates what an operation may produce, with the request's coerced variables: every field costs
 * 1, and the cost of the fields selected under a list field is multiplied by the number of items
 * it may return. For a paginated list that is its limit (literal or variable) capped to
 * `maxPageSize`; for another list, `listMultiplier`. Introspection lists count what this schema
 * holds: `types` every type, a type's `fields` (`inputFields`, …) the most any type has, or the
 * average when reached through `types`, where the sum over all types is what is returned.
 *
 * Meant for a validated document (an Apollo Server plugin's `didResolveOperation`); unknown
 * fragments and fields count as nothing and fragment cycles end, all the same.
 */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variableValues: Readonly<Record<string, unknown>>,
  options: QueryCostOptions,
): QueryCost {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const sizes = introspectionSizes(schema);
  // A fragment's cost depends only on its type condition and whether all types are being enumerated.
  const fragmentCosts = new Map<string, QueryCost>();
  const fragmentsInProgress = new Set<string>();

  const compositeType = (name: string): GraphQLCompositeType | undefined => {
    const type = schema.getType(name);
    return isCompositeType(type) ? type : undefined;
  };

  const fragmentCost = (name: string, enumerating: boolean): QueryCost => {
    const key = `${enumerating}:${name}`;
    const known = fragmentCosts.get(key);
    if (known) return known;
    const fragment = fragments.get(name);
    if (!fragment || fragmentsInProgress.has(key)) return { data: 0, introspection: 0 };
    fragmentsInProgress.add(key);
    const cost = selectionSetCost(fragment.selectionSet, compositeType(fragment.typeCondition.name.value), enumerating);
    fragmentsInProgress.delete(key);
    fragmentCosts.set(key, cost);
    return cost;
  };

  const selectionSetCost = (
    selectionSet: SelectionSetNode,
    parentType: GraphQLCompositeType | undefined,
    enumerating: boolean,
  ): QueryCost => {
    const cost: QueryCost = { data: 0, introspection: 0 };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const fieldTotal = fieldCost(selection, parentType, enumerating);
        if (name === SchemaMetaFieldDef.name || name === TypeMetaFieldDef.name) cost.introspection += fieldTotal;
        else cost.data += fieldTotal;
        continue;
      }
      const inner =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selectionSetCost(
              selection.selectionSet,
              selection.typeCondition ? compositeType(selection.typeCondition.name.value) : parentType,
              enumerating,
            )
          : fragmentCost(selection.name.value, enumerating);
      cost.data += inner.data;
      cost.introspection += inner.introspection;
    }
    return cost;
  };

  const fieldCost = (field: FieldNode, parentType: GraphQLCompositeType | undefined, enumerating: boolean): number => {
    if (!field.selectionSet || !parentType) return 1;
    const definition = fieldDefinition(schema, parentType, field.name.value);
    if (!definition) return 1;
    const childType = getNamedType(definition.type);
    const listed = isListType(getNullableType(definition.type));
    const introspective = isIntrospectionType(parentType);
    const enumeratingBelow = enumerating || (listed && parentType.name === '__Schema');
    const children = selectionSetCost(field.selectionSet, isCompositeType(childType) ? childType : undefined, enumeratingBelow);
    const childrenCost = children.data + children.introspection;
    if (!listed) return 1 + childrenCost;
    const items = introspective
      ? introspectionListSize(sizes, parentType.name, field.name.value, enumerating)
      : listSize(definition, field);
    return 1 + items * childrenCost;
  };

  const listSize = (definition: GraphQLField<unknown, unknown>, field: FieldNode): number => {
    const paginated = definition.args.some((argument) => argument.name === 'pagination' || argument.name === 'limit');
    if (!paginated) return options.listMultiplier;
    let limit: unknown;
    try {
      const args = getArgumentValues(definition, field, variableValues) as { pagination?: { limit?: unknown } | null; limit?: unknown };
      limit = args.pagination?.limit ?? args.limit;
    } catch {
      // Arguments the variables cannot satisfy fail the execution; until then, assume the largest page.
      return options.maxPageSize;
    }
    return typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0
      ? Math.min(limit, options.maxPageSize)
      : options.defaultPageSize;
  };

  const rootType = schema.getRootType(operation.operation) ?? undefined;
  return selectionSetCost(operation.selectionSet, rootType, false);
}

/** A field of `parentType`, including the introspection fields graphql-js keeps outside the types. */
function fieldDefinition(
  schema: GraphQLSchema,
  parentType: GraphQLCompositeType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (parentType === schema.getQueryType() && name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
  if (parentType === schema.getQueryType() && name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  return isObjectType(parentType) || isInterfaceType(parentType) ? parentType.getFields()[name] : undefined;
}

/** A count of one kind of introspection item: its average per owner (type or field) and its most on one. */
interface ItemCount {
  average: number;
  most: number;
}

interface IntrospectionSizes {
  types: number;
  directives: number;
  /** Per type: `fields`, `inputFields`, `enumValues`, `interfaces`, `possibleTypes`. */
  typeLists: Record<string, ItemCount>;
  /** Per field or directive: `args`. */
  args: ItemCount;
}

const introspectionSizesBySchema = new WeakMap<GraphQLSchema, IntrospectionSizes>();

function introspectionSizes(schema: GraphQLSchema): IntrospectionSizes {
  const known = introspectionSizesBySchema.get(schema);
  if (known) return known;
  const types = Object.values(schema.getTypeMap());
  const directives = schema.getDirectives();
  const count = (perOwner: number[]): ItemCount => ({
    average: perOwner.length === 0 ? 0 : Math.ceil(perOwner.reduce((sum, n) => sum + n, 0) / perOwner.length),
    most: Math.max(0, ...perOwner),
  });
  const fields = types.flatMap((type) => (isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : []));
  const sizes: IntrospectionSizes = {
    types: types.length,
    directives: directives.length,
    typeLists: {
      fields: count(types.map((type) => (isObjectType(type) || isInterfaceType(type) ? Object.keys(type.getFields()).length : 0))),
      inputFields: count(types.map((type) => (isInputObjectType(type) ? Object.keys(type.getFields()).length : 0))),
      enumValues: count(types.map((type) => (isEnumType(type) ? type.getValues().length : 0))),
      interfaces: count(types.map((type) => (isObjectType(type) || isInterfaceType(type) ? type.getInterfaces().length : 0))),
      possibleTypes: count(types.map((type) => (isAbstractType(type) ? schema.getPossibleTypes(type).length : 0))),
    },
    args: count([...fields, ...directives].map((owner) => owner.args.length)),
  };
  introspectionSizesBySchema.set(schema, sizes);
  return sizes;
}

function introspectionListSize(sizes: IntrospectionSizes, parentType: string, field: string, enumerating: boolean): number {
  const pick = (itemCount: ItemCount) => (enumerating ? itemCount.average : itemCount.most);
  if (parentType === '__Schema') return field === 'directives' ? sizes.directives : sizes.types;
  if (parentType === '__Type') return pick(sizes.typeLists[field] ?? { average: sizes.types, most: sizes.types });
  return pick(sizes.args);
}

const introspectionLimits = new WeakMap<GraphQLSchema, number>();

/** The standard introspection query with every option on: what GraphiQL and code generators may ask. */
export const FULL_INTROSPECTION = {
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
} as const;

/**
 * The most introspection one operation may cost on `schema`: twice the full introspection query
 * (every option on), so GraphiQL and code generators work whatever the schema's size, with room
 * for clients whose query asks a little more, while repeating the schema in aliases does not.
 */
export function introspectionCostLimit(schema: GraphQLSchema, options: QueryCostOptions): number {
  const known = introspectionLimits.get(schema);
  if (known !== undefined) return known;
  const document = parse(getIntrospectionQuery(FULL_INTROSPECTION));
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  )!;
  const limit = 2 * queryCost(schema, document, operation, {}, options).introspection;
  introspectionLimits.set(schema, limit);
  return limit;
}
