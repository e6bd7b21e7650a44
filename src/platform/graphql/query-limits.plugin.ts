import type { ApolloServerPlugin } from '@apollo/server';
import { FormattedExecutionResult, getVariableValues, GraphQLError } from 'graphql';
import { introspectionCostLimit, queryCost, QueryCostOptions } from './query-limits';

export interface QueryLimits {
  /** Largest estimated cost of an operation's data fields. */
  maxCost: number;
  /** Largest serialised answer, in bytes. */
  maxResponseBytes: number;
  cost: QueryCostOptions;
}

/**
 * Refuses, with 400, an operation whose estimated cost (with the request's variables, which
 * validation rules never see) is over `maxCost`, or whose introspection is over the schema's
 * introspection limit, before anything is resolved; and replaces an answer whose JSON is larger
 * than `maxResponseBytes` with a 400 error. The cost estimate is what keeps such answers from being
 * built; the size check is the backstop.
 *
 * `stringifyResult` is the server's serialiser: it reuses the JSON the size check made rather than
 * serialising the answer a second time.
 */
export function queryLimitsPlugin(limits: QueryLimits): {
  plugin: ApolloServerPlugin;
  stringifyResult: (result: FormattedExecutionResult) => string;
} {
  // The checked JSON of an answer, by its `data` object: Apollo hands the serialiser a copy of the result holding the same `data`.
  const serialised = new WeakMap<object, string>();

  const plugin: ApolloServerPlugin = {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (!operation) return;
          const variables = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
          // Variables that do not fit the operation fail its execution before any resolver runs.
          if (variables.errors) return;
          const cost = queryCost(schema, document, operation, variables.coerced, limits.cost);
          if (cost.data > limits.maxCost) throw refusal(`Query complexity ${cost.data} exceeds the maximum of ${limits.maxCost}`);
          const introspectionLimit = introspectionCostLimit(schema, limits.cost);
          if (cost.introspection > introspectionLimit) {
            throw refusal(`Introspection complexity ${cost.introspection} exceeds the maximum of ${introspectionLimit}`);
          }
        },
        // Synchronous up to its end, so it runs before Nest's own hook, which resets the status of an answer with `data` to 200.
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          const json = stringify({ errors: result.errors, data: result.data, extensions: result.extensions });
          const bytes = Buffer.byteLength(json);
          if (bytes > limits.maxResponseBytes) {
            response.body.singleResult = {
              errors: [
                {
                  message: `The answer would be ${bytes} bytes, over the limit of ${limits.maxResponseBytes}; ask for fewer objects or fields`,
                  extensions: { code: 'RESPONSE_TOO_LARGE' },
                },
              ],
            };
            response.http.status = 400;
          } else if (typeof result.data === 'object' && result.data !== null) {
            serialised.set(result.data, json);
          }
        },
      };
    },
  };

  const stringifyResult = (result: FormattedExecutionResult): string =>
    (typeof result.data === 'object' && result.data !== null ? serialised.get(result.data) : undefined) ?? stringify(result);

  return { plugin, stringifyResult };
}

/** Apollo's own serialisation: JSON and a newline. */
function stringify(result: FormattedExecutionResult): string {
  return `${JSON.stringify(result)}\n`;
}

function refusal(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });
}
