import {
  FieldNode,
  getNamedType,
  getNullableType,
  GraphQLCompositeType,
  GraphQLError,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  SelectionSetNode,
  ValidationRule,
  ValueNode,
} from 'graphql';

/*
 * Validation rules bounding what one GraphQL document may ask for. Introspection fields are
 * exempt so GraphiQL's schema query passes; graphql-js's own MaxIntrospectionDepthRule (part
 * of `specifiedRules`, which Apollo Server always runs) bounds introspection nesting instead.
 *
 * Both rules are invalid-document tolerant: other rules report unknown fragments, unknown
 * fields and fragment cycles, so here those count as nothing rather than throwing or looping.
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
 * Rejects an operation whose estimated cost exceeds `maxComplexity`. Every field costs 1,
 * introspection fields cost nothing, and the cost of the fields selected under a list-typed
 * field is multiplied by the number of items it may return: its `pagination: { limit }`
 * argument when that is a positive integer, else `listMultiplier` (also for a limit of 0 or
 * less, which bounds nothing).
 *
 * graphql-js runs validation rules without the request's variables, so a limit given as a
 * variable (`limit: $n`, `pagination: $page`) counts as `listMultiplier` unless
 * `variableValues` is passed — which a caller holding the request (an Apollo Server plugin's
 * `didResolveOperation`, running `validate` itself) can do.
 */
export function maxComplexityRule(
  maxComplexity: number,
  listMultiplier: number,
  variableValues?: Readonly<Record<string, unknown>>,
): ValidationRule {
  return (context) => {
    const schema = context.getSchema();
    // A fragment's cost depends only on its own type condition, so each is walked once.
    const fragmentCosts = new Map<string, number>();
    const fragmentsInProgress = new Set<string>();

    const compositeType = (name: string): GraphQLCompositeType | undefined => {
      const type = schema.getType(name);
      return isCompositeType(type) ? type : undefined;
    };

    const fragmentCost = (name: string): number => {
      const known = fragmentCosts.get(name);
      if (known !== undefined) return known;
      const fragment = context.getFragment(name);
      if (!fragment || fragmentsInProgress.has(name)) return 0;
      fragmentsInProgress.add(name);
      const cost = selectionSetCost(fragment.selectionSet, compositeType(fragment.typeCondition.name.value));
      fragmentsInProgress.delete(name);
      fragmentCosts.set(name, cost);
      return cost;
    };

    const fieldCost = (field: FieldNode, parentType: GraphQLCompositeType | undefined): number => {
      if (isIntrospectionField(field)) return 0;
      if (!field.selectionSet) return 1;
      const definition =
        parentType && (isObjectType(parentType) || isInterfaceType(parentType)) ? parentType.getFields()[field.name.value] : undefined;
      const childType = definition ? getNamedType(definition.type) : undefined;
      const childrenCost = selectionSetCost(field.selectionSet, isCompositeType(childType) ? childType : undefined);
      const itemCount = definition && isListType(getNullableType(definition.type)) ? listSize(field) : 1;
      return 1 + itemCount * childrenCost;
    };

    const selectionSetCost = (selectionSet: SelectionSetNode, parentType: GraphQLCompositeType | undefined): number => {
      let cost = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) cost += fieldCost(selection, parentType);
        else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const type = selection.typeCondition ? compositeType(selection.typeCondition.name.value) : parentType;
          cost += selectionSetCost(selection.selectionSet, type);
        } else cost += fragmentCost(selection.name.value);
      }
      return cost;
    };

    const listSize = (field: FieldNode): number => {
      const pagination = field.arguments?.find((argument) => argument.name.value === 'pagination')?.value;
      let limit: unknown;
      if (pagination?.kind === Kind.OBJECT) {
        const limitNode = pagination.fields.find((objectField) => objectField.name.value === 'limit')?.value;
        limit = limitNode && literalOrVariableValue(limitNode);
      } else if (pagination?.kind === Kind.VARIABLE) {
        const page = variableValues?.[pagination.name.value];
        limit = typeof page === 'object' && page !== null ? (page as Record<string, unknown>).limit : undefined;
      }
      return typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0 ? limit : listMultiplier;
    };

    const literalOrVariableValue = (value: ValueNode): unknown => {
      if (value.kind === Kind.INT) return Number(value.value);
      if (value.kind === Kind.VARIABLE) return variableValues?.[value.name.value];
      return undefined;
    };

    return {
      OperationDefinition(operation) {
        const rootType = schema.getRootType(operation.operation) ?? undefined;
        const complexity = selectionSetCost(operation.selectionSet, rootType);
        if (complexity > maxComplexity) {
          context.reportError(
            new GraphQLError(`Query complexity ${complexity} exceeds the maximum of ${maxComplexity}`, {
              nodes: operation,
            }),
          );
        }
      },
    };
  };
}
