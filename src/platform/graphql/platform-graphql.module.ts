import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { Request } from 'express';
import { GraphQLError } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { DataSource } from 'typeorm';
import type { AuthenticatedRequest } from '../../common/auth/current-principal.decorator';
import { PlatformAccessDenied, PlatformAuthenticator } from '../../common/auth/platform-authenticator';
import { AppConfig } from '../../common/config/app-config';
import { DatabaseUnavailableError } from '../../common/errors/common-errors';
import { isDatabaseUnavailable } from '../../common/errors/database-unavailable';
import { AuthModule } from '../../modules/auth/auth.module';
import { ResourceRegistry } from '../framework/resource/resource-registry';
import { ResourceService } from '../framework/resource/resource.service';
import { PluginSet } from '../plugins/plugin-set';
import { GRAPHQL_PATH, GraphqlExplorerController } from './graphql-explorer.controller';
import { ConcurrencyLimit } from './concurrency-limit';
import { GraphqlLoaders } from './graphql-loaders';
import { buildGraphqlSchema, DEFAULT_LIMIT, GraphqlContext, MAX_LIMIT } from './graphql-schema.factory';
import { maxDepthRule, maxRootFieldsRule } from './query-limits';
import { queryLimitsPlugin } from './query-limits.plugin';

const MAX_DEPTH = 10;
/** Assumed size of a nested list without its own pagination (tags, many-to-many sets). */
const NESTED_LIST_SIZE = 10;

/**
 * The platform's read-only GraphQL API at `/graphql/` (Apollo through @nestjs/graphql), with the
 * schema generated from the resource declarations. Every request is authenticated like the REST
 * API (a credential is required; refusals are NetBox's 403) before Apollo sees it.
 */
@Module({})
export class PlatformGraphqlModule {
  static forRoot(): DynamicModule {
    return {
      module: PlatformGraphqlModule,
      imports: [
        AuthModule,
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [AuthModule],
          inject: [ResourceRegistry, ResourceService, DataSource, PlatformAuthenticator, PluginSet, AppConfig],
          useFactory: (
            registry: ResourceRegistry,
            resources: ResourceService,
            dataSource: DataSource,
            authenticator: PlatformAuthenticator,
            plugins: PluginSet,
            config: AppConfig,
          ) => {
            const limits = config.graphqlLimits;
            const queryLimits = queryLimitsPlugin({
              maxCost: limits.maxCost,
              maxResponseBytes: limits.maxResponseBytes,
              cost: { listMultiplier: NESTED_LIST_SIZE, defaultPageSize: DEFAULT_LIMIT, maxPageSize: MAX_LIMIT },
            });
            return {
              path: GRAPHQL_PATH,
              schema: buildGraphqlSchema(
                registry.definitions,
                plugins.mounted.flatMap(({ plugin }) => (plugin.graphqlQueries ? [plugin.graphqlQueries] : [])),
              ),
              playground: false,
              graphiql: false,
              introspection: true,
              includeStacktraceInErrorResponses: false,
              // A resolver's database failure keeps its partial-data 200, but says what happened without internals.
              formatError: (formatted, error) =>
                isDatabaseUnavailable(unwrapResolverError(error))
                  ? { message: new DatabaseUnavailableError().message, path: formatted.path, extensions: { code: 'SERVICE_UNAVAILABLE' } }
                  : formatted,
              validationRules: [maxDepthRule(MAX_DEPTH), maxRootFieldsRule(limits.maxRootFields)],
              plugins: [queryLimits.plugin, retryAfterOnDatabaseUnavailable],
              stringifyResult: queryLimits.stringifyResult,
              context: async ({ req }: { req: Request }): Promise<GraphqlContext> => {
                const request = req as AuthenticatedRequest;
                try {
                  request.principal ??= await authenticator.authenticate(req.header('authorization'), 'GET');
                } catch (error) {
                  if (isDatabaseUnavailable(error)) throw databaseUnavailableGraphqlError();
                  if (!(error instanceof PlatformAccessDenied)) throw error;
                  // Apollo turns this into an HTTP 403 with a GraphQL error body.
                  throw new GraphQLError(error.message, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
                }
                return {
                  loaders: new GraphqlLoaders(dataSource.manager, resources, registry, request.principal),
                  rootFields: new ConcurrencyLimit(limits.rootFieldConcurrency),
                };
              },
            };
          },
        }),
      ],
      controllers: [GraphqlExplorerController],
    };
  }
}

/** An answer carrying a resolver's SERVICE_UNAVAILABLE error says when to try again, as the 503 does. */
const retryAfterOnDatabaseUnavailable: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        if (!response.body.singleResult.errors?.some((error) => error.extensions?.code === 'SERVICE_UNAVAILABLE')) return;
        for (const [name, value] of Object.entries(new DatabaseUnavailableError().headers())) response.http.headers.set(name, value);
      },
    };
  },
};

/** The REST API's 503 for a database that is down or does not answer, as Apollo's HTTP error. */
function databaseUnavailableGraphqlError(): GraphQLError {
  const unavailable = new DatabaseUnavailableError();
  return new GraphQLError(unavailable.message, {
    extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: new Map(Object.entries(unavailable.headers())) } },
  });
}
